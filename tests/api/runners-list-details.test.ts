// Runway's list extensions on the runner lists: `with_details=true` (`_runway` and `_runway_permissions`
// per runner, computed for the page at once), `search`, `order_by`/`sort`, and the group list's
// `membership`. Without them the lists keep GitLab's shape and set.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, uniq } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { addJobs, addManager, createRunner, DAY, linkProject, setRunnerTimes } from './runners-admin-support';

let admin: TestUser;
let owner: TestUser;
let maintainer: TestUser;
let parent: any;
let group: any;
let sub: any;
let project: any;
let other: any;
const r: Record<string, number> = {};
const tag = uniq('details');

const list = (user: TestUser, path: string, query: Record<string, string | number | boolean> = {}) =>
  api('GET', path, { token: user.token, query: { per_page: 100, ...query } });
const ids = (res: { body: any[] }) => res.body.map((x) => x.id);

beforeAll(async () => {
  admin = await createUser({ admin: true });
  owner = await createUser();
  maintainer = await createUser();
  parent = await createGroup(admin.token, { path: uniq('parent') });
  group = await createGroup(admin.token, { path: uniq('grp'), parentId: parent.id });
  sub = await createGroup(admin.token, { path: uniq('sub'), parentId: group.id });
  project = await createProject(admin.token, { path: uniq('proj'), namespaceId: sub.id });
  other = await createProject(admin.token, { path: uniq('other'), namespaceId: group.id });
  await addGroupMember(admin.token, group.id, owner.id, 50);
  await addGroupMember(admin.token, group.id, maintainer.id, 40);
  await addProjectMember(admin.token, project.id, maintainer.id, 40);

  r.instance = await createRunner('instance_type', { tags: [tag, 'linux'], description: `${tag} alpha instance` });
  r.parentGroup = await createRunner('group_type', { groupId: parent.id, tags: [tag], description: `${tag} parent` });
  r.group = await createRunner('group_type', { groupId: group.id, tags: [tag], description: `${tag} Beta group` });
  r.subGroup = await createRunner('group_type', { groupId: sub.id, tags: [tag], description: `${tag} sub` });
  r.project = await createRunner('project_type', { projectId: project.id, tags: [tag], description: `${tag} project`, locked: false });
  r.shared = await createRunner('project_type', { projectId: other.id, tags: [tag], description: `${tag} shared project` });
  await linkProject(r.shared, project.id);

  await setRunnerTimes(r.instance, { contactedAgoMs: 60_000, createdAgoMs: 3 * DAY });
  await setRunnerTimes(r.group, { contactedAgoMs: 2 * DAY, createdAgoMs: 1 * DAY });
  await setRunnerTimes(r.project, { createdAgoMs: 2 * DAY });
  const m = await addManager(r.instance, { systemId: uniq('s'), version: '17.5.1' });
  await addManager(r.instance, { systemId: uniq('s'), version: '16.0.0', contactedAgoMs: DAY });
  await addJobs(r.instance, project.id, 1002, { managerId: m });
  await addJobs(r.group, project.id, 3);
});

