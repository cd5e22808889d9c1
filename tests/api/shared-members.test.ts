// [NAMESPACES] What group sharing shows (issue 24): GET /:source/:id/members/all lists the members of groups
// shared into the source at the lower of their level and the share's group_access (the highest path wins),
// only for invited groups the asker may see unless the asker is a member; shared_with_groups leaves out the
// groups the asker cannot read; merge request assignees and reviewers may come through a share.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { buildSampleRepo, removeRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';

type Visibility = 'private' | 'internal' | 'public';

async function share(kind: 'projects' | 'groups', id: number, groupId: number, groupAccess: number, expiresAt?: string) {
  const res = await api('POST', `/${kind}/${id}/share`, {
    token: rootToken(),
    json: { group_id: groupId, group_access: groupAccess, ...(expiresAt ? { expires_at: expiresAt } : {}) },
  });
  expect(res.status, res.text).toBe(201);
}

/** A group (made by root, so no test user belongs to it by accident) with the given members. */
async function groupWith(members: [TestUser, number][], visibility: Visibility = 'private', parentId?: number) {
  const g = await createGroup(rootToken(), { visibility, parentId });
  for (const [u, level] of members) await addGroupMember(rootToken(), g.id, u.id, level);
  return g;
}

// root made the invited groups, so it is their Owner and reaches every source through them: left out here.
const levels = (body: any[]) => Object.fromEntries(body.filter((m) => m.username !== 'root').map((m) => [m.username, m.access_level]));

