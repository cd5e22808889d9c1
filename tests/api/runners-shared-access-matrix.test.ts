// The runner authorisation matrix grown by shares (issue 24): access that comes from a group shared into the
// runner's project or group, as GitLab grants it: the lower of the member's level in the invited group and
// the share's group_access; an expired share grants nothing. Project P (project runner's owner) lives in
// group G (group runner's owner); each actor is a member of one invited group only.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { createRunner, type RunnerKind } from './runners-admin-support';

// [actor]: [where the share goes, member level in the invited group, share's group_access, expires_at?]
const ACTORS = {
  project_share_maintainer: ['project', 40, 40],
  project_share_capped: ['project', 50, 30],
  project_share_developer: ['project', 30, 40],
  group_share_owner: ['group', 50, 50],
  group_share_maintainer: ['group', 50, 40],
  expired_share: ['group', 50, 50, '2000-01-01'],
} as const;
type ActorName = keyof typeof ACTORS;

const tokens = {} as Record<ActorName, string>;
const runners = {} as Record<'group_type' | 'project_type', number>;
let group: any;
let project: any;

type Row = Record<ActorName, number>;
const row = (r: Row) => r;

const MATRIX: Record<string, Partial<Record<RunnerKind, Row>>> = {
  'GET /runners/:id': {
    project_type: row({
      project_share_maintainer: 200,
      project_share_capped: 403,
      project_share_developer: 403,
      group_share_owner: 200,
      group_share_maintainer: 200,
      expired_share: 403,
    }),
    // A Maintainer of a project that uses group runners reads them (GitLab's read_runner), shares included.
    group_type: row({
      project_share_maintainer: 200,
      project_share_capped: 403,
      project_share_developer: 403,
      group_share_owner: 200,
      group_share_maintainer: 200,
      expired_share: 403,
    }),
  },
  'PUT /runners/:id': {
    project_type: row({
      project_share_maintainer: 200,
      project_share_capped: 403,
      project_share_developer: 403,
      group_share_owner: 200,
      group_share_maintainer: 200,
      expired_share: 403,
    }),
    // Group runners are changed by the group's Owners: a share capped at Maintainer is not enough.
    group_type: row({
      project_share_maintainer: 403,
      project_share_capped: 403,
      project_share_developer: 403,
      group_share_owner: 200,
      group_share_maintainer: 403,
      expired_share: 403,
    }),
  },
};

const LIST_MATRIX: Record<string, Row> = {
  'GET /projects/:id/runners': row({
    project_share_maintainer: 200,
    project_share_capped: 403,
    project_share_developer: 403,
    group_share_owner: 200,
    group_share_maintainer: 200,
    expired_share: 404,
  }),
  'GET /groups/:id/runners': row({
    // A member of a project inside the group may read the group (has_projects), so 403 rather than 404.
    project_share_maintainer: 403,
    project_share_capped: 403,
    project_share_developer: 403,
    group_share_owner: 200,
    group_share_maintainer: 200,
    expired_share: 404,
  }),
};

describe('[RUNNERS] authorisation matrix: access through shared groups', () => {
  beforeAll(async () => {
    const root = rootToken();
    group = await createGroup(root);
    project = await createProject(root, { namespaceId: group.id });
    for (const [name, [target, level, access, expires]] of Object.entries(ACTORS) as [ActorName, (typeof ACTORS)[ActorName]][]) {
      const invited = await createGroup(root);
      const user = await createUser();
      await addGroupMember(root, invited.id, user.id, level);
      const json = { group_id: invited.id, group_access: access, ...(expires ? { expires_at: expires } : {}) };
      const path = target === 'project' ? `/projects/${project.id}/share` : `/groups/${group.id}/share`;
      expect((await api('POST', path, { token: root, json })).status).toBe(201);
      tokens[name] = user.token;
    }
    runners.group_type = await createRunner('group_type', { groupId: group.id });
    runners.project_type = await createRunner('project_type', { projectId: project.id });
  });

  for (const [op, byType] of Object.entries(MATRIX)) {
    for (const [type, expected] of Object.entries(byType) as ['group_type' | 'project_type', Row][]) {
      it(`${op} on a ${type} runner`, async () => {
        const got = {} as Row;
        for (const actor of Object.keys(ACTORS) as ActorName[]) {
          const path = `/runners/${runners[type]}`;
          const res = op.startsWith('PUT')
            ? await api('PUT', path, { token: tokens[actor], json: { description: `by ${actor}` } })
            : await api('GET', path, { token: tokens[actor] });
          got[actor] = res.status;
        }
        expect(got).toEqual(expected);
      });
    }
  }

  for (const [op, expected] of Object.entries(LIST_MATRIX)) {
    it(op, async () => {
      const got = {} as Row;
      const path = op.split(' ')[1].replace('/projects/:id', `/projects/${project.id}`).replace('/groups/:id', `/groups/${group.id}`);
      for (const actor of Object.keys(ACTORS) as ActorName[]) got[actor] = (await api('GET', path, { token: tokens[actor] })).status;
      expect(got).toEqual(expected);
    });
  }

  it('removing the share takes the access away', async () => {
    const invited = await createGroup(rootToken());
    const user = await createUser();
    await addGroupMember(rootToken(), invited.id, user.id, 40);
    await api('POST', `/projects/${project.id}/share`, { token: rootToken(), json: { group_id: invited.id, group_access: 40 } });
    expect((await api('PUT', `/runners/${runners.project_type}`, { token: user.token, json: { paused: true } })).status).toBe(200);
    expect((await api('DELETE', `/projects/${project.id}/share/${invited.id}`, { token: rootToken() })).status).toBe(204);
    expect((await api('PUT', `/runners/${runners.project_type}`, { token: user.token, json: { paused: false } })).status).toBe(403);
  });
});