describe('[RUNNERS] list extensions', () => {
  it("keeps GitLab's Runner entity without with_details", async () => {
    const res = await list(admin, '/runners/all', { tag_list: tag });
    expect(res.status).toBe(200);
    for (const x of res.body) {
      expect(x).not.toHaveProperty('_runway');
      expect(x).not.toHaveProperty('_runway_permissions');
    }
    expect(ids(res)).toEqual([...ids(res)].sort((a, b) => a - b));
  });

  it('adds _runway details per runner: tags, first manager, job count capped, owner', async () => {
    const res = await list(admin, '/runners/all', { tag_list: tag, with_details: true });
    expect(res.status).toBe(200);
    const by = new Map(res.body.map((x: any) => [x.id, x]));
    const inst: any = by.get(r.instance);
    expect(inst._runway).toMatchObject({ version: '17.5.1', ip_address: '10.0.0.1', managers_count: 2, job_count: 1001, owner: null, locked: false });
    expect(inst._runway.tag_list).toEqual([tag, 'linux']);
    expect(inst._runway.contacted_at).not.toBeNull();
    expect((by.get(r.group) as any)._runway).toMatchObject({
      job_count: 3,
      version: null,
      managers_count: 0,
      owner: { type: 'group', id: group.id, full_path: group.full_path },
    });
    expect((by.get(r.project) as any)._runway.owner).toMatchObject({ type: 'project', id: project.id, full_path: project.path_with_namespace });
    expect((by.get(r.project) as any)._runway.job_count).toBe(0);
    expect(inst._runway_permissions).toEqual({ read_runner: true, update_runner: true, delete_runner: true, assign_runner: false, read_jobs: true });
  });

  it('gives the same permissions per row as GET /runners/:id?with_permissions=true, for every role', async () => {
    for (const [user, path, query] of [
      [admin, '/runners/all', {}],
      [owner, `/groups/${group.id}/runners`, { membership: 'all_available' }],
      [maintainer, `/groups/${group.id}/runners`, { membership: 'all_available' }],
      [maintainer, '/runners', {}],
    ] as const) {
      const res = await list(user, path, { ...query, tag_list: tag, with_details: true });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(1);
      for (const x of res.body) {
        const one = await api('GET', `/runners/${x.id}`, { token: user.token, query: { with_permissions: true } });
        expect({ id: x.id, user: user.username, p: x._runway_permissions }).toEqual({ id: x.id, user: user.username, p: one.body._runway_permissions });
      }
    }
  });

  it('searches descriptions case-insensitively, wildcards literal', async () => {
    expect(ids(await list(admin, '/runners/all', { tag_list: tag, search: 'beta GROUP' }))).toEqual([r.group]);
    expect(ids(await list(admin, '/runners/all', { tag_list: tag, search: '%' }))).toEqual([]);
  });

  it('orders by created_at and contacted_at in both directions, never contacted last', async () => {
    const created = ids(await list(admin, '/runners/all', { tag_list: tag, order_by: 'created_at', sort: 'asc' }));
    expect(created.slice(0, 3)).toEqual([r.instance, r.project, r.group]);
    const desc = ids(await list(admin, '/runners/all', { tag_list: tag, order_by: 'created_at', sort: 'desc' }));
    expect(desc).toEqual([...created].reverse());
    const contacted = ids(await list(admin, '/runners/all', { tag_list: tag, order_by: 'contacted_at', sort: 'desc' }));
    expect(contacted.slice(0, 2)).toEqual([r.instance, r.group]);
    const contactedAsc = ids(await list(admin, '/runners/all', { tag_list: tag, order_by: 'contacted_at', sort: 'asc' }));
    expect(contactedAsc.slice(0, 2)).toEqual([r.group, r.instance]);
    const bad = await list(admin, '/runners/all', { order_by: 'name' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it("lists a group by membership: direct, descendants, all_available; GitLab's set without it", async () => {
    const g = (q: Record<string, string>) => list(owner, `/groups/${group.id}/runners`, { tag_list: tag, ...q }).then(ids);
    expect(await g({})).toEqual([r.instance, r.parentGroup, r.group].sort((a, b) => a - b));
    expect(await g({ membership: 'direct' })).toEqual([r.group]);
    expect(await g({ membership: 'descendants' })).toEqual([r.group, r.subGroup, r.project, r.shared].sort((a, b) => a - b));
    expect(await g({ membership: 'all_available' })).toEqual(Object.values(r).sort((a, b) => a - b));
    expect(await g({ membership: 'descendants', type: 'project_type' })).toEqual([r.project, r.shared].sort((a, b) => a - b));
    const bad = await list(owner, `/groups/${group.id}/runners`, { membership: 'everything' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'membership does not have a valid value' });
  });

  it('counts a filtered list in X-Total with per_page=1', async () => {
    const res = await api('GET', `/groups/${group.id}/runners`, { token: owner.token, query: { membership: 'descendants', tag_list: tag, per_page: 1 } });
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.body).toHaveLength(1);
  });
});
