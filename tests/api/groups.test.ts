import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';

const GROUP_KEYS = [
  'id',
  'web_url',
  'name',
  'path',
  'description',
  'visibility',
  'share_with_group_lock',
  'require_two_factor_authentication',
  'two_factor_grace_period',
  'project_creation_level',
  'auto_devops_enabled',
  'subgroup_creation_level',
  'emails_disabled',
  'emails_enabled',
  'show_diff_preview_in_email',
  'mentions_disabled',
  'lfs_enabled',
  'archived',
  'math_rendering_limits_enabled',
  'lock_math_rendering_limits_enabled',
  'default_branch',
  'default_branch_protection',
  'default_branch_protection_defaults',
  'avatar_url',
  'request_access_enabled',
  'full_name',
  'full_path',
  'created_at',
  'parent_id',
  'organization_id',
  'shared_runners_setting',
  'max_artifacts_size',
  'marked_for_deletion_on',
];

describe('[NAMESPACES] POST /groups', () => {
  it('creates a top-level group and a subgroup, the creator becoming Owner', async () => {
    const owner = await createUser();
    const path = uniq('acme');
    const res = await api('POST', '/groups', { token: owner.token, json: { name: 'Acme Corp', path, description: 'The company', visibility: 'internal' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...GROUP_KEYS, 'shared_with_groups', 'prevent_sharing_groups_outside_hierarchy', 'projects', 'shared_projects']);
    expect(res.body).toMatchObject({
      name: 'Acme Corp',
      path,
      full_path: path,
      full_name: 'Acme Corp',
      description: 'The company',
      visibility: 'internal',
      parent_id: null,
      web_url: `${baseUrl()}/groups/${path}`,
      project_creation_level: 'developer',
      subgroup_creation_level: 'maintainer',
      projects: [],
    });
    const sub = await api('POST', '/groups', { token: owner.token, json: { name: 'Platform', path: 'platform', parent_id: res.body.id } });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ full_path: `${path}/platform`, full_name: 'Acme Corp / Platform', parent_id: res.body.id, visibility: 'private' });
    const members = await api('GET', `/groups/${res.body.id}/members`, { token: owner.token });
    expect(members.body).toEqual([expect.objectContaining({ id: owner.id, username: owner.username, access_level: 50 })]);
  });

  it('answers Grape and model validation errors as GitLab does', async () => {
    const user = await createUser();
    const missing = await api('POST', '/groups', { token: user.token, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing, path is missing' });
    const badVis = await api('POST', '/groups', { token: user.token, json: { name: 'x', path: uniq('x'), visibility: 'secret' } });
    expect(badVis.body).toEqual({ error: 'visibility does not have a valid value' });
    const g = await createGroup(user.token);
    const taken = await api('POST', '/groups', { token: user.token, json: { name: 'Other', path: g.path.toUpperCase() } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    const badPath = await api('POST', '/groups', { token: user.token, json: { name: 'Bad', path: '-bad.git' } });
    expect(badPath.status).toBe(400);
    expect(badPath.body.message).toMatch(/^Failed to save group \{:path=>\["can contain only letters/);
    const privateParent = await createGroup(user.token, { visibility: 'private' });
    const tooOpen = await api('POST', '/groups', {
      token: user.token,
      json: { name: 'Open', path: 'open', parent_id: privateParent.id, visibility: 'public' },
    });
    expect(tooOpen.status).toBe(400);
    expect(tooOpen.body.message).toContain(':visibility_level=>');
    const anon = await api('POST', '/groups', { json: { name: 'x', path: 'y' } });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: '401 Unauthorized' });
  });

  it('lets only Maintainers and Owners of the parent create subgroups', async () => {
    const owner = await createUser();
    const parent = await createGroup(owner.token, { visibility: 'public' });
    for (const [level, status] of [
      [10, 403],
      [20, 403],
      [30, 403],
      [40, 201],
    ] as const) {
      const u = await createUser();
      await addGroupMember(owner.token, parent.id, u.id, level);
      const res = await api('POST', '/groups', { token: u.token, json: { name: `Sub ${level}`, path: uniq('sub'), parent_id: parent.id } });
      expect(res.status, `level ${level}`).toBe(status);
      if (status === 403) expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    const outsider = await createUser();
    const hidden = await createGroup(owner.token, { visibility: 'private' });
    const res = await api('POST', '/groups', { token: outsider.token, json: { name: 'S', path: 's', parent_id: hidden.id } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('[NAMESPACES] GET /groups/:id', () => {
  it('finds a group by id and by URL-encoded full path (case-insensitively), with its readable projects', async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'public' });
    const sub = await createGroup(owner.token, { parentId: top.id, path: 'Team.One', visibility: 'public' });
    const pub = await createProject(owner.token, { namespaceId: sub.id, visibility: 'public', path: 'web' });
    await createProject(owner.token, { namespaceId: sub.id, visibility: 'private', path: 'secret' });
    const byId = await api('GET', `/groups/${sub.id}`, { token: owner.token });
    expect(byId.status).toBe(200);
    expect(byId.body.projects.map((p: any) => p.path).sort()).toEqual(['secret', 'web']);
    const byPath = await api('GET', `/groups/${encodeURIComponent(sub.full_path)}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(sub.id);
    expect(byPath.body.projects.map((p: any) => p.id)).toEqual([pub.id]);
    const upper = await api('GET', `/groups/${encodeURIComponent(sub.full_path.toUpperCase())}`);
    expect(upper.body.id).toBe(sub.id);
  });

  it('answers 404 "Group Not Found" for missing and invisible groups alike', async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const priv = await createGroup(owner.token, { visibility: 'private' });
    const internal = await createGroup(owner.token, { visibility: 'internal' });
    for (const [id, token] of [
      ['999999999', owner.token],
      [String(priv.id), outsider.token],
      [priv.full_path, outsider.token],
      [String(internal.id), undefined],
      ['no-such-group', owner.token],
    ] as const) {
      const res = await api('GET', `/groups/${encodeURIComponent(id)}`, { token });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
    expect((await api('GET', `/groups/${internal.id}`, { token: outsider.token })).status).toBe(200);
    expect((await api('GET', `/groups/${priv.id}`, { token: rootToken() })).status).toBe(200);
  });

  it('lets a member of a project inside a private group read the group (GitLab has_projects)', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const outsider = await createUser();
    const top = await createGroup(owner.token, { visibility: 'private' });
    const sub = await createGroup(owner.token, { parentId: top.id, visibility: 'private' });
    const project = await createProject(owner.token, { namespaceId: sub.id });
    await addProjectMember(owner.token, project.id, guest.id, 10);
    for (const id of [top.id, sub.id]) {
      expect((await api('GET', `/groups/${id}`, { token: guest.token })).status).toBe(200);
      expect((await api('GET', `/groups/${id}`, { token: outsider.token })).status).toBe(404);
    }
    // Reading the group grants nothing more: no subgroup creation, no member management.
    expect((await api('POST', '/groups', { token: guest.token, json: { name: 'n', path: 'n', parent_id: top.id } })).status).toBe(403);
  });
});

describe('[NAMESPACES] GET /groups and /groups/:id/subgroups', () => {
  it('lists member groups by default, all visible ones with all_available, and filters as GitLab', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const tag = uniq('lst');
    const pub = await createGroup(owner.token, { path: `${tag}-b-pub`, visibility: 'public' });
    const priv = await createGroup(owner.token, { path: `${tag}-a-priv`, visibility: 'private' });
    const sub = await createGroup(owner.token, { path: `${tag}-c-sub`, parentId: priv.id });
    await addGroupMember(owner.token, priv.id, viewer.id, 20);

    const mine = await api('GET', '/groups', { token: viewer.token, query: { search: tag } });
    expect(mine.status).toBe(200);
    // Name order (GitLab's default), membership inherited into the subgroup.
    expect(mine.body.map((g: any) => g.id)).toEqual([priv.id, sub.id]);
    const all = await api('GET', '/groups', { token: viewer.token, query: { search: tag, all_available: true } });
    expect(all.body.map((g: any) => g.id)).toEqual([priv.id, pub.id, sub.id]);
    const top = await api('GET', '/groups', { token: viewer.token, query: { search: tag, all_available: true, top_level_only: true } });
    expect(top.body.map((g: any) => g.id)).toEqual([priv.id, pub.id]);
    const anon = await api('GET', '/groups', { query: { search: tag } });
    expect(anon.body.map((g: any) => g.id)).toEqual([pub.id]);
    const owned = await api('GET', '/groups', { token: owner.token, query: { search: tag, owned: true, order_by: 'id', sort: 'desc' } });
    expect(owned.body.map((g: any) => g.id)).toEqual([sub.id, priv.id, pub.id]);
    const min = await api('GET', '/groups', { token: viewer.token, query: { search: tag, min_access_level: 30 } });
    expect(min.body).toEqual([]);
    const admin = await api('GET', '/groups', { token: rootToken(), query: { search: tag } });
    expect(admin.body.map((g: any) => g.id)).toEqual([priv.id, pub.id, sub.id]);
    const bad = await api('GET', '/groups', { token: viewer.token, query: { order_by: 'size' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('paginates with GitLab headers', async () => {
    const owner = await createUser();
    const tag = uniq('pg');
    for (let i = 0; i < 5; i++) await createGroup(owner.token, { path: `${tag}-${i}` });
    const res = await api('GET', '/groups', { token: owner.token, query: { search: tag, per_page: 2, page: 2 } });
    expect(res.body.map((g: any) => g.path)).toEqual([`${tag}-2`, `${tag}-3`]);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('x-page')).toBe('2');
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    const link = res.headers.get('link')!;
    expect(link).toContain(`<${baseUrl()}/api/v4/groups?page=3&per_page=2&search=${tag}>; rel="next"`);
    expect(link).toMatch(/rel="prev".*rel="next".*rel="first".*rel="last"/);
  });

  it('lists the subgroups of a group the actor can see', async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const root = await createGroup(owner.token, { visibility: 'public' });
    const a = await createGroup(owner.token, { parentId: root.id, path: 'a', visibility: 'public' });
    const b = await createGroup(owner.token, { parentId: root.id, path: 'b', visibility: 'private' });
    await createGroup(owner.token, { parentId: a.id, path: 'deeper', visibility: 'public' });
    const asOwner = await api('GET', `/groups/${root.id}/subgroups`, { token: owner.token });
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.map((g: any) => g.id)).toEqual([a.id, b.id]);
    expect(asOwner.headers.get('x-total')).toBe('2');
    const asOutsider = await api('GET', `/groups/${encodeURIComponent(root.full_path)}/subgroups`, { token: outsider.token });
    expect(asOutsider.body.map((g: any) => g.id)).toEqual([a.id]);
    const missing = await api('GET', `/groups/${b.id}/subgroups`, { token: outsider.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Group Not Found' });
  });
});
