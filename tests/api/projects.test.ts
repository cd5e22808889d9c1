import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';
import { withLocalRequests } from '../support/local-requests';

const IDENTITY_KEYS = ['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at'];
const BASIC_KEYS = [
  ...IDENTITY_KEYS,
  'default_branch',
  'tag_list',
  'topics',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'readme_url',
  'forks_count',
  'avatar_url',
  'star_count',
  'last_activity_at',
  'namespace',
];

describe('[NAMESPACES] POST /projects', () => {
  it('creates a project in the personal namespace by default, the owner an Owner member', async () => {
    const user = await createUser();
    const res = await api('POST', '/projects', { token: user.token, json: { name: 'My Tool', description: 'A tool', default_branch: 'main' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).slice(0, BASIC_KEYS.length)).toEqual(BASIC_KEYS);
    expect(res.body).toMatchObject({
      name: 'My Tool',
      path: 'my-tool',
      path_with_namespace: `${user.username}/my-tool`,
      name_with_namespace: `Test ${user.username} / My Tool`,
      description: 'A tool',
      default_branch: 'main',
      visibility: 'private',
      web_url: `${baseUrl()}/${user.username}/my-tool`,
      http_url_to_repo: `${baseUrl()}/${user.username}/my-tool.git`,
      namespace: { kind: 'user', full_path: user.username, path: user.username, parent_id: null },
      owner: expect.objectContaining({ id: user.id, username: user.username }),
      shared_runners_enabled: true,
      group_runners_enabled: true,
      import_url: null,
      import_status: 'none',
      import_error: null,
      creator_id: user.id,
      permissions: { project_access: { access_level: 50, notification_level: 3 }, group_access: null },
    });
    const keys = Object.keys(res.body);
    expect(keys.indexOf('visibility')).toBeLessThan(keys.indexOf('shared_runners_enabled'));
    expect(keys.indexOf('shared_runners_enabled')).toBe(keys.indexOf('group_runners_enabled') - 1);
    expect(keys.indexOf('creator_id')).toBeLessThan(keys.indexOf('import_status'));
    expect(keys.at(-1)).toBe('permissions');
  });

  it('creates in a group for Developers and up (project_creation_level developer)', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'internal', name: 'Acme' });
    for (const [level, ok] of [
      [10, false],
      [20, false],
      [30, true],
      [40, true],
    ] as const) {
      const u = await createUser();
      await addGroupMember(owner.token, group.id, u.id, level);
      const res = await api('POST', '/projects', { token: u.token, json: { path: uniq('p'), namespace_id: group.id } });
      if (ok) {
        expect(res.status, `level ${level}`).toBe(201);
        expect(res.body.namespace).toMatchObject({ id: group.id, kind: 'group' });
        expect(res.body.name_with_namespace).toBe(`Acme / ${res.body.name}`);
        expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: level, notification_level: 3 } });
      } else {
        expect(res.status, `level ${level}`).toBe(400);
        expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
      }
    }
  });

  it('answers validation errors as GitLab does', async () => {
    const user = await createUser();
    const none = await api('POST', '/projects', { token: user.token, json: { description: 'x' } });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
    const p = await createProject(user.token, { path: 'dup', name: 'Dup' });
    const dup = await api('POST', '/projects', { token: user.token, json: { name: 'Dup', path: 'dup' } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
    expect(p.path).toBe('dup');
    const badPath = await api('POST', '/projects', { token: user.token, json: { path: 'bad.git' } });
    expect(badPath.status).toBe(400);
    expect(Object.keys(badPath.body.message)).toContain('path');
    const otherNs = await api('POST', '/projects', { token: user.token, json: { path: 'x', namespace_id: 999999999 } });
    expect(otherNs.body).toEqual({ message: { namespace: ['is not valid'] } });
    const group = await createGroup(user.token, { visibility: 'private' });
    const tooOpen = await api('POST', '/projects', { token: user.token, json: { path: 'open', namespace_id: group.id, visibility: 'public' } });
    expect(tooOpen.body).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } });
    const badVis = await api('POST', '/projects', { token: user.token, json: { path: 'v', visibility: 'hidden' } });
    expect(badVis.body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('schedules an import when import_url is given', async () => {
    const user = await createUser();
    // A loopback URL (tests reach nothing else), allowed for the while by the admin setting.
    const res = await withLocalRequests(true, () =>
      api('POST', '/projects', { token: user.token, json: { path: uniq('imp'), import_url: 'https://bot:s3cret@127.0.0.1/some/repo.git' } }),
    );
    expect(res.status).toBe(201);
    // Credentials are masked as GitLab's UrlSanitizer does.
    expect(res.body.import_url).toBe('https://*****:*****@127.0.0.1/some/repo.git');
    expect(['scheduled', 'started', 'failed', 'finished']).toContain(res.body.import_status);
  });
});

