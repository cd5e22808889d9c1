// Full paths, usernames and emails are matched case-insensitively and exactly (never as LIKE patterns,
// where `_` and `%` are wildcards and a trailing `\` is an error); search filters take `%`, `_` and `\`
// literally.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { createGroup, createProject } from '../support/namespaces';
import { createToken, createUser, signIn, TEST_PASSWORD, type TestUser } from '../support/users';
import { ROOT_PASSWORD } from '../support/server';

const enc = encodeURIComponent;

describe('[PATHS] projects and groups addressed by full path', () => {
  let owner: TestUser;
  let group: any;
  let dashed: any;

  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token, { path: uniq('lk'), visibility: 'public' });
    dashed = await createProject(owner.token, { namespaceId: group.id, path: 'lk-a', visibility: 'public' });
  });

  it('a `_` in a project path is not a wildcard: lk_a does not find lk-a, whatever the case', async () => {
    for (const token of [undefined, rootToken()]) {
      const miss = await api('GET', `/projects/${enc(`${group.full_path}/lk_a`)}`, { token });
      expect(miss.status).toBe(404);
      expect(miss.body).toEqual({ message: '404 Project Not Found' });
    }
    const upper = await api('GET', `/projects/${enc(`${group.full_path}/LK-A`.toUpperCase())}`);
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(dashed.id);
  });

  it('`%` in a path matches nothing: neither a project of the group nor any group', async () => {
    for (const p of [`${group.full_path}/%`, '%/%', `${group.full_path}/lk%`]) {
      const res = await api('GET', `/projects/${enc(p)}`, { token: rootToken() });
      expect(res.status, p).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    }
    for (const p of ['%', `${group.full_path.slice(0, -1)}_`, `${group.full_path.slice(0, 3)}%`]) {
      const res = await api('GET', `/groups/${enc(p)}`, { token: rootToken() });
      expect(res.status, p).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
    const exact = await api('GET', `/groups/${enc(group.full_path.toUpperCase())}`);
    expect(exact.status).toBe(200);
    expect(exact.body.id).toBe(group.id);
  });

  it('a trailing backslash is a 404, not a database error', async () => {
    const cases: [string, string][] = [
      [`/groups/${enc(`${group.full_path.slice(0, -1)}\\`)}`, '404 Group Not Found'],
      [`/groups/${enc('\\')}`, '404 Group Not Found'],
      [`/projects/${enc(`${group.full_path}\\`)}`, '404 Project Not Found'],
      [`/projects/${enc(`${group.full_path}/lk-a\\`)}`, '404 Project Not Found'],
      [`/projects/${enc(`${group.full_path}/\\`)}`, '404 Project Not Found'],
    ];
    for (const [path, message] of cases) {
      for (const token of [undefined, rootToken()]) {
        const res = await api('GET', path, { token });
        expect(res.status, path).toBe(404);
        expect(res.body).toEqual({ message });
      }
    }
  });

  it('lk_a may be created next to lk-a, and each path then addresses its own project', async () => {
    const underscored = await api('POST', '/projects', { token: owner.token, json: { name: 'lk_a', path: 'lk_a', namespace_id: group.id } });
    expect(underscored.status, underscored.text).toBe(201);
    expect(underscored.body.path_with_namespace).toBe(`${group.full_path}/lk_a`);
    const a = await api('GET', `/projects/${enc(`${group.full_path}/lk_a`)}`, { token: owner.token });
    const b = await api('GET', `/projects/${enc(`${group.full_path}/lk-a`)}`, { token: owner.token });
    expect([a.body.id, b.body.id]).toEqual([underscored.body.id, dashed.id]);
    // A different case of an existing path is still taken (GitLab's routes are unique case-insensitively).
    const sameInOtherCase = await api('POST', '/projects', { token: owner.token, json: { name: 'LK-A2', path: 'LK-A', namespace_id: group.id } });
    expect(sameInOtherCase.status).toBe(400);
    expect(sameInOtherCase.body).toEqual({ message: { path: ['has already been taken'] } });
    // Names too: 'lk_a' was free beside 'lk-a' above, and one differing only by case is taken.
    const nameInOtherCase = await api('POST', '/projects', { token: owner.token, json: { name: 'LK_A', path: uniq('n'), namespace_id: group.id } });
    expect(nameInOtherCase.status).toBe(400);
    expect(nameInOtherCase.body).toEqual({ message: { name: ['has already been taken'] } });
  });

  it('a write addressed by a path with `_` never lands on another project', async () => {
    const outsider = await createUser();
    const other = await createProject(owner.token, { namespaceId: group.id, path: 'wr-a', visibility: 'public' });
    const res = await api('POST', `/projects/${enc(`${group.full_path}/wr_a`)}/members`, {
      token: owner.token,
      json: { user_id: outsider.id, access_level: 30 },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
    const members = await api('GET', `/projects/${other.id}/members`, { token: owner.token });
    expect(members.body.map((m: any) => m.id)).not.toContain(outsider.id);
  });

  it('a group path with `_` may be created next to one with `-`', async () => {
    const base = uniq('gp');
    const first = await api('POST', '/groups', { token: owner.token, json: { name: `${base}-x`, path: `${base}-x` } });
    expect(first.status, first.text).toBe(201);
    const second = await api('POST', '/groups', { token: owner.token, json: { name: `${base}_x`, path: `${base}_x` } });
    expect(second.status, second.text).toBe(201);
    const found = await api('GET', `/groups/${enc(`${base}_x`)}`, { token: owner.token });
    expect(found.body.id).toBe(second.body.id);
  });
});

describe('[PATHS] search filters take %, _ and \\ literally', () => {
  let owner: TestUser;
  let under: any;
  let dash: any;
  let described: any;

  beforeAll(async () => {
    owner = await createUser();
    under = await createProject(owner.token, { path: 'srch_one', name: 'srch_one' });
    dash = await createProject(owner.token, { path: 'srch-two', name: 'srch-two' });
    described = await createProject(owner.token, { path: 'srch-three', name: 'srch-three', description: '100% C:\\ drive' });
  });

  const ownedSearch = async (search: string) => {
    const res = await api('GET', '/projects', { token: owner.token, query: { owned: true, search, per_page: 100 } });
    expect(res.status, res.text).toBe(200);
    return res.body.map((p: any) => p.id).sort();
  };

  it('projects: `_` finds only what contains `_`, `%` and `\\` only what contains them', async () => {
    expect(await ownedSearch('_')).toEqual([under.id]);
    expect(await ownedSearch('srch_')).toEqual([under.id]);
    expect(await ownedSearch('%')).toEqual([described.id]);
    expect(await ownedSearch('\\')).toEqual([described.id]);
    expect(await ownedSearch('srch')).toEqual([under.id, dash.id, described.id].sort());
  });

  it('groups: `%`, `_` and `\\` are literal in search=', async () => {
    const parent = await createGroup(owner.token, { path: uniq('sg') });
    const a = await createGroup(owner.token, { parentId: parent.id, path: 'sub_a' });
    await createGroup(owner.token, { parentId: parent.id, path: 'sub-b' });
    const find = async (search: string) => {
      const res = await api('GET', `/groups/${parent.id}/subgroups`, { token: owner.token, query: { search } });
      expect(res.status, res.text).toBe(200);
      return res.body.map((g: any) => g.id);
    };
    expect(await find('_')).toEqual([a.id]);
    expect(await find('%')).toEqual([]);
    expect(await find('\\')).toEqual([]);
    const all = await api('GET', '/groups', { token: rootToken(), query: { search: '\\' } });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([]);
  });

  it('members: query= is literal', async () => {
    const project = await createProject(owner.token);
    const find = async (query: string) => {
      const res = await api('GET', `/projects/${project.id}/members/all`, { token: owner.token, query: { query } });
      expect(res.status, res.text).toBe(200);
      return res.body.map((m: any) => m.id);
    };
    // Test usernames look like user_abc123: `_` finds the owner, `%` and `\` find nobody.
    expect(await find('_')).toEqual([owner.id]);
    expect(await find('%')).toEqual([]);
    expect(await find('\\')).toEqual([]);
  });

  it('personal access tokens: search= is literal', async () => {
    const user = await createUser();
    await createToken(user.id, ['api'], { name: 'ci-bot' });
    await createToken(user.id, ['api'], { name: 'ci_bot' });
    const find = async (search: string) => {
      const res = await api('GET', '/personal_access_tokens', { token: user.token, query: { search } });
      expect(res.status, res.text).toBe(200);
      return res.body.map((t: any) => t.name).sort();
    };
    expect(await find('ci_bot')).toEqual(['ci_bot']);
    expect(await find('CI-')).toEqual(['ci-bot']);
    expect(await find('%')).toEqual([]);
    expect(await find('\\')).toEqual([]);
  });
});

describe('[PATHS] usernames and emails match exactly (case-insensitively)', () => {
  it('GET /users?username=ro_t does not find root, ROOT does', async () => {
    for (const token of [undefined, rootToken()]) {
      const miss = await api('GET', '/users', { token, query: { username: 'ro_t' } });
      expect(miss.status).toBe(200);
      expect(miss.body).toEqual([]);
      const hit = await api('GET', '/users', { token, query: { username: 'ROOT' } });
      expect(hit.body.map((u: any) => u.username)).toEqual(['root']);
    }
    const trailing = await api('GET', '/users', { token: rootToken(), query: { username: 'root\\' } });
    expect(trailing.status).toBe(200);
    expect(trailing.body).toEqual([]);
  });

  it('GET /users?search= takes `%`, `_` and `\\` literally', async () => {
    const pct = uniq('pct').replace(/-/g, '');
    const made = await api('POST', '/users', {
      token: rootToken(),
      json: { username: pct, email: `${pct}@example.com`, name: `Save 100% ${pct}`, password: TEST_PASSWORD, skip_confirmation: true },
    });
    expect(made.status, made.text).toBe(201);
    const find = async (search: string) => {
      const res = await api('GET', '/users', { token: rootToken(), query: { search, per_page: 100 } });
      expect(res.status, res.text).toBe(200);
      return res.body.map((u: any) => u.username);
    };
    expect(await find('ro_t')).toEqual([]);
    expect(await find(`0% ${pct}`)).toEqual([pct]);
    expect(await find(`0_ ${pct}`)).toEqual([]);
    expect(await find('\\')).toEqual([]);
    // An exact email (an admin's search) still finds its user, in any case.
    expect(await find(`${pct}@EXAMPLE.com`)).toEqual([pct]);
  });

  it('Sudo with ro_t is refused; with ROOT it acts as root', async () => {
    const admin = await createUser({ admin: true });
    const sudoToken = await createToken(admin.id, ['api', 'sudo']);
    const miss = await api('GET', '/user', { token: sudoToken, headers: { Sudo: 'ro_t' } });
    expect(miss.status).toBe(404);
    expect(miss.body).toEqual({ message: "404 User with ID or username 'ro_t' Not Found" });
    const trailing = await api('GET', '/user', { token: sudoToken, headers: { Sudo: 'root\\' } });
    expect(trailing.status).toBe(404);
    const hit = await api('GET', '/user', { token: sudoToken, headers: { Sudo: 'ROOT' } });
    expect(hit.status).toBe(200);
    expect(hit.body.username).toBe('root');
  });

  it('sign-in with ro_t fails; with ROOT it succeeds', async () => {
    await expect(signIn('ro_t', ROOT_PASSWORD)).rejects.toThrow(/sign-in failed/);
    await expect(signIn('root\\', ROOT_PASSWORD)).rejects.toThrow(/sign-in failed/);
    const session = await signIn('ROOT', ROOT_PASSWORD);
    expect(session.cookie).toMatch(/^next-auth\.session-token=/);
  });

  it('a username or email differing by `_` from a taken one is free; one differing by case is not', async () => {
    const base = uniq('taken').replace(/-/g, '');
    const create = (username: string, email: string) =>
      api('POST', '/users', { token: rootToken(), json: { username, email, name: username, password: TEST_PASSWORD, skip_confirmation: true } });
    expect((await create(`${base}ab`, `${base}ab@example.com`)).status).toBe(201);
    const underscored = await create(`${base}_b`, `${base}_b@example.com`);
    expect(underscored.status, underscored.text).toBe(201);
    const sameUpper = await create(`${base}AB`, `${base}x@example.com`);
    expect(sameUpper.status).toBe(409);
    expect(sameUpper.body).toEqual({ message: 'Username has already been taken' });
    const emailUpper = await create(`${base}y`, `${base}AB@EXAMPLE.COM`);
    expect(emailUpper.status).toBe(409);
    expect(emailUpper.body).toEqual({ message: 'Email has already been taken' });
    // Members are added by username exactly, too.
    const owner = await createUser();
    const project = await createProject(owner.token);
    const addByPattern = await api('POST', `/projects/${project.id}/members`, { token: owner.token, json: { username: `${base}a_`, access_level: 30 } });
    expect(addByPattern.status).toBe(404);
    const addByName = await api('POST', `/projects/${project.id}/members`, { token: owner.token, json: { username: `${base}_B`, access_level: 30 } });
    expect(addByName.status, addByName.text).toBe(201);
    expect(addByName.body.username).toBe(`${base}_b`);
  });
});
