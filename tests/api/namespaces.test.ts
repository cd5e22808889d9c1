import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser } from '../support/users';

const BASIC_KEYS = ['id', 'name', 'path', 'kind', 'full_path', 'parent_id', 'avatar_url', 'web_url'];
const OWNER_KEYS = [...BASIC_KEYS, 'members_count_with_descendants', 'root_repository_size', 'projects_count'];

describe('[NAMESPACES] GET /namespaces', () => {
  it("lists the caller's personal namespace and the groups they are a direct member of, in GitLab's Namespace shape", async () => {
    const user = await createUser();
    const other = await createUser();
    const owned = await createGroup(user.token, { name: 'Owned NS' });
    const sub = await createGroup(user.token, { parentId: owned.id, path: 'inner' });
    await createProject(user.token, { namespaceId: sub.id });
    const joined = await createGroup(other.token);
    await addGroupMember(other.token, joined.id, user.id, 30);
    await addGroupMember(user.token, owned.id, other.id, 20);
    await createGroup(other.token); // not a member: not listed

    const res = await api('GET', '/namespaces', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    const [personal, ...groups] = res.body;
    expect(personal).toEqual({
      id: personal.id,
      name: `Test ${user.username}`,
      path: user.username,
      kind: 'user',
      full_path: user.username,
      parent_id: null,
      avatar_url: null,
      web_url: `${baseUrl()}/${user.username}`,
    });
    expect(groups.map((g: any) => g.id)).toEqual([owned.id, sub.id, joined.id]);
    // Owners see the counts (members across the subtree, projects across the subtree); other members do not.
    expect(Object.keys(groups[0])).toEqual(OWNER_KEYS);
    expect(groups[0]).toMatchObject({
      kind: 'group',
      full_path: owned.full_path,
      web_url: `${baseUrl()}/groups/${owned.full_path}`,
      members_count_with_descendants: 2,
      root_repository_size: null,
      projects_count: 1,
    });
    expect(groups[1]).toMatchObject({ parent_id: owned.id, full_path: `${owned.full_path}/inner`, members_count_with_descendants: 1, projects_count: 1 });
    expect(Object.keys(groups[2])).toEqual(BASIC_KEYS);

    const ownedOnly = await api('GET', '/namespaces', { token: user.token, query: { owned_only: true } });
    expect(ownedOnly.body.map((n: any) => n.id)).toEqual([personal.id, owned.id, sub.id]);
    const top = await api('GET', '/namespaces', { token: user.token, query: { top_level_only: true } });
    expect(top.body.map((n: any) => n.id)).toEqual([personal.id, owned.id, joined.id]);
    const search = await api('GET', '/namespaces', { token: user.token, query: { search: 'inner' } });
    expect(search.body.map((n: any) => n.id)).toEqual([sub.id]);
    const byFullPath = await api('GET', '/namespaces', { token: user.token, query: { search: `${owned.path}/inn`, full_path_search: true } });
    expect(byFullPath.body.map((n: any) => n.id)).toEqual([sub.id]);
    const page = await api('GET', '/namespaces', { token: user.token, query: { per_page: 2, page: 2 } });
    expect(page.body.map((n: any) => n.id)).toEqual([sub.id, joined.id]);
    expect(page.headers.get('x-page')).toBe('2');
    expect((await api('GET', '/namespaces')).status).toBe(401);
    expect(await api('GET', '/namespaces', { token: user.token, query: { owned_only: 'maybe' } })).toMatchObject({
      status: 400,
      body: { error: 'owned_only is invalid' },
    });
  });

  it('lists every namespace for an admin', async () => {
    const user = await createUser();
    const group = await createGroup(user.token);
    const res = await api('GET', '/namespaces', { token: rootToken(), query: { per_page: 100, search: group.path } });
    expect(res.body.map((n: any) => n.id)).toEqual([group.id]);
    expect(res.body[0].members_count_with_descendants).toBe(1);
    const total = Number((await api('GET', '/namespaces', { token: rootToken() })).headers.get('x-total'));
    expect(total).toBeGreaterThanOrEqual(3);
  });
});

describe('[NAMESPACES] GET /namespaces/:id', () => {
  it('shows a namespace by id or URL-encoded path to its owner, members and admins; 404 to anyone else', async () => {
    const user = await createUser();
    const member = await createUser();
    const outsider = await createUser();
    const group = await createGroup(user.token, { visibility: 'public' });
    const sub = await createGroup(user.token, { parentId: group.id, path: 'deep' });
    await addGroupMember(user.token, group.id, member.id, 10);

    const byPath = await api('GET', `/namespaces/${encodeURIComponent(`${group.full_path}/deep`)}`, { token: member.token });
    expect(byPath.status).toBe(200);
    expect(Object.keys(byPath.body)).toEqual(BASIC_KEYS);
    expect(byPath.body).toMatchObject({ id: sub.id, kind: 'group', parent_id: group.id });
    const asOwner = await api('GET', `/namespaces/${group.id}`, { token: user.token });
    expect(asOwner.body).toMatchObject({ id: group.id, members_count_with_descendants: 2, projects_count: 0 });
    const personal = await api('GET', `/namespaces/${user.username}`, { token: user.token });
    expect(personal.body).toMatchObject({ kind: 'user', full_path: user.username });
    expect((await api('GET', `/namespaces/${user.username}`, { token: rootToken() })).status).toBe(200);
    // A public group is still not the outsider's namespace.
    for (const id of [String(group.id), user.username, 'no-such-namespace', '999999999']) {
      expect(await api('GET', `/namespaces/${encodeURIComponent(id)}`, { token: outsider.token })).toMatchObject({
        status: 404,
        body: { message: '404 Namespace Not Found' },
      });
    }
    expect((await api('GET', `/namespaces/${group.id}`)).status).toBe(401);
  });
});