describe('[NAMESPACES] GET /projects/:id', () => {
  it('resolves numeric ids and URL-encoded full paths (dots encoded too, case-insensitive fallback)', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { path: uniq('grp') });
    const sub = await createGroup(owner.token, { parentId: group.id, path: 'sub.team' });
    const project = await createProject(owner.token, { namespaceId: sub.id, path: 'my.project' });
    const full = `${group.path}/sub.team/my.project`;
    expect(project.path_with_namespace).toBe(full);
    const enc = encodeURIComponent(full).replace(/\./g, '%2E');
    for (const id of [String(project.id), encodeURIComponent(full), enc, encodeURIComponent(full.toUpperCase())]) {
      const res = await api('GET', `/projects/${id}`, { token: owner.token });
      expect(res.status, id).toBe(200);
      expect(res.body.id).toBe(project.id);
    }
    const bare = await api('GET', `/projects/my.project`, { token: owner.token });
    expect(bare.status).toBe(404);
    expect(bare.body).toEqual({ message: '404 Project Not Found' });
  });

  it('hides projects the actor cannot read behind the same 404', async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const priv = await createProject(owner.token, { visibility: 'private' });
    const internal = await createProject(owner.token, { visibility: 'internal' });
    const pub = await createProject(owner.token, { visibility: 'public' });
    for (const [id, token] of [
      [priv.id, outsider.token],
      [internal.id, undefined],
      [999999999, owner.token],
    ] as const) {
      const res = await api('GET', `/projects/${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    }
    const anon = await api('GET', `/projects/${pub.id}`);
    expect(anon.status).toBe(200);
    expect(Object.keys(anon.body)).toEqual(BASIC_KEYS);
    const asOutsider = await api('GET', `/projects/${internal.id}`, { token: outsider.token });
    expect(asOutsider.body.permissions).toEqual({ project_access: null, group_access: null });
    expect(asOutsider.body).not.toHaveProperty('import_url');
    expect((await api('GET', `/projects/${priv.id}`, { token: rootToken() })).status).toBe(200);
  });
});

describe('[NAMESPACES] GET /projects', () => {
  it('lists visible projects newest first and filters by membership, owned, search, visibility, simple', async () => {
    const owner = await createUser();
    const member = await createUser();
    const tag = uniq('list');
    const a = await createProject(owner.token, { path: `${tag}-a`, visibility: 'private' });
    const b = await createProject(owner.token, { path: `${tag}-b`, visibility: 'internal' });
    const c = await createProject(owner.token, { path: `${tag}-c`, visibility: 'public' });
    await addProjectMember(owner.token, a.id, member.id, 30);
    const seen = await api('GET', '/projects', { token: member.token, query: { search: tag } });
    expect(seen.status).toBe(200);
    expect(seen.body.map((p: any) => p.id)).toEqual([c.id, b.id, a.id]);
    expect(seen.body[2].permissions.project_access.access_level).toBe(30);
    const membership = await api('GET', '/projects', { token: member.token, query: { search: tag, membership: true } });
    expect(membership.body.map((p: any) => p.id)).toEqual([a.id]);
    const owned = await api('GET', '/projects', { token: member.token, query: { search: tag, owned: true } });
    expect(owned.body).toEqual([]);
    const ownedByOwner = await api('GET', '/projects', { token: owner.token, query: { search: tag, owned: true, order_by: 'id', sort: 'asc' } });
    expect(ownedByOwner.body.map((p: any) => p.id)).toEqual([a.id, b.id, c.id]);
    const internal = await api('GET', '/projects', { token: member.token, query: { search: tag, visibility: 'internal' } });
    expect(internal.body.map((p: any) => p.id)).toEqual([b.id]);
    const anon = await api('GET', '/projects', { query: { search: tag } });
    expect(anon.body.map((p: any) => p.id)).toEqual([c.id]);
    const simple = await api('GET', '/projects', { token: member.token, query: { search: tag, simple: true } });
    expect(Object.keys(simple.body[0])).toEqual(BASIC_KEYS);
    const minLevel = await api('GET', '/projects', { token: member.token, query: { search: tag, min_access_level: 40 } });
    expect(minLevel.body).toEqual([]);
    const bad = await api('GET', '/projects', { token: member.token, query: { sort: 'up' } });
    expect(bad.body).toEqual({ error: 'sort does not have a valid value' });
  });

  it('paginates with GitLab headers', async () => {
    const owner = await createUser();
    const tag = uniq('ppg');
    for (let i = 0; i < 3; i++) await createProject(owner.token, { path: `${tag}-${i}` });
    const first = await api('GET', '/projects', { token: owner.token, query: { search: tag, per_page: 2 } });
    expect(first.body.map((p: any) => p.path)).toEqual([`${tag}-2`, `${tag}-1`]);
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-prev-page')).toBe('');
    expect(first.headers.get('link')).toContain(`<${baseUrl()}/api/v4/projects?page=2&per_page=2&search=${tag}>; rel="next"`);
    const second = await api('GET', '/projects', { token: owner.token, query: { search: tag, per_page: 2, page: 2 } });
    expect(second.body.map((p: any) => p.path)).toEqual([`${tag}-0`]);
    expect(second.headers.get('x-next-page')).toBe('');
  });
});
