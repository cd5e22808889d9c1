// The runner list page's reads (Runway extensions): GET /runners/all/counts and /groups/:id/runners/counts
// answer the type tabs' and status counters' numbers in one request, each equal to the X-Total of the list
// with the same filters; GET /runners/tags suggests tag names (admins, as GitLab's admin tag list).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner, setRunnerTimes } from './runners-admin-support';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('[RUNNERS] list counts and tag suggestions', () => {
  const tag = uniq('counts');
  let maintainer: TestUser;
  let developer: TestUser;
  let outsider: TestUser;
  let group: any;

  beforeAll(async () => {
    [maintainer, developer, outsider] = await Promise.all([createUser(), createUser(), createUser()]);
    group = await createGroup(rootToken());
    const project = await createProject(rootToken(), { namespaceId: group.id });
    await addGroupMember(rootToken(), group.id, maintainer.id, 40);
    await addGroupMember(rootToken(), group.id, developer.id, 30);
    const online = await createRunner('instance_type', { tags: [tag] });
    await setRunnerTimes(online, { contactedAgoMs: 60_000 });
    const offline = await createRunner('group_type', { groupId: group.id, tags: [tag] });
    await setRunnerTimes(offline, { contactedAgoMs: 3 * HOUR });
    const stale = await createRunner('project_type', { projectId: project.id, tags: [tag] });
    await setRunnerTimes(stale, { contactedAgoMs: 8 * DAY, createdAgoMs: 9 * DAY });
    await createRunner('group_type', { groupId: group.id, tags: [tag, `${tag}-other`] }); // never contacted
  });

  const total = async (path: string, token: string, query: Record<string, string>) =>
    Number((await api('GET', path, { token, query: { ...query, per_page: '1' } })).headers.get('x-total'));

  it('answers every tab and status count of the admin list, each equal to the list total', async () => {
    const res = await api('GET', '/runners/all/counts', { token: rootToken(), query: { tag_list: tag } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      runner_type: { all: 4, instance_type: 1, group_type: 2, project_type: 1 },
      // GitLab's scopes overlap: offline includes the stale runner that once contacted.
      status: { online: 1, offline: 2, stale: 1 },
    });
    for (const type of ['instance_type', 'group_type', 'project_type']) {
      expect(res.body.runner_type[type]).toBe(await total('/runners/all', rootToken(), { tag_list: tag, type }));
    }
    for (const status of ['online', 'offline', 'stale']) {
      expect(res.body.status[status]).toBe(await total('/runners/all', rootToken(), { tag_list: tag, status }));
    }
    // A status filter narrows the type counts, a type filter the status counts.
    const narrowed = await api('GET', '/runners/all/counts', { token: rootToken(), query: { tag_list: tag, status: 'offline', type: 'group_type' } });
    expect(narrowed.body).toEqual({ runner_type: { all: 2, instance_type: 0, group_type: 1, project_type: 1 }, status: { online: 0, offline: 1, stale: 0 } });
  });

  it('validates like the list and is for admins only', async () => {
    const bad = await api('GET', '/runners/all/counts', { token: rootToken(), query: { status: 'sleepy' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'status does not have a valid value' });
    expect((await api('GET', '/runners/all/counts', { token: outsider.token })).status).toBe(403);
    expect((await api('GET', '/runners/all/counts', {})).status).toBe(401);
  });

  it('counts a group list for its Maintainers, with membership', async () => {
    const res = await api('GET', `/groups/${group.id}/runners/counts`, { token: maintainer.token, query: { tag_list: tag, membership: 'descendants' } });
    expect(res.status).toBe(200);
    expect(res.body.runner_type).toEqual({ all: 3, instance_type: 0, group_type: 2, project_type: 1 });
    const inherited = await api('GET', `/groups/${group.id}/runners/counts`, {
      token: maintainer.token,
      query: { tag_list: tag, membership: 'all_available' },
    });
    expect(inherited.body.runner_type.all).toBe(4);
    // As the list: a Developer may not read the group's runners; a private group is hidden from outsiders.
    expect((await api('GET', `/groups/${group.id}/runners/counts`, { token: developer.token })).status).toBe(403);
    expect((await api('GET', `/groups/${group.id}/runners`, { token: outsider.token })).status).toBe(404);
    expect((await api('GET', `/groups/${group.id}/runners/counts`, { token: outsider.token })).status).toBe(404);
  });

  it('suggests tags in use by name for admins', async () => {
    const res = await api('GET', '/runners/tags', { token: rootToken(), query: { search: tag } });
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.name)).toEqual([tag, `${tag}-other`]);
    expect(res.body[0]).toEqual({ id: expect.any(Number), name: tag });
    expect((await api('GET', '/runners/tags', { token: maintainer.token })).status).toBe(403);
  });
});
