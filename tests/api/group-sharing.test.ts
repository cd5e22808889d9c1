// [NAMESPACES] Group sharing (POST/DELETE /groups/:id/share and /projects/:id/share) with GitLab's statuses
// and messages, shared_with_groups in both entities, the access a share grants (the lower of the member's
// level and the share's, expired shares none), share_with_group_lock, and GET /namespaces/:id/exists.
import { describe, expect, it } from 'vitest';
import { api, uniq } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';

describe('[NAMESPACES] POST/DELETE /projects/:id/share', () => {
  it('shares a project with a group: 201 ProjectGroupLink, shown in shared_with_groups, removed with 204', async () => {
    const owner = await createUser();
    const home = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: home.id });
    const team = await createGroup(owner.token, { name: 'Team Name' });
    const res = await api('POST', `/projects/${project.id}/share`, {
      token: owner.token,
      json: { group_id: team.id, group_access: 40, expires_at: '2999-12-31' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), project_id: project.id, group_id: team.id, group_access: 40, expires_at: '2999-12-31' });
    const shown = (await api('GET', `/projects/${project.id}`, { token: owner.token })).body;
    expect(shown.shared_with_groups).toEqual([
      { group_id: team.id, group_name: 'Team Name', group_full_path: team.full_path, group_access_level: 40, expires_at: '2999-12-31' },
    ]);
    // The team's detail lists the project among shared_projects.
    expect((await api('GET', `/groups/${team.id}`, { token: owner.token })).body.shared_projects.map((p: any) => p.id)).toEqual([project.id]);

    expect(await api('POST', `/projects/${project.id}/share`, { token: owner.token, json: { group_id: team.id, group_access: 30 } })).toMatchObject({
      status: 409,
      body: { message: 'Group already shared with this group' },
    });
    // GET /projects/:id/groups lists the team with with_shared=true (at shared_min_access_level or more).
    const groupsOf = (q: Record<string, string>) => api('GET', `/projects/${project.id}/groups`, { token: owner.token, query: q });
    expect((await groupsOf({})).body.map((g: any) => g.id)).toEqual([home.id]);
    expect((await groupsOf({ with_shared: 'true' })).body.map((g: any) => g.id)).toEqual([team.id, home.id]);
    expect((await groupsOf({ with_shared: 'true', shared_min_access_level: '50' })).body.map((g: any) => g.id)).toEqual([home.id]);
    // GET /groups/:id/projects lists it unless with_shared=false.
    const listed = (q: Record<string, string>) => api('GET', `/groups/${team.id}/projects`, { token: owner.token, query: q });
    expect((await listed({})).body.map((p: any) => p.id)).toEqual([project.id]);
    expect((await listed({ with_shared: 'false' })).body).toEqual([]);
    expect((await api('DELETE', `/projects/${project.id}/share/${team.id}`, { token: owner.token })).status).toBe(204);
    expect(await api('DELETE', `/projects/${project.id}/share/${team.id}`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Group Link Not Found' },
    });
    expect((await api('GET', `/projects/${project.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
  });

  it("answers GitLab's refusals: params, own group, unknown group, lock, rights", async () => {
    const owner = await createUser();
    const home = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: home.id });
    const project = await createProject(owner.token, { namespaceId: sub.id });
    const share = (json: Record<string, unknown>, token = owner.token) => api('POST', `/projects/${project.id}/share`, { token, json });
    expect(await share({ group_access: 30 })).toMatchObject({ status: 400, body: { error: 'group_id is missing' } });
    expect(await share({ group_id: home.id, group_access: 35 })).toMatchObject({ status: 400, body: { error: 'group_access does not have a valid value' } });
    expect(await share({ group_id: home.id, group_access: 30 })).toMatchObject({
      status: 409,
      body: { message: 'Project cannot be shared with the group it is in or one of its ancestors.' },
    });
    expect(await share({ group_id: 2147483000, group_access: 30 })).toMatchObject({ status: 404, body: { message: 'Not Found' } });
    const stranger = await createUser();
    const hidden = await createGroup(stranger.token);
    expect(await share({ group_id: hidden.id, group_access: 30 })).toMatchObject({ status: 404, body: { message: 'Not Found' } });
    const developer = await createUser();
    await addGroupMember(owner.token, home.id, developer.id, 30);
    const other = await createGroup(owner.token);
    expect(await share({ group_id: other.id, group_access: 30 }, developer.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await api('DELETE', `/projects/${project.id}/share/${other.id}`, { token: developer.token })).status).toBe(403);
    // A lock on an ancestor group stops sharing the projects below it.
    await api('PUT', `/groups/${home.id}`, { token: owner.token, json: { share_with_group_lock: true } });
    expect(await share({ group_id: other.id, group_access: 30 })).toMatchObject({
      status: 400,
      body: { message: 'The project sharing with group is disabled' },
    });
  });
});

describe('[NAMESPACES] POST/DELETE /groups/:id/share', () => {
  it('shares a group with a group: 201 GroupDetail with shared_with_groups; 409 again; 204 then 404 on removal', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const team = await createGroup(owner.token);
    const res = await api('POST', `/groups/${group.id}/share`, { token: owner.token, json: { group_id: team.id, group_access: 30 } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      id: group.id,
      shared_with_groups: [{ group_id: team.id, group_name: team.name, group_full_path: team.full_path, group_access_level: 30, expires_at: null }],
    });
    expect((await api('GET', `/groups/${group.id}`, { token: owner.token })).body.shared_with_groups).toHaveLength(1);
    expect(await api('POST', `/groups/${group.id}/share`, { token: owner.token, json: { group_id: team.id, group_access: 30 } })).toMatchObject({
      status: 409,
      body: { message: 'Shared group The group has already been shared with this group' },
    });
    expect((await api('DELETE', `/groups/${group.id}/share/${team.id}`, { token: owner.token })).status).toBe(204);
    expect(await api('DELETE', `/groups/${group.id}/share/${team.id}`, { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Group Link Not Found' },
    });
  });

  it('only Owners share; an unreadable group is 404 Group Not Found; prevent_sharing_groups_outside_hierarchy keeps shares inside', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const team = await createGroup(owner.token, { visibility: 'public' });
    const maintainer = await createUser();
    await addGroupMember(owner.token, group.id, maintainer.id, 40);
    expect(await api('POST', `/groups/${group.id}/share`, { token: maintainer.token, json: { group_id: team.id, group_access: 30 } })).toMatchObject({
      status: 404,
      body: { message: 'Not Found' },
    });
    const stranger = await createUser();
    const hidden = await createGroup(stranger.token);
    expect(await api('POST', `/groups/${group.id}/share`, { token: owner.token, json: { group_id: hidden.id, group_access: 30 } })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    await api('PUT', `/groups/${group.id}`, { token: owner.token, json: { prevent_sharing_groups_outside_hierarchy: true } });
    expect((await api('POST', `/groups/${group.id}/share`, { token: owner.token, json: { group_id: team.id, group_access: 30 } })).status).toBe(404);
    const inside = await createGroup(owner.token, { parentId: group.id });
    const sub = await createGroup(owner.token, { parentId: group.id });
    expect((await api('POST', `/groups/${sub.id}/share`, { token: owner.token, json: { group_id: inside.id, group_access: 30 } })).status).toBe(201);
  });
});

describe('[NAMESPACES] the access a share grants', () => {
  it("a member of an invited group reads private projects and groups at the lower of both levels, until the share's expiry", async () => {
    const owner = await createUser();
    const home = await createGroup(owner.token);
    const project = await createProject(owner.token, { namespaceId: home.id });
    const team = await createGroup(owner.token);
    const teamParent = await createGroup(owner.token);
    const member = await createUser();
    const inherited = await createUser();
    await addGroupMember(owner.token, team.id, member.id, 50);
    // A member of the invited group's parent is a member of the invited group too.
    const nested = await createGroup(owner.token, { parentId: teamParent.id });
    await addGroupMember(owner.token, teamParent.id, inherited.id, 40);
    expect((await api('GET', `/projects/${project.id}`, { token: member.token })).status).toBe(404);

    await api('POST', `/projects/${project.id}/share`, { token: owner.token, json: { group_id: team.id, group_access: 20 } });
    const seen = await api('GET', `/projects/${project.id}/members/all`, { token: member.token });
    expect(seen.status).toBe(200);
    // Reporter (capped), so not a Maintainer: project settings stay closed.
    expect((await api('GET', `/projects/${project.id}/runners`, { token: member.token })).status).toBe(403);
    expect((await api('GET', '/projects', { token: member.token, query: { min_access_level: 20 } })).body.map((p: any) => p.id)).toContain(project.id);
    expect((await api('GET', '/projects', { token: member.token, query: { min_access_level: 30 } })).body.map((p: any) => p.id)).not.toContain(project.id);

    await api('POST', `/groups/${home.id}/share`, { token: owner.token, json: { group_id: nested.id, group_access: 50 } });
    expect((await api('GET', `/groups/${home.id}`, { token: inherited.token })).status).toBe(200);
    expect((await api('GET', `/projects/${project.id}/runners`, { token: inherited.token })).status).toBe(200);
    expect((await api('GET', '/groups', { token: inherited.token, query: { min_access_level: 40 } })).body.map((g: any) => g.id)).toContain(home.id);

    // An expired share grants nothing.
    await api('DELETE', `/groups/${home.id}/share/${nested.id}`, { token: owner.token });
    await api('POST', `/groups/${home.id}/share`, { token: owner.token, json: { group_id: nested.id, group_access: 50, expires_at: '2000-01-01' } });
    expect((await api('GET', `/groups/${home.id}`, { token: inherited.token })).status).toBe(404);
  });
});

describe('[NAMESPACES] share_with_group_lock and existing project shares', () => {
  it("keeps the shares of a locked group's projects (subgroups too) but they grant nothing until the lock is off", async () => {
    // As GitLab: Namespace#force_share_with_group_lock_on_descendants locks the subgroups, the
    // project_group_links stay, and Group.select_for_project_authorization skips the links of a project whose
    // namespace is locked, so their members lose that access (and get it back when the lock is turned off).
    const owner = await createUser();
    const home = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: home.id });
    const direct = await createProject(owner.token, { namespaceId: home.id });
    const nested = await createProject(owner.token, { namespaceId: sub.id });
    const team = await createGroup(owner.token);
    const member = await createUser();
    await addGroupMember(owner.token, team.id, member.id, 40);
    for (const p of [direct, nested]) {
      expect((await api('POST', `/projects/${p.id}/share`, { token: owner.token, json: { group_id: team.id, group_access: 40 } })).status).toBe(201);
    }
    const reach = async () => ({
      read: await Promise.all([direct, nested].map(async (p) => (await api('GET', `/projects/${p.id}`, { token: member.token })).status)),
      runners: await Promise.all([direct, nested].map(async (p) => (await api('GET', `/projects/${p.id}/runners`, { token: member.token })).status)),
      maintained: (await api('GET', '/projects', { token: member.token, query: { min_access_level: 40 } })).body.map((p: any) => p.id).sort(),
      // What the owner sees of the member through the project's "all members" (the dashboard reads this).
      level: await Promise.all(
        [direct, nested].map(async (p) => {
          const r = await api('GET', `/projects/${p.id}/members/all/${member.id}`, { token: owner.token });
          return r.status === 200 ? r.body.access_level : r.status;
        }),
      ),
    });
    expect(await reach()).toEqual({ read: [200, 200], runners: [200, 200], maintained: [direct.id, nested.id].sort(), level: [40, 40] });

    expect((await api('PUT', `/groups/${home.id}`, { token: owner.token, json: { share_with_group_lock: true } })).status).toBe(200);
    expect((await api('GET', `/groups/${sub.id}`, { token: owner.token })).body.share_with_group_lock).toBe(true);
    expect(await reach()).toEqual({ read: [404, 404], runners: [404, 404], maintained: [], level: [404, 404] });
    // The links themselves stay, listed as before.
    for (const p of [direct, nested]) {
      const shown = (await api('GET', `/projects/${p.id}`, { token: owner.token })).body.shared_with_groups;
      expect(shown.map((l: any) => [l.group_id, l.group_access_level])).toEqual([[team.id, 40]]);
    }

    await api('PUT', `/groups/${home.id}`, { token: owner.token, json: { share_with_group_lock: false } });
    await api('PUT', `/groups/${sub.id}`, { token: owner.token, json: { share_with_group_lock: false } });
    expect(await reach()).toEqual({ read: [200, 200], runners: [200, 200], maintained: [direct.id, nested.id].sort(), level: [40, 40] });
  });
});

describe('[NAMESPACES] GET /namespaces/:id/exists', () => {
  it('answers exists and a free suggestion at the top level and under a parent', async () => {
    const owner = await createUser();
    const path = uniq('taken');
    const group = await createGroup(owner.token, { path });
    expect(await api('GET', `/namespaces/${path.toUpperCase()}/exists`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { exists: true, suggests: [`${path.toUpperCase()}1`] },
    });
    await createGroup(owner.token, { path: `${path}1` });
    expect((await api('GET', `/namespaces/${path}/exists`, { token: owner.token })).body).toEqual({ exists: true, suggests: [`${path}2`] });
    expect((await api('GET', `/namespaces/${uniq('free')}/exists`, { token: owner.token })).body).toEqual({ exists: false, suggests: [] });
    // Under a parent only its children count; a user's personal namespace is top level.
    const child = await createGroup(owner.token, { parentId: group.id, path: 'child' });
    expect((await api('GET', '/namespaces/child/exists', { token: owner.token, query: { parent_id: group.id } })).body).toEqual({
      exists: true,
      suggests: ['child1'],
    });
    expect((await api('GET', `/namespaces/${child.path}/exists`, { token: owner.token, query: { parent_id: 2147483000 } })).body.exists).toBe(false);
    expect((await api('GET', `/namespaces/${owner.username}/exists`, { token: owner.token })).body.exists).toBe(true);
    expect((await api('GET', `/namespaces/${path}/exists`)).status).toBe(401);
    expect(await api('GET', `/namespaces/${path}/exists`, { token: owner.token, query: { parent_id: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'parent_id is invalid' },
    });
  });
});
