// The runner authorisation matrix (GitLab 18.x, reference §13), table-driven: actor x operation x runner
// type -> expected status. Roles come from membership of the group G that holds project P (owner project
// of the project runner and second project Q); "outsider" maintains an unrelated project.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createToken, createUser } from '../support/users';
import { createRunner, dbQuery, linkProject, type RunnerKind } from './runners-admin-support';

const ACTORS = ['anonymous', 'read_user', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin', 'outsider'] as const;
type ActorName = (typeof ACTORS)[number];
const TYPES: RunnerKind[] = ['instance_type', 'group_type', 'project_type'];

const tokens: Partial<Record<ActorName, string>> = {};
const runners: Partial<Record<RunnerKind, number>> = {};
let group: any;
let projectP: any;
let projectQ: any;

type Row = Record<ActorName, number>;
/** Expected status per actor; `t` fills the roles that differ by runner type. */
function row(base: Partial<Row>, rest: number): Row {
  const out = {} as Row;
  for (const a of ACTORS) out[a] = base[a] ?? rest;
  return out;
}
const common = { anonymous: 401, read_user: 403 };

// [operation, runner type] -> expected status per actor.
const MATRIX: Record<string, Record<RunnerKind, Row>> = {
  'GET /runners/:id': {
    instance_type: row({ ...common }, 200),
    group_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
    project_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
  },
  'GET /runners/:id/managers': {
    instance_type: row({ ...common }, 200),
    group_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
    project_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
  },
  'GET /runners/:id/projects': {
    instance_type: row({ ...common }, 200),
    group_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
    project_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
  },
  'PUT /runners/:id': {
    instance_type: row({ ...common, admin: 200 }, 403),
    group_type: row({ ...common, owner: 200, admin: 200 }, 403),
    project_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
  },
  'GET /runners/:id/jobs': {
    instance_type: row({ ...common, admin: 200 }, 403),
    group_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
    project_type: row({ ...common, maintainer: 200, owner: 200, admin: 200 }, 403),
  },
  'DELETE /runners/:id': {
    instance_type: row({ ...common, admin: 204 }, 403),
    group_type: row({ ...common, owner: 204, admin: 204 }, 403),
    project_type: row({ ...common, maintainer: 204, owner: 204, admin: 204 }, 403),
  },
  'POST /projects/:id/runners': {
    instance_type: row({ ...common, guest: 403, reporter: 403, developer: 403, outsider: 404 }, 403),
    group_type: row({ ...common, outsider: 404 }, 403),
    project_type: row({ ...common, maintainer: 201, owner: 201, admin: 201, outsider: 404 }, 403),
  },
  'DELETE /projects/:id/runners/:runner_id': {
    instance_type: row({ ...common, maintainer: 404, owner: 404, admin: 404, outsider: 404 }, 403),
    group_type: row({ ...common, maintainer: 404, owner: 404, admin: 404, outsider: 404 }, 403),
    project_type: row({ ...common, maintainer: 204, owner: 204, admin: 204, outsider: 404 }, 403),
  },
};

const LIST_MATRIX: Record<string, Row> = {
  'GET /projects/:id/runners': row({ ...common, maintainer: 200, owner: 200, admin: 200, outsider: 404 }, 403),
  'GET /groups/:id/runners': row({ ...common, maintainer: 200, owner: 200, admin: 200, outsider: 404 }, 403),
  'GET /runners': row({ ...common }, 200),
  'GET /runners/all': row({ ...common, admin: 200 }, 403),
};

async function freshRunner(type: RunnerKind): Promise<number> {
  if (type === 'instance_type') return createRunner(type);
  if (type === 'group_type') return createRunner(type, { groupId: group.id });
  return createRunner(type, { projectId: projectP.id });
}

async function call(op: string, type: RunnerKind, actor: ActorName): Promise<{ status: number; body: any }> {
  const token = tokens[actor];
  const [method, path] = op.split(' ');
  if (method === 'DELETE' && path === '/runners/:id') {
    // Only cases expected to succeed spend a fresh runner; the others must leave the shared one alone.
    const id = MATRIX[op][type][actor] === 204 ? await freshRunner(type) : runners[type]!;
    const res = await api('DELETE', `/runners/${id}`, { token });
    if (res.status !== 204) expect(await dbQuery('SELECT id FROM ci_runners WHERE id = $1', [id])).toHaveLength(1);
    return res;
  }
  const id = runners[type]!;
  if (op === 'PUT /runners/:id') return api('PUT', `/runners/${id}`, { token, json: { description: `by ${actor}` } });
  if (op === 'POST /projects/:id/runners') {
    const res = await api('POST', `/projects/${projectQ.id}/runners`, { token, json: { runner_id: id } });
    await dbQuery('DELETE FROM ci_runner_projects WHERE runner_id = $1 AND project_id = $2', [id, projectQ.id]);
    return res;
  }
  if (op === 'DELETE /projects/:id/runners/:runner_id') {
    if (type === 'project_type')
      await dbQuery('INSERT INTO ci_runner_projects (runner_id, project_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, projectQ.id]);
    const res = await api('DELETE', `/projects/${projectQ.id}/runners/${id}`, { token });
    await dbQuery('DELETE FROM ci_runner_projects WHERE runner_id = $1 AND project_id = $2', [id, projectQ.id]);
    return res;
  }
  return api(method, path.replace(':id', String(id)), { token });
}

describe('[RUNNERS] authorisation matrix', () => {
  beforeAll(async () => {
    const root = rootToken();
    group = await createGroup(root);
    projectP = await createProject(root, { namespaceId: group.id });
    projectQ = await createProject(root, { namespaceId: group.id });
    const levels: [ActorName, number][] = [
      ['guest', 10],
      ['reporter', 20],
      ['developer', 30],
      ['maintainer', 40],
      ['owner', 50],
    ];
    for (const [name, level] of levels) {
      const u = await createUser();
      await addGroupMember(root, group.id, u.id, level);
      tokens[name] = u.token;
      if (name === 'maintainer') tokens.read_user = await createToken(u.id, ['read_user']);
    }
    tokens.admin = (await createUser({ admin: true })).token;
    const outsider = await createUser();
    await createProject(outsider.token);
    tokens.outsider = outsider.token;
    for (const t of TYPES) runners[t] = await freshRunner(t);
  });

  for (const [op, byType] of Object.entries(MATRIX)) {
    for (const type of TYPES) {
      it(`${op} on a ${type} runner`, async () => {
        const got: Record<string, number> = {};
        for (const actor of ACTORS) got[actor] = (await call(op, type, actor)).status;
        expect(got).toEqual(byType[type]);
      });
    }
  }

  for (const [op, expected] of Object.entries(LIST_MATRIX)) {
    it(op, async () => {
      const got: Record<string, number> = {};
      for (const actor of ACTORS) {
        const path = op.split(' ')[1].replace('/projects/:id', `/projects/${projectP.id}`).replace('/groups/:id', `/groups/${group.id}`);
        got[actor] = (await api('GET', path, { token: tokens[actor] })).status;
      }
      expect(got).toEqual(expected);
    });
  }

  it('answers non-members 403 on runner paths but 404 on project and group paths, with exact bodies', async () => {
    const t = tokens.outsider;
    expect(await api('GET', `/runners/${runners.group_type}`, { token: t })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - No access granted' },
    });
    expect(await api('GET', `/projects/${projectP.id}/runners`, { token: t })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api('GET', `/groups/${group.id}/runners`, { token: t })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect(await api('GET', `/projects/${projectP.id}/runners`, { token: tokens.developer })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await api('GET', '/runners/all', { token: tokens.owner })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api('GET', `/runners/${runners.project_type}`, { token: tokens.read_user })).body.error).toBe('insufficient_scope');
  });

  it('lets a maintainer of any project of a multi-project runner read and update it, but not delete it', async () => {
    const runner = await freshRunner('project_type');
    const other = await createUser();
    const otherProject = await createProject(other.token);
    await linkProject(runner, otherProject.id);
    expect((await api('GET', `/runners/${runner}`, { token: other.token })).status).toBe(200);
    expect((await api('PUT', `/runners/${runner}`, { token: other.token, json: { description: 'shared work' } })).status).toBe(200);
    const del = await api('DELETE', `/runners/${runner}`, { token: other.token });
    expect(del).toMatchObject({ status: 403, body: { message: '403 Forbidden - Runner associated with more than one project' } });
    // The "more than one project" refusal comes before the permission check, even for strangers.
    const stranger = await api('DELETE', `/runners/${runner}`, { token: tokens.guest });
    expect(stranger.body).toEqual({ message: '403 Forbidden - Runner associated with more than one project' });
    expect((await api('DELETE', `/runners/${runner}`, { token: tokens.admin })).status).toBe(204);
  });

  it('accepts a manage_runner token on /runners/:id but not on lists', async () => {
    const manageUserToken = await createToken((await api('GET', '/user', { token: tokens.admin })).body.id, ['manage_runner']);
    expect((await api('GET', `/runners/${runners.instance_type}`, { token: manageUserToken })).status).toBe(200);
    expect((await api('GET', `/runners/${runners.instance_type}/managers`, { token: manageUserToken })).status).toBe(200);
    expect((await api('GET', '/runners/all', { token: manageUserToken })).status).toBe(403);
    expect((await api('GET', `/projects/${projectP.id}/runners`, { token: manageUserToken })).status).toBe(403);
  });
});