describe('[NAMESPACES] GET /projects/:id/members/all with shares', () => {
  let owner: TestUser;
  let project: any;
  const u = {} as Record<'capped' | 'low' | 'direct' | 'parent' | 'expired' | 'both', TestUser>;

  beforeAll(async () => {
    owner = await createUser();
    for (const k of Object.keys({ capped: 0, low: 0, direct: 0, parent: 0, expired: 0, both: 0 }) as (keyof typeof u)[]) u[k] = await createUser();
    const home = await createGroup(owner.token);
    project = await createProject(owner.token, { namespaceId: home.id });
    // team: shared as Developer; capped is its Owner (-> 30), low its Reporter (-> 20); both is Reporter in
    // team and Maintainer in ops (shared as Maintainer): the higher path (40) wins.
    const parent = await groupWith([[u.parent, 40]]);
    const team = await groupWith(
      [
        [u.capped, 50],
        [u.low, 20],
        [u.both, 20],
      ],
      'private',
      parent.id,
    );
    const ops = await groupWith([[u.both, 40]]);
    const old = await groupWith([[u.expired, 40]]);
    await share('projects', project.id, team.id, 30);
    await share('projects', project.id, ops.id, 40);
    await share('projects', project.id, old.id, 40, '2000-01-01');
    await addProjectMember(owner.token, project.id, u.direct.id, 20);
  });

  it('lists invited members at min(member level, group_access), highest path; expired shares none; /members stays direct', async () => {
    const all = await api('GET', `/projects/${project.id}/members/all`, { token: owner.token, query: { per_page: '100' } });
    expect(all.status, all.text).toBe(200);
    expect(levels(all.body)).toEqual({
      [owner.username]: 50,
      [u.direct.username]: 20,
      [u.capped.username]: 30,
      [u.low.username]: 20,
      // A member of the invited group's parent reaches the project as access.ts grants it.
      [u.parent.username]: 30,
      [u.both.username]: 40,
    });
    expect(all.headers.get('x-total')).toBe('7');
    // The owner's role comes from the group: the direct list holds the one project member.
    const direct = await api('GET', `/projects/${project.id}/members`, { token: owner.token });
    expect(direct.body.map((m: any) => m.username)).toEqual([u.direct.username]);
  });

  it('shows one shared member at /members/all/:user_id (404 on /members/:user_id), and keeps pagination and filters', async () => {
    const one = await api('GET', `/projects/${project.id}/members/all/${u.capped.id}`, { token: owner.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ id: u.capped.id, username: u.capped.username, access_level: 30 });
    expect((await api('GET', `/projects/${project.id}/members/${u.capped.id}`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', `/projects/${project.id}/members/all/${u.expired.id}`, { token: owner.token })).status).toBe(404);

    const page = await api('GET', `/projects/${project.id}/members/all`, { token: owner.token, query: { per_page: '2', page: '4' } });
    expect(page.headers.get('x-total')).toBe('7');
    expect(page.headers.get('x-total-pages')).toBe('4');
    expect(page.body).toHaveLength(1);
    const byQuery = await api('GET', `/projects/${project.id}/members/all`, { token: owner.token, query: { query: u.both.username } });
    expect(levels(byQuery.body)).toEqual({ [u.both.username]: 40 });
    const byIds = await api('GET', `/projects/${project.id}/members/all`, { token: owner.token, query: { user_ids: [String(u.low.id), String(u.direct.id)] } });
    expect(levels(byIds.body)).toEqual({ [u.low.username]: 20, [u.direct.username]: 20 });
  });

  it('hides members of invited groups the asker cannot see unless the asker is a member of the project', async () => {
    const reader = await createUser();
    const secret = await createUser();
    const open = await createUser();
    const pub = await createProject(owner.token, { visibility: 'public' });
    await share('projects', pub.id, (await groupWith([[secret, 30]], 'private')).id, 30);
    await share('projects', pub.id, (await groupWith([[open, 30]], 'internal')).id, 30);
    const names = async (token: string) =>
      Object.keys(levels((await api('GET', `/projects/${pub.id}/members/all`, { token, query: { per_page: '100' } })).body)).sort();
    // A signed-in outsider sees the internal group's member, not the private group's.
    expect(await names(reader.token)).toEqual([owner.username, open.username].sort());
    // A project member sees every invited group's members.
    await addProjectMember(owner.token, pub.id, reader.id, 10);
    expect(await names(reader.token)).toEqual([owner.username, open.username, reader.username, secret.username].sort());
    // The hidden member is not found one by one either.
    const outsider = await createUser();
    expect((await api('GET', `/projects/${pub.id}/members/all/${secret.id}`, { token: outsider.token })).status).toBe(404);
  });

  it('counts groups shared into the project’s group tree (shared_into_ancestors)', async () => {
    const member = await createUser();
    const top = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: top.id });
    const p = await createProject(owner.token, { namespaceId: sub.id });
    await share('groups', top.id, (await groupWith([[member, 40]])).id, 30);
    const one = await api('GET', `/projects/${p.id}/members/all/${member.id}`, { token: owner.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body.access_level).toBe(30);
  });
});

describe('[NAMESPACES] GET /groups/:id/members/all with shares', () => {
  it('lists members of groups shared into the group or its ancestors at the capped level; hidden ones for outsiders', async () => {
    const owner = await createUser();
    const capped = await createUser();
    const hidden = await createUser();
    const top = await createGroup(owner.token, { visibility: 'public' });
    const sub = await createGroup(owner.token, { parentId: top.id, visibility: 'public' });
    await share('groups', top.id, (await groupWith([[capped, 50]], 'internal')).id, 40);
    await share('groups', sub.id, (await groupWith([[hidden, 30]], 'private')).id, 20);
    const list = async (token: string) => levels((await api('GET', `/groups/${sub.id}/members/all`, { token, query: { per_page: '100' } })).body);
    expect(await list(owner.token)).toEqual({ [owner.username]: 50, [capped.username]: 40, [hidden.username]: 20 });
    const outsider = await createUser();
    expect(await list(outsider.token)).toEqual({ [owner.username]: 50, [capped.username]: 40 });
    // The direct list of the subgroup has its creator only.
    expect((await api('GET', `/groups/${sub.id}/members`, { token: owner.token })).body.map((m: any) => m.username)).toEqual([owner.username]);
    const count = await api('GET', `/groups/${sub.id}/members/all`, { token: owner.token, query: { per_page: '1' } });
    expect(count.headers.get('x-total')).toBe('4');
  });
});

describe('[NAMESPACES] shared_with_groups shows only groups the asker can read', () => {
  it('projects: a private invited group is hidden from outsiders, shown to its members and admins', async () => {
    const owner = await createUser();
    const insider = await createUser();
    const admin = await createUser({ admin: true });
    const outsider = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const secret = await groupWith([[insider, 10]], 'private');
    const open = await groupWith([], 'public');
    await share('projects', p.id, secret.id, 30);
    await share('projects', p.id, open.id, 20);
    const shown = async (token?: string) => (await api('GET', `/projects/${p.id}`, { token })).body.shared_with_groups.map((l: any) => l.group_id);
    expect(await shown(outsider.token)).toEqual([open.id]);
    expect(await shown(insider.token)).toEqual([secret.id, open.id]);
    expect(await shown(admin.token)).toEqual([secret.id, open.id]);
    // The project owner is not a member of the private group: GitLab hides it from them too.
    expect(await shown(owner.token)).toEqual([open.id]);
    // Lists filter the same way.
    const listed = await api('GET', '/projects', { token: outsider.token, query: { search: p.path } });
    expect(listed.body.find((x: any) => x.id === p.id).shared_with_groups.map((l: any) => l.group_id)).toEqual([open.id]);
  });

  it('groups: GroupDetail lists only readable invited groups', async () => {
    const owner = await createUser();
    const insider = await createUser();
    const outsider = await createUser();
    const g = await createGroup(owner.token, { visibility: 'public' });
    const secret = await groupWith([[insider, 30]], 'private');
    const internal = await groupWith([], 'internal');
    await share('groups', g.id, secret.id, 30);
    await share('groups', g.id, internal.id, 30);
    const shown = async (token?: string) => (await api('GET', `/groups/${g.id}`, { token })).body.shared_with_groups.map((l: any) => l.group_id);
    expect(await shown(outsider.token)).toEqual([internal.id]);
    expect(await shown(insider.token)).toEqual([secret.id, internal.id]);
    expect(await shown(undefined)).toEqual([]);
  });
});

describe('[MERGE REQUESTS] assignees and reviewers through a share', () => {
  let repo: ReturnType<typeof buildSampleRepo>;
  let project: { id: number };
  beforeAll(async () => {
    repo = buildSampleRepo({ extraBranches: ['shared-1', 'shared-2'] });
    project = await importedProject(repo.dir);
    return () => removeRepo(repo);
  });

  it('keeps assignees and reviewers whose access to the private project comes from a shared group (Reporter+)', async () => {
    const developer = await createUser();
    const guestOnly = await createUser();
    const expired = await createUser();
    await share('projects', project.id, (await groupWith([[developer, 30]])).id, 30);
    await share('projects', project.id, (await groupWith([[guestOnly, 40]])).id, 10);
    await share('projects', project.id, (await groupWith([[expired, 40]])).id, 40, '2000-01-01');
    const ids = [developer.id, guestOnly.id, expired.id];
    const res = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: rootToken(),
      json: { title: 'Shared review', source_branch: 'shared-1', target_branch: 'main', assignee_ids: ids, reviewer_ids: ids },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.assignees.map((a: any) => a.id)).toEqual([developer.id]);
    expect(res.body.reviewers.map((r: any) => r.id)).toEqual([developer.id]);
  });

  it('a share-only Reporter assigned to the MR may update it and add context commits (assignee rule)', async () => {
    const reporter = await createUser();
    await share('projects', project.id, (await groupWith([[reporter, 50]])).id, 20);
    const res = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: rootToken(),
      json: { title: 'Assigned through share', source_branch: 'shared-2', target_branch: 'main', assignee_ids: [reporter.id] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.assignees.map((a: any) => a.id)).toEqual([reporter.id]);
    const upd = await api('PUT', `/projects/${project.id}/merge_requests/${res.body.iid}`, { token: reporter.token, json: { title: 'Renamed by assignee' } });
    expect(upd.status, upd.text).toBe(200);
    const ctx = await api('POST', `/projects/${project.id}/merge_requests/${res.body.iid}/context_commits`, {
      token: reporter.token,
      json: { commits: [repo.commits.after] },
    });
    expect(ctx.status, ctx.text).toBe(201);
  });
});
