// [NAMESPACES] GET /groups/:id/projects: the group's projects the caller may read, GitLab's Entities::Project
// (BasicProjectDetails with simple=true), include_subgroups / include_ancestor_groups, filters and pagination.
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';

async function tree() {
  const owner = await createUser();
  const top = await createGroup(owner.token, { visibility: 'public' });
  const sub = await createGroup(owner.token, { parentId: top.id, visibility: 'public' });
  const topPublic = await createProject(owner.token, { namespaceId: top.id, visibility: 'public', name: 'Alpha Web' });
  const topInternal = await createProject(owner.token, { namespaceId: top.id, visibility: 'internal', name: 'Beta Api' });
  const topPrivate = await createProject(owner.token, { namespaceId: top.id, visibility: 'private', name: 'Gamma Secrets' });
  const subPublic = await createProject(owner.token, { namespaceId: sub.id, visibility: 'public', name: 'Delta Docs' });
  return { owner, top, sub, topPublic, topInternal, topPrivate, subPublic };
}

const ids = (body: Array<{ id: number }>) => body.map((p) => p.id);

describe('[NAMESPACES] GET /groups/:id/projects', () => {
  it('lists what each caller may read: anonymous public, signed-in public+internal, members and admins all', async () => {
    const t = await tree();
    const anon = await api('GET', `/groups/${t.top.id}/projects`);
    expect(anon.status).toBe(200);
    expect(ids(anon.body)).toEqual([t.topPublic.id]);
    // Anonymous callers get BasicProjectDetails (no owner/permissions-level fields such as shared_runners_enabled).
    expect(anon.body[0]).not.toHaveProperty('shared_runners_enabled');

    const outsider = await createUser();
    const seen = await api('GET', `/groups/${t.top.id}/projects`, { token: outsider.token });
    expect(ids(seen.body).sort()).toEqual([t.topPublic.id, t.topInternal.id].sort());

    const member = await createUser();
    await addProjectMember(t.owner.token, t.topPrivate.id, member.id, 20);
    const asMember = await api('GET', `/groups/${t.top.id}/projects`, { token: member.token });
    expect(ids(asMember.body).sort()).toEqual([t.topPublic.id, t.topInternal.id, t.topPrivate.id].sort());

    const admin = await createUser({ admin: true });
    const asAdmin = await api('GET', `/groups/${encodeURIComponent(t.top.full_path)}/projects`, { token: admin.token });
    expect(asAdmin.status).toBe(200);
    // Default order: created_at desc.
    expect(ids(asAdmin.body)).toEqual([t.topPrivate.id, t.topInternal.id, t.topPublic.id]);
  });

  it('answers Entities::Project (no permissions block) and BasicProjectDetails with simple=true', async () => {
    const t = await tree();
    const full = await api('GET', `/groups/${t.top.id}/projects`, { token: t.owner.token, query: { search: 'Alpha' } });
    expect(full.body).toHaveLength(1);
    expect(full.body[0]).toMatchObject({ id: t.topPublic.id, name: 'Alpha Web', path_with_namespace: t.topPublic.path_with_namespace, visibility: 'public' });
    expect(full.body[0]).toHaveProperty('shared_runners_enabled', true);
    expect(full.body[0]).not.toHaveProperty('permissions');
    const simple = await api('GET', `/groups/${t.top.id}/projects`, { token: t.owner.token, query: { search: 'Alpha', simple: true } });
    expect(simple.body[0]).toMatchObject({ id: t.topPublic.id, name: 'Alpha Web' });
    expect(simple.body[0]).not.toHaveProperty('shared_runners_enabled');
  });

  it('includes subgroups and ancestor groups on request', async () => {
    const t = await tree();
    const direct = await api('GET', `/groups/${t.top.id}/projects`, { token: t.owner.token });
    expect(ids(direct.body)).not.toContain(t.subPublic.id);
    const withSubgroups = await api('GET', `/groups/${t.top.id}/projects`, { token: t.owner.token, query: { include_subgroups: true } });
    expect(ids(withSubgroups.body).sort()).toEqual([t.topPublic.id, t.topInternal.id, t.topPrivate.id, t.subPublic.id].sort());
    const subOnly = await api('GET', `/groups/${t.sub.id}/projects`, { token: t.owner.token });
    expect(ids(subOnly.body)).toEqual([t.subPublic.id]);
    const withAncestors = await api('GET', `/groups/${t.sub.id}/projects`, { token: t.owner.token, query: { include_ancestor_groups: true } });
    expect(ids(withAncestors.body).sort()).toEqual([t.topPublic.id, t.topInternal.id, t.topPrivate.id, t.subPublic.id].sort());
  });

  it('filters by visibility and search, and paginates with GitLab headers', async () => {
    const t = await tree();
    const vis = await api('GET', `/groups/${t.top.id}/projects`, { token: t.owner.token, query: { visibility: 'internal' } });
    expect(ids(vis.body)).toEqual([t.topInternal.id]);
    const byName = await api('GET', `/groups/${t.top.id}/projects`, { token: t.owner.token, query: { order_by: 'name', sort: 'asc', per_page: 2, page: 2 } });
    expect(byName.status).toBe(200);
    expect(ids(byName.body)).toEqual([t.topPrivate.id]);
    expect(byName.headers.get('x-total')).toBe('3');
    expect(byName.headers.get('x-total-pages')).toBe('2');
    expect(byName.headers.get('x-page')).toBe('2');
    expect(byName.headers.get('x-prev-page')).toBe('1');
  });

  it('hides private groups (404) and refuses bad parameters (400) as GitLab does', async () => {
    const owner = await createUser();
    const hidden = await createGroup(owner.token, { visibility: 'private' });
    await createProject(owner.token, { namespaceId: hidden.id, visibility: 'private' });
    const outsider = await createUser();
    const res = await api('GET', `/groups/${hidden.id}/projects`, { token: outsider.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
    const missing = await api('GET', '/groups/999999999/projects', { token: outsider.token });
    expect(missing.status).toBe(404);
    const reporter = await createUser();
    await addGroupMember(owner.token, hidden.id, reporter.id, 20);
    expect((await api('GET', `/groups/${hidden.id}/projects`, { token: reporter.token })).body).toHaveLength(1);
    const bad = await api('GET', `/groups/${hidden.id}/projects`, { token: owner.token, query: { order_by: 'stars' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
    const badBool = await api('GET', `/groups/${hidden.id}/projects`, { token: owner.token, query: { include_subgroups: 'maybe' } });
    expect(badBool.status).toBe(400);
    expect(badBool.body).toEqual({ error: 'include_subgroups is invalid' });
  });
});

describe('[NAMESPACES] GET /groups/:id with_projects', () => {
  it('leaves out projects and shared_projects with with_projects=false', async () => {
    const t = await tree();
    const full = await api('GET', `/groups/${t.top.id}`, { token: t.owner.token });
    expect(full.body.projects.map((p: { id: number }) => p.id).sort()).toEqual([t.topPublic.id, t.topInternal.id, t.topPrivate.id].sort());
    const bare = await api('GET', `/groups/${t.top.id}`, { token: t.owner.token, query: { with_projects: false } });
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ id: t.top.id, full_path: t.top.full_path });
    expect(bare.body).not.toHaveProperty('projects');
    expect(bare.body).not.toHaveProperty('shared_projects');
    expect(Object.keys(bare.body).at(-1)).toBe('prevent_sharing_groups_outside_hierarchy');
  });
});
