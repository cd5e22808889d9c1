import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { inspect } from '../support/inspect';
import { createUser, signIn, TEST_PASSWORD } from '../support/users';

const admin = () => ({ token: rootToken() });

describe('[USERS] PUT /users/:id', () => {
  it('updates the attributes Runway keeps and answers UserWithAdmin', async () => {
    const user = await createUser();
    const username = uniq('renamed').replace(/-/g, '_');
    const res = await api('PUT', `/users/${user.id}`, {
      ...admin(),
      json: { name: 'New Name', username, email: `${username}@Example.com`, bio: 'Bio', can_create_group: false, projects_limit: 7, admin: true },
    });
    expect(res.status).toBe(200);
    const shown = await api('GET', `/users/${user.id}`, admin());
    expect(Object.keys(res.body)).toEqual(
      Object.keys(shown.body).filter((k) => !['highest_role', 'current_sign_in_ip', 'last_sign_in_ip', 'sign_in_count'].includes(k)),
    );
    expect(res.body).toMatchObject({
      id: user.id,
      name: 'New Name',
      username,
      email: `${username}@example.com`,
      bio: 'Bio',
      can_create_group: false,
      projects_limit: 7,
      is_admin: true,
    });
    // Nothing sent, nothing changed.
    const same = await api('PUT', `/users/${user.id}`, { ...admin(), json: {} });
    expect(same.body).toMatchObject({ name: 'New Name', username, is_admin: true });
  });

  it('moves the personal namespace and its projects with a new username', async () => {
    const user = await createUser();
    const project = await createProject(user.token, { path: 'tool' });
    const username = uniq('moved').replace(/-/g, '_');
    expect((await api('PUT', `/users/${user.id}`, { ...admin(), json: { username } })).status).toBe(200);
    const moved = await api('GET', `/projects/${encodeURIComponent(`${username}/tool`)}`, { token: user.token });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: project.id, path_with_namespace: `${username}/tool`, namespace: { path: username, full_path: username } });
    expect((await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`, { token: user.token })).status).toBe(404);
  });

  it('answers conflicts and validation as GitLab does', async () => {
    const user = await createUser();
    const other = await createUser();
    const takenEmail = await api('PUT', `/users/${user.id}`, { ...admin(), json: { email: `${other.username.toUpperCase()}@EXAMPLE.COM` } });
    expect(takenEmail.status).toBe(409);
    expect(takenEmail.body).toEqual({ message: 'Email has already been taken' });
    const takenName = await api('PUT', `/users/${user.id}`, { ...admin(), json: { username: other.username.toUpperCase() } });
    expect(takenName.status).toBe(409);
    expect(takenName.body).toEqual({ message: 'Username has already been taken' });
    // The user's own email and username in another case are not taken.
    expect((await api('PUT', `/users/${user.id}`, { ...admin(), json: { username: user.username.toUpperCase() } })).status).toBe(200);
    const invalid = await api('PUT', `/users/${user.id}`, { ...admin(), json: { email: 'nope', password: 'short', name: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { name: ["can't be blank"], email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } });
    const badName = await api('PUT', `/users/${user.id}`, { ...admin(), json: { username: '-bad' } });
    expect(badName.body.message.username[0]).toMatch(/^can contain only letters/);
    expect(await api('PUT', `/users/${user.id}`, { ...admin(), json: { admin: 'maybe' } })).toMatchObject({ status: 400, body: { error: 'admin is invalid' } });
    // Admins only; unknown users 404; a non-numeric id matches no route.
    expect(await api('PUT', `/users/${user.id}`, { token: other.token, json: { name: 'x' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect((await api('PUT', `/users/${user.id}`, { json: { name: 'x' } })).status).toBe(401);
    expect(await api('PUT', '/users/999999999', { ...admin(), json: { name: 'x' } })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await api('PUT', '/users/abc', { ...admin(), json: { name: 'x' } })).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
  });

  it("a new password works for sign-in and ends the user's dashboard sessions", async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    const me = () => api('GET', '/user', { headers: { Cookie: session.cookie } });
    expect((await me()).status).toBe(200);
    expect((await api('PUT', `/users/${user.id}`, { ...admin(), json: { password: 'a-brand-new-password' } })).status).toBe(200);
    expect((await me()).status).toBe(401);
    await expect(signIn(user.username, TEST_PASSWORD)).rejects.toThrow(/sign-in failed/);
    expect((await signIn(user.username, 'a-brand-new-password')).cookie).toBeTruthy();
    // Other attribute changes leave sessions alone.
    const again = await signIn(user.username, 'a-brand-new-password');
    expect((await api('PUT', `/users/${user.id}`, { ...admin(), json: { bio: 'still here' } })).status).toBe(200);
    expect((await api('GET', '/user', { headers: { Cookie: again.cookie } })).status).toBe(200);
  });
});

describe('[USERS] DELETE /users/:id', () => {
  it('deletes the user with their namespace, projects, memberships and tokens in one go; a second delete is 404', async () => {
    const owner = await createUser();
    const user = await createUser();
    const group = await createGroup(owner.token);
    const shared = await createProject(owner.token, { namespaceId: group.id });
    await addGroupMember(owner.token, group.id, user.id, 30);
    await addProjectMember(owner.token, shared.id, user.id, 40);
    const personal = await createProject(user.token);

    const res = await api('DELETE', `/users/${user.id}`, admin());
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await api('DELETE', `/users/${user.id}`, admin())).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect((await api('GET', `/users/${user.id}`, admin())).status).toBe(404);
    expect((await api('GET', '/user', { token: user.token })).status).toBe(401);
    expect((await api('GET', `/projects/${personal.id}`, admin())).status).toBe(404);
    expect((await api('GET', `/groups/${group.id}/members/${user.id}`, admin())).status).toBe(404);
    expect((await api('GET', `/projects/${shared.id}/members/${user.id}`, admin())).status).toBe(404);
    const left = await inspect<{ n: number }>(
      `SELECT (SELECT count(*) FROM namespaces WHERE owner_id = $1) + (SELECT count(*) FROM personal_access_tokens WHERE user_id = $1)
            + (SELECT count(*) FROM user_sessions WHERE user_id = $1) AS n`,
      [user.id],
    );
    expect(Number(left[0].n)).toBe(0);
  });

  it('refuses a sole group owner with 409 unless hard_delete, which removes the groups they alone own', async () => {
    const user = await createUser();
    const coOwner = await createUser();
    const solo = await createGroup(user.token);
    const sub = await createGroup(user.token, { parentId: solo.id });
    const inSub = await createProject(user.token, { namespaceId: sub.id });
    const sharedGroup = await createGroup(user.token);
    await addGroupMember(user.token, sharedGroup.id, coOwner.id, 50);

    const refused = await api('DELETE', `/users/${user.id}`, admin());
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });
    expect((await api('GET', `/users/${user.id}`, admin())).status).toBe(200);

    expect((await api('DELETE', `/users/${user.id}`, { ...admin(), query: { hard_delete: true } })).status).toBe(204);
    for (const id of [solo.id, sub.id]) expect((await api('GET', `/groups/${id}`, admin())).status).toBe(404);
    expect((await api('GET', `/projects/${inSub.id}`, admin())).status).toBe(404);
    // A group with another owner stays, with that owner.
    const kept = await api('GET', `/groups/${sharedGroup.id}/members`, admin());
    expect(kept.body.map((m: any) => [m.id, m.access_level])).toEqual([[coOwner.id, 50]]);
  });

  it('keeps what the user authored without an author unless hard_delete; admins only', async () => {
    const user = await createUser();
    const other = await createUser();
    expect(await api('DELETE', `/users/${user.id}`, { token: other.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api('DELETE', `/users/${user.id}`, { ...admin(), query: { hard_delete: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'hard_delete is invalid' },
    });
    const project = await createProject(other.token);
    await inspect(
      `INSERT INTO merge_requests (iid, target_project_id, source_project_id, title, source_branch, target_branch, author_id)
       VALUES (1, $1, $1, 'kept', 'a', 'main', $2), (2, $1, $1, 'removed', 'b', 'main', $3) RETURNING id`,
      [project.id, user.id, (await createUser()).id],
    );
    expect((await api('DELETE', `/users/${user.id}`, admin())).status).toBe(204);
    const rows = await inspect<{ title: string; author_id: number | null }>(
      'SELECT title, author_id FROM merge_requests WHERE target_project_id = $1 ORDER BY iid',
      [project.id],
    );
    expect(rows[0]).toEqual({ title: 'kept', author_id: null });
    const third = rows[1].author_id!;
    expect((await api('DELETE', `/users/${third}`, { ...admin(), query: { hard_delete: true } })).status).toBe(204);
    const after = await inspect<{ title: string }>('SELECT title FROM merge_requests WHERE target_project_id = $1 ORDER BY iid', [project.id]);
    expect(after.map((r) => r.title)).toEqual(['kept']);
  });
});

describe('[USERS] GET /users/:id/projects and /users/:id/memberships', () => {
  it("lists the user's personal projects the caller may see, by id or username", async () => {
    const user = await createUser();
    const viewer = await createUser();
    const pub = await createProject(user.token, { visibility: 'public', path: 'pub' });
    const priv = await createProject(user.token, { visibility: 'private', path: 'priv' });
    const group = await createGroup(user.token);
    await createProject(user.token, { namespaceId: group.id });
    const own = await api('GET', `/users/${user.id}/projects`, { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body.map((p: any) => p.id)).toEqual([priv.id, pub.id]);
    expect(own.headers.get('x-total')).toBe('2');
    const byName = await api('GET', `/users/${user.username}/projects`, { token: viewer.token, query: { simple: true } });
    expect(byName.body.map((p: any) => p.id)).toEqual([pub.id]);
    expect(Object.keys(byName.body[0])).not.toContain('permissions');
    expect((await api('GET', `/users/${user.id}/projects`)).body.map((p: any) => p.id)).toEqual([pub.id]);
    expect(await api('GET', '/users/no_such_user_x/projects', { token: viewer.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
  });

  it("lists a user's memberships for admins, filtered by type", async () => {
    const owner = await createUser();
    const user = await createUser();
    const group = await createGroup(owner.token, { name: 'Memberships Group' });
    const project = await createProject(owner.token, { namespaceId: group.id, name: 'Memberships Project' });
    await addGroupMember(owner.token, group.id, user.id, 20);
    await addProjectMember(owner.token, project.id, user.id, 30);
    const all = await api('GET', `/users/${user.id}/memberships`, admin());
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { source_id: group.id, source_name: 'Memberships Group', source_type: 'Namespace', access_level: 20 },
      { source_id: project.id, source_name: 'Memberships Project', source_type: 'Project', access_level: 30 },
    ]);
    expect((await api('GET', `/users/${user.id}/memberships`, { ...admin(), query: { type: 'Project' } })).body.map((m: any) => m.source_type)).toEqual([
      'Project',
    ]);
    expect((await api('GET', `/users/${user.id}/memberships`, { ...admin(), query: { type: 'Namespace', per_page: 1 } })).headers.get('x-total')).toBe('1');
    expect(await api('GET', `/users/${user.id}/memberships`, { ...admin(), query: { type: 'Group' } })).toMatchObject({
      status: 400,
      body: { error: 'type does not have a valid value' },
    });
    expect(await api('GET', `/users/${user.id}/memberships`, { token: user.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api('GET', '/users/999999999/memberships', admin())).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
  });
});
