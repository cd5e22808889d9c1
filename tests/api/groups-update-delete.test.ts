// [NAMESPACES] PUT and DELETE /groups/:id and GET /groups/:id/descendant_groups: Owner-only changes with
// GitLab's visibility rules and messages, full paths moving with a new path, and a deletion that takes
// subgroups, projects, group runners and memberships with it.
import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { createRunner, dbQuery, linkProject } from './runners-admin-support';

describe('[NAMESPACES] PUT /groups/:id', () => {
  it('Owners change name, path, description and visibility; subgroups and projects move with the path', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'public' });
    const sub = await createGroup(owner.token, { parentId: top.id, visibility: 'public' });
    const project = await createProject(owner.token, { namespaceId: sub.id, visibility: 'private' });
    const newPath = uniq('renamed');
    const res = await api('PUT', `/groups/${top.id}`, {
      token: owner.token,
      json: { name: 'Renamed Org', path: newPath, description: 'About', visibility: 'internal' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ message: { visibility_level: ['internal is not allowed since there are sub-groups with higher visibility.'] } });

    const ok = await api('PUT', `/groups/${top.id}`, { token: owner.token, json: { name: 'Renamed Org', path: newPath, description: 'About' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({
      id: top.id,
      name: 'Renamed Org',
      path: newPath,
      full_path: newPath,
      full_name: 'Renamed Org',
      description: 'About',
      projects: [],
      shared_projects: [],
    });
    expect(Object.keys(ok.body).slice(0, 4)).toEqual(['id', 'web_url', 'name', 'path']);
    const subNow = await api('GET', `/groups/${sub.id}`, { token: owner.token });
    expect(subNow.body).toMatchObject({ full_path: `${newPath}/${sub.path}`, full_name: `Renamed Org / ${sub.name}` });
    const projectNow = await api('GET', `/projects/${encodeURIComponent(`${newPath}/${sub.path}/${project.path}`)}`, { token: owner.token });
    expect(projectNow.status).toBe(200);
    expect(projectNow.body).toMatchObject({ id: project.id, name_with_namespace: `Renamed Org / ${sub.name} / ${project.name}` });
  });

  it('Maintainers get 403; strangers of a private group 404; anonymous 401', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const maintainer = await createUser();
    await addGroupMember(owner.token, group.id, maintainer.id, 40);
    expect(await api('PUT', `/groups/${group.id}`, { token: maintainer.token, json: { description: 'x' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    const stranger = await createUser();
    expect(await api('PUT', `/groups/${group.id}`, { token: stranger.token, json: { description: 'x' } })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    expect((await api('PUT', `/groups/${group.id}`, { json: { description: 'x' } })).status).toBe(401);
    // An Owner of the parent owns the subgroup too; admins may.
    const sub = await createGroup(owner.token, { parentId: group.id });
    const parentOwner = await createUser();
    await addGroupMember(owner.token, group.id, parentOwner.id, 50);
    expect((await api('PUT', `/groups/${sub.id}`, { token: parentOwner.token, json: { description: 'by parent owner' } })).body.description).toBe(
      'by parent owner',
    );
    expect((await api('PUT', `/groups/${sub.id}`, { token: rootToken(), json: { description: 'by admin' } })).body.description).toBe('by admin');
  });

  it("visibility: not above the parent's, not below a project's; names and paths validated", async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'internal' });
    const sub = await createGroup(owner.token, { parentId: top.id, visibility: 'internal' });
    await createProject(owner.token, { namespaceId: sub.id, visibility: 'internal' });
    expect((await api('PUT', `/groups/${sub.id}`, { token: owner.token, json: { visibility: 'public' } })).body).toEqual({
      message: { visibility_level: ['public is not allowed since the parent group has a internal visibility.'] },
    });
    expect((await api('PUT', `/groups/${sub.id}`, { token: owner.token, json: { visibility: 'private' } })).body).toEqual({
      message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] },
    });
    const other = await createGroup(owner.token);
    expect(await api('PUT', `/groups/${top.id}`, { token: owner.token, json: { name: '(bad', path: '-bad' } })).toMatchObject({
      status: 400,
      body: {
        message: {
          name: ["can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."],
          path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."],
        },
      },
    });
    expect((await api('PUT', `/groups/${top.id}`, { token: owner.token, json: { path: other.path } })).body).toEqual({
      message: { path: ['has already been taken'] },
    });
    expect((await api('PUT', `/groups/${top.id}`, { token: owner.token, json: { visibility: 'private' } })).body.message.visibility_level).toEqual([
      'private is not allowed since there are sub-groups with higher visibility.',
    ]);
  });
});

