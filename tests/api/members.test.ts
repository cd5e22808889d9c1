import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';

const MEMBER_KEYS = [
  'id',
  'username',
  'public_email',
  'name',
  'state',
  'locked',
  'avatar_url',
  'web_url',
  'access_level',
  'created_at',
  'created_by',
  'expires_at',
];
const today = () => new Date().toISOString().slice(0, 10);

describe('[NAMESPACES] members', () => {
  it("adds, lists and shows group and project members with GitLab's Member entity", async () => {
    const owner = await createUser();
    const dev = await createUser();
    const group = await createGroup(owner.token);
    const res = await api('POST', `/groups/${group.id}/members`, { token: owner.token, json: { user_id: dev.id, access_level: 30, expires_at: '2999-01-31' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(MEMBER_KEYS);
    expect(res.body).toMatchObject({
      id: dev.id,
      username: dev.username,
      state: 'active',
      web_url: `${baseUrl()}/${dev.username}`,
      access_level: 30,
      expires_at: '2999-01-31',
      created_by: expect.objectContaining({ id: owner.id, username: owner.username }),
    });
    const list = await api('GET', `/groups/${group.id}/members`, { token: dev.token });
    expect(list.body.map((m: any) => [m.id, m.access_level])).toEqual([
      [owner.id, 50],
      [dev.id, 30],
    ]);
    expect(list.headers.get('x-total')).toBe('2');
    const one = await api('GET', `/groups/${group.id}/members/${dev.id}`, { token: owner.token });
    expect(one.body).toMatchObject({ id: dev.id, access_level: 30 });
    const none = await api('GET', `/groups/${group.id}/members/999999999`, { token: owner.token });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: '404 Not found' });

    const project = await createProject(owner.token, { namespaceId: group.id });
    const byName = await api('POST', `/projects/${encodeURIComponent(project.path_with_namespace)}/members`, {
      token: owner.token,
      form: { username: dev.username, access_level: '40' },
    });
    expect(byName.status).toBe(201);
    expect(byName.body).toMatchObject({ id: dev.id, access_level: 40, expires_at: null });
    const projectList = await api('GET', `/projects/${project.id}/members`, { token: owner.token, query: { query: dev.username } });
    expect(projectList.body.map((m: any) => m.id)).toEqual([dev.id]);
  });

  it('answers member errors as GitLab does', async () => {
    const owner = await createUser();
    const maintainer = await createUser();
    const dev = await createUser();
    const other = await createUser();
    const project = await createProject(owner.token);
    await addProjectMember(owner.token, project.id, maintainer.id, 40);
    await addProjectMember(owner.token, project.id, dev.id, 30);
    const path = `/projects/${project.id}/members`;
    const badLevel = await api('POST', path, { token: owner.token, json: { user_id: other.id, access_level: 35 } });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toEqual({ error: 'access_level does not have a valid value' });
    const noUser = await api('POST', path, { token: owner.token, json: { access_level: 30 } });
    expect(noUser.body).toEqual({ error: 'user_id, username are missing, at least one parameter must be provided' });
    const both = await api('POST', path, { token: owner.token, json: { user_id: other.id, username: other.username, access_level: 30 } });
    expect(both.body).toEqual({ error: 'user_id, username are mutually exclusive' });
    const dup = await api('POST', path, { token: owner.token, json: { user_id: dev.id, access_level: 20 } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ message: 'Member already exists' });
    const ghost = await api('POST', path, { token: owner.token, json: { user_id: 999999999, access_level: 20 } });
    expect(ghost.status).toBe(404);
    expect(ghost.body).toEqual({ message: '404 User Not Found' });
    const past = await api('POST', path, { token: owner.token, json: { user_id: other.id, access_level: 20, expires_at: '2000-01-01' } });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    // Developers may not manage members; Maintainers may, up to Maintainer; only Owners grant Owner.
    const byDev = await api('POST', path, { token: dev.token, json: { user_id: other.id, access_level: 10 } });
    expect(byDev.status).toBe(403);
    expect(byDev.body).toEqual({ message: '403 Forbidden' });
    const ownerByMaintainer = await api('POST', path, { token: maintainer.token, json: { user_id: other.id, access_level: 50 } });
    expect(ownerByMaintainer.status).toBe(403);
    const ok = await api('POST', path, { token: maintainer.token, json: { user_id: other.id, access_level: 40 } });
    expect(ok.status).toBe(201);
    const outsider = await createUser();
    const hidden = await api('GET', path, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    const anon = await api('GET', path);
    expect(anon.status).toBe(401);
  });

  it('inherits memberships down the group tree; the highest level wins; expired memberships count for nothing', async () => {
    const owner = await createUser();
    const alice = await createUser();
    const bob = await createUser();
    const carol = await createUser();
    const top = await createGroup(owner.token, { name: 'Top' });
    const mid = await createGroup(owner.token, { parentId: top.id, path: 'mid' });
    const leaf = await createGroup(owner.token, { parentId: mid.id, path: 'leaf' });
    const project = await createProject(owner.token, { namespaceId: leaf.id, path: 'app' });

    await addGroupMember(owner.token, top.id, alice.id, 20); // Reporter at the top
    await addGroupMember(owner.token, mid.id, alice.id, 40); // Maintainer in the middle: wins
    await addGroupMember(owner.token, top.id, bob.id, 30);
    await addGroupMember(owner.token, top.id, carol.id, 40, today()); // expires today: already expired

    // A group member sees the deep project with the group's level.
    const asBob = await api('GET', `/projects/${project.id}`, { token: bob.token });
    expect(asBob.status).toBe(200);
    expect(asBob.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    const asAlice = await api('GET', `/projects/${project.id}`, { token: alice.token });
    expect(asAlice.body.permissions.group_access.access_level).toBe(40);
    const asCarol = await api('GET', `/projects/${project.id}`, { token: carol.token });
    expect(asCarol.status).toBe(404);

    const all = await api('GET', `/projects/${project.id}/members/all`, { token: bob.token });
    expect(all.status).toBe(200);
    const levels = Object.fromEntries(all.body.map((m: any) => [m.id, m.access_level]));
    expect(levels).toEqual({ [owner.id]: 50, [alice.id]: 40, [bob.id]: 30 });
    expect((await api('GET', `/projects/${project.id}/members`, { token: bob.token })).body).toEqual([]);
    const aliceAll = await api('GET', `/groups/${leaf.id}/members/all/${alice.id}`, { token: bob.token });
    expect(aliceAll.body).toMatchObject({ id: alice.id, access_level: 40 });
    const carolAll = await api('GET', `/groups/${leaf.id}/members/all/${carol.id}`, { token: bob.token });
    expect(carolAll.status).toBe(404);

    // Alice may create in the leaf (Maintainer inherited); Bob may create projects but not subgroups.
    expect((await api('POST', '/groups', { token: alice.token, json: { name: 'x', path: 'x', parent_id: leaf.id } })).status).toBe(201);
    expect((await api('POST', '/groups', { token: bob.token, json: { name: 'y', path: 'y', parent_id: leaf.id } })).status).toBe(403);
    expect((await api('POST', '/projects', { token: bob.token, json: { path: 'bobs', namespace_id: leaf.id } })).status).toBe(201);

    // A direct membership below an inherited one is refused as GitLab does.
    const lower = await api('POST', `/projects/${project.id}/members`, { token: owner.token, json: { user_id: alice.id, access_level: 30 } });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual({ message: { access_level: ['should be greater than or equal to Maintainer inherited membership from group mid'] } });
    // A direct project membership above the inherited one raises the effective level.
    await addProjectMember(owner.token, project.id, bob.id, 40);
    const bobNow = await api('GET', `/projects/${project.id}`, { token: bob.token });
    expect(bobNow.body.permissions).toEqual({
      project_access: { access_level: 40, notification_level: 3 },
      group_access: { access_level: 30, notification_level: 3 },
    });
    const bobAll = await api('GET', `/projects/${project.id}/members/all/${bob.id}`, { token: rootToken() });
    expect(bobAll.body.access_level).toBe(40);
  });
});
