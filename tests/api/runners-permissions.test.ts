// GET /runners/:id?with_permissions=true (a Runway extension): what the caller may do with a runner, as
// lib/runners/policy.ts decides it, for each role and runner type; and each flag agrees with what the
// endpoints then answer. Without the parameter the body is GitLab's RunnerDetails, unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { createRunner, linkProject, type RunnerKind } from './runners-admin-support';

type Actor = 'admin' | 'group_owner' | 'maintainer' | 'developer' | 'non_member';
type Perms = { read_runner: boolean; update_runner: boolean; delete_runner: boolean; assign_runner: boolean; read_jobs: boolean };

const NONE: Perms = { read_runner: false, update_runner: false, delete_runner: false, assign_runner: false, read_jobs: false };
const READ_ONLY: Perms = { ...NONE, read_runner: true };
const MANAGE: Perms = { read_runner: true, update_runner: true, delete_runner: true, assign_runner: false, read_jobs: true };
const ALL: Perms = { ...MANAGE, assign_runner: true };

// null: the runner is not readable, so GET answers 403 and carries no permissions.
const EXPECTED: Record<RunnerKind, Record<Actor, Perms | null>> = {
  instance_type: { admin: MANAGE, group_owner: READ_ONLY, maintainer: READ_ONLY, developer: READ_ONLY, non_member: READ_ONLY },
  // The owner project's maintainer may see the group runner its project uses, but not manage it or read its jobs.
  group_type: { admin: MANAGE, group_owner: MANAGE, maintainer: READ_ONLY, developer: null, non_member: null },
  project_type: { admin: ALL, group_owner: ALL, maintainer: ALL, developer: null, non_member: null },
};

const tokens = {} as Record<Actor, string>;
const runners = {} as Record<RunnerKind, number>;
let otherProjectOf: { id: number };

const show = (id: number, token: string, query: Record<string, string> = { with_permissions: 'true' }) => api('GET', `/runners/${id}`, { token, query });

describe('[RUNNERS] runner permissions extension', () => {
  beforeAll(async () => {
    const root = rootToken();
    const group = await createGroup(root);
    const project = await createProject(root, { namespaceId: group.id });
    const [owner, maintainer, developer, outsider, admin] = await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
      createUser({ admin: true }),
    ]);
    await addGroupMember(root, group.id, owner.id, 50);
    await addGroupMember(root, group.id, developer.id, 30);
    // A maintainer of the runner's owner project only (not of the group).
    await addProjectMember(root, project.id, maintainer.id, 40);
    Object.assign(tokens, {
      admin: admin.token,
      group_owner: owner.token,
      maintainer: maintainer.token,
      developer: developer.token,
      non_member: outsider.token,
    });
    otherProjectOf = await createProject(outsider.token);
    runners.instance_type = await createRunner('instance_type');
    runners.group_type = await createRunner('group_type', { groupId: group.id });
    runners.project_type = await createRunner('project_type', { projectId: project.id });
  });

  for (const type of ['instance_type', 'group_type', 'project_type'] as RunnerKind[]) {
    it(`reports each role's permissions on a ${type} runner`, async () => {
      const got: Record<string, Perms | number> = {};
      const want: Record<string, Perms | number> = {};
      for (const actor of Object.keys(tokens) as Actor[]) {
        const res = await show(runners[type], tokens[actor]);
        got[actor] = res.status === 200 ? res.body._runway_permissions : res.status;
        want[actor] = EXPECTED[type][actor] ?? 403;
      }
      expect(got).toEqual(want);
    });

    it(`matches what the endpoints answer on a ${type} runner`, async () => {
      for (const actor of Object.keys(tokens) as Actor[]) {
        const perms = EXPECTED[type][actor];
        if (!perms) continue;
        const jobs = await api('GET', `/runners/${runners[type]}/jobs`, { token: tokens[actor] });
        expect(jobs.status, `${actor} jobs`).toBe(perms.read_jobs ? 200 : 403);
        const put = await api('PUT', `/runners/${runners[type]}`, { token: tokens[actor], json: { description: `by ${actor}` } });
        expect(put.status, `${actor} update`).toBe(perms.update_runner ? 200 : 403);
      }
    });
  }

  it("is absent unless asked for: the default body is GitLab's RunnerDetails", async () => {
    const plain = await show(runners.project_type, tokens.maintainer, {});
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('_runway_permissions');
    const off = await show(runners.project_type, tokens.maintainer, { with_permissions: 'false' });
    expect(off.body).not.toHaveProperty('_runway_permissions');
    const on = await show(runners.project_type, tokens.maintainer);
    // The extension only adds `_runway_*` keys (permissions, owner project, token expiry) after GitLab's.
    const added = Object.keys(on.body).filter((k) => k.startsWith('_runway_'));
    expect(added).toEqual(['_runway_permissions', '_runway_owner_project_id', '_runway_token_expires_at']);
    expect(Object.keys(on.body).filter((k) => !added.includes(k))).toEqual(Object.keys(plain.body));
    const bad = await show(runners.project_type, tokens.maintainer, { with_permissions: 'maybe' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'with_permissions is invalid' } });
  });

  it('follows the runner: a second project makes it undeletable by a maintainer, locking it unassignable', async () => {
    const shared = await createRunner('project_type', { projectId: (await createProject(tokens.maintainer)).id });
    await linkProject(shared, otherProjectOf.id);
    // The other project's maintainer now reads, updates and assigns it, but may not delete it.
    const outsider = await show(shared, tokens.non_member);
    expect(outsider.body._runway_permissions).toEqual({ ...ALL, delete_runner: false });
    expect((await api('DELETE', `/runners/${shared}`, { token: tokens.non_member })).status).toBe(403);
    const locked = await createRunner('project_type', { projectId: (await createProject(tokens.maintainer)).id, locked: true });
    expect((await show(locked, tokens.maintainer)).body._runway_permissions).toEqual({ ...ALL, assign_runner: false });
    expect((await show(locked, tokens.admin)).body._runway_permissions).toEqual(ALL);
  });
});