describe('[NAMESPACES] DELETE /groups/:id', () => {
  it('Owner-only; 202, then the group, subgroups, projects, runners and memberships are gone', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: top.id });
    const deep = await createGroup(owner.token, { parentId: sub.id });
    const p1 = await createProject(owner.token, { namespaceId: top.id });
    const p2 = await createProject(owner.token, { namespaceId: deep.id });
    const outside = await createProject(owner.token);
    const member = await createUser();
    await addGroupMember(owner.token, sub.id, member.id, 40);
    await addProjectMember(owner.token, p2.id, member.id, 50);
    const groupRunner = await createRunner('group_type', { groupId: sub.id, token: owner.token });
    const projectRunner = await createRunner('project_type', { projectId: p1.id, token: owner.token });
    const sharedRunner = await createRunner('project_type', { projectId: p2.id, token: owner.token });
    await linkProject(sharedRunner, outside.id);

    expect(await api('DELETE', `/groups/${top.id}`, { token: member.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const res = await api('DELETE', `/groups/${top.id}`, { token: owner.token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    for (const g of [top, sub, deep]) expect((await api('GET', `/groups/${g.id}`, { token: rootToken() })).status).toBe(404);
    for (const p of [p1, p2]) expect((await api('GET', `/projects/${p.id}`, { token: rootToken() })).status).toBe(404);
    expect(await dbQuery('SELECT 1 FROM group_members WHERE group_id = ANY($1)', [[top.id, sub.id, deep.id]])).toEqual([]);
    expect(await dbQuery('SELECT 1 FROM project_members WHERE project_id = $1', [p2.id])).toEqual([]);
    expect(await dbQuery('SELECT id FROM ci_runners WHERE id = ANY($1)', [[groupRunner, projectRunner]])).toEqual([]);
    expect(await dbQuery('SELECT owner_project_id FROM ci_runners WHERE id = $1', [sharedRunner])).toEqual([{ owner_project_id: outside.id }]);
    expect((await api('GET', `/projects/${outside.id}`, { token: owner.token })).status).toBe(200);
    expect(await api('DELETE', `/groups/${top.id}`, { token: rootToken() })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('deleting a subgroup leaves its parent', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: top.id });
    expect((await api('DELETE', `/groups/${sub.id}`, { token: owner.token })).status).toBe(202);
    const parent = await api('GET', `/groups/${top.id}/subgroups`, { token: owner.token });
    expect(parent.status).toBe(200);
    expect(parent.body).toEqual([]);
  });
});

describe('[NAMESPACES] GET /groups/:id/descendant_groups', () => {
  it('every visible group at any depth, Entities::Group, with search and pagination', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'public' });
    const a = await createGroup(owner.token, { parentId: top.id, visibility: 'public', name: 'Alpha' });
    const b = await createGroup(owner.token, { parentId: a.id, visibility: 'internal', name: 'Beta' });
    const c = await createGroup(owner.token, { parentId: b.id, visibility: 'private', name: 'Gamma' });
    const ids = (r: { body: Array<{ id: number }> }) => r.body.map((g) => g.id);

    const asOwner = await api('GET', `/groups/${top.id}/descendant_groups`, { token: owner.token });
    expect(asOwner.status).toBe(200);
    expect(ids(asOwner)).toEqual([a.id, b.id, c.id]);
    expect(asOwner.body[2]).toMatchObject({ name: 'Gamma', full_path: c.full_path, parent_id: b.id, visibility: 'private' });
    expect(asOwner.body[0]).not.toHaveProperty('projects');
    expect(ids(await api('GET', `/groups/${top.id}/descendant_groups`))).toEqual([a.id]);
    const stranger = await createUser();
    expect(ids(await api('GET', `/groups/${top.id}/descendant_groups`, { token: stranger.token }))).toEqual([a.id, b.id]);
    expect(ids(await api('GET', `/groups/${top.id}/descendant_groups`, { token: owner.token, query: { search: 'gam' } }))).toEqual([c.id]);
    const page = await api('GET', `/groups/${top.id}/descendant_groups`, { token: owner.token, query: { per_page: 2, page: 2 } });
    expect(ids(page)).toEqual([c.id]);
    expect(page.headers.get('x-total')).toBe('3');
    expect(ids(await api('GET', `/groups/${a.id}/descendant_groups`, { token: owner.token, query: { skip_groups: [String(b.id)] } }))).toEqual([c.id]);
  });
});
