// @gitbeaker/rest runs the create-update-delete cycle of users and members, plus namespaces, against Runway.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl, rootToken, uniq } from '../support/api';

describe('[USERS] gitbeaker: users and members, create-update-delete', () => {
  it("edits and removes users and group/project members; GitLab's refusals reject with their status and message", async () => {
    const gl = new Gitlab({ host: baseUrl(), token: rootToken() });
    const tag = uniq('gb').replace(/-/g, '_');
    const me = await gl.Users.showCurrentUser();
    const user = await gl.Users.create({ username: `${tag}_u`, email: `${tag}_u@example.com`, name: 'GB User', password: 'gb-password-123' });
    const other = await gl.Users.create({ username: `${tag}_o`, email: `${tag}_o@example.com`, name: 'GB Other', password: 'gb-password-123' });

    // Users.edit sends a multipart form whose keys gitbeaker leaves as given, so single-word attributes here.
    const edited = await gl.Users.edit(user.id, { name: 'GB User Renamed', bio: 'from gitbeaker' });
    expect(edited).toMatchObject({ id: user.id, name: 'GB User Renamed', bio: 'from gitbeaker' });
    await expect(gl.Users.edit(user.id, { username: other.username })).rejects.toMatchObject({
      cause: { description: 'Username has already been taken', response: { status: 409 } },
    });

    const group = await gl.Groups.create(`${tag} group`, `${tag}-group`);
    await gl.GroupMembers.add(group.id, 30, { userId: user.id });
    const changed = await gl.GroupMembers.edit(group.id, user.id, 40, { expiresAt: '2999-06-30' });
    expect(changed).toMatchObject({ id: user.id, access_level: 40, expires_at: '2999-06-30' });
    expect((await gl.GroupMembers.show(group.id, user.id)).access_level).toBe(40);
    await expect(gl.GroupMembers.edit(group.id, me.id, 40)).rejects.toMatchObject({ cause: { description: '403 Forbidden', response: { status: 403 } } });
    await expect(gl.GroupMembers.remove(group.id, me.id)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    expect(await gl.Users.allMemberships(user.id, { type: 'Namespace' })).toEqual([
      { source_id: group.id, source_name: `${tag} group`, source_type: 'Namespace', access_level: 40 },
    ]);
    await gl.GroupMembers.remove(group.id, user.id);
    expect((await gl.GroupMembers.all(group.id)).map((m) => m.id)).toEqual([me.id]);

    const project = await gl.Projects.create({ name: `${tag} project`, namespaceId: group.id });
    await gl.ProjectMembers.add(project.id, 10, { userId: other.id });
    expect((await gl.ProjectMembers.edit(project.id, other.id, 30)).access_level).toBe(30);
    await gl.ProjectMembers.remove(project.id, other.id);
    await expect(gl.ProjectMembers.show(project.id, other.id)).rejects.toMatchObject({ cause: { description: '404 Not found' } });

    expect((await gl.Namespaces.all({ search: `${tag}-group` })).map((n) => n.full_path)).toEqual([`${tag}-group`]);
    expect(await gl.Namespaces.show(`${tag}-group`)).toMatchObject({ id: group.id, kind: 'group', members_count_with_descendants: 1 });
    expect(await gl.Users.allProjects(user.id)).toEqual([]);

    await gl.Users.remove(user.id);
    await expect(gl.Users.show(user.id)).rejects.toMatchObject({ cause: { description: '404 User Not Found' } });
    await expect(gl.Users.remove(user.id)).rejects.toMatchObject({ cause: { description: '404 User Not Found', response: { status: 404 } } });
    await gl.Users.remove(other.id, { hardDelete: true });
  });
});
