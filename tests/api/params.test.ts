import { describe, expect, it } from 'vitest';
import { api, rootToken, uniq, url } from '../support/api';
import { createUser, TEST_PASSWORD } from '../support/users';

const userFields = () => {
  const username = uniq('prm');
  return { username, email: `${username}@example.com`, name: username, password: TEST_PASSWORD };
};

async function raw(method: string, path: string, body: BodyInit | null, contentType?: string) {
  const headers: Record<string, string> = { 'PRIVATE-TOKEN': rootToken() };
  if (contentType) headers['Content-Type'] = contentType;
  const res = await fetch(url(path), { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('[PLATFORM] parameter coercion', () => {
  it('coerces booleans: true/false/True/False/1/0', async () => {
    const cases: Array<[string, boolean]> = [
      ['true', true],
      ['false', false],
      ['True', true],
      ['False', false],
      ['1', true],
      ['0', false],
    ];
    for (const [sent, expected] of cases) {
      const res = await api('POST', '/users', { token: rootToken(), form: { ...userFields(), admin: sent } });
      expect(res.status, sent).toBe(201);
      expect(res.body.is_admin, sent).toBe(expected);
    }
    const json = await api('POST', '/users', { token: rootToken(), json: { ...userFields(), admin: true, can_create_group: false } });
    expect(json.body).toMatchObject({ is_admin: true, can_create_group: false });
    const bad = await api('POST', '/users', { token: rootToken(), form: { ...userFields(), admin: 'perhaps' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'admin is invalid' });
  });

  it('coerces integers sent as strings and rejects non-integers', async () => {
    const ok = await api('POST', '/users', { token: rootToken(), form: { ...userFields(), projects_limit: '12' } });
    expect(ok.body.projects_limit).toBe(12);
    const json = await api('POST', '/users', { token: rootToken(), json: { ...userFields(), projects_limit: '13' } });
    expect(json.body.projects_limit).toBe(13);
    const bad = await api('POST', '/users', { token: rootToken(), json: { ...userFields(), projects_limit: '1.5' } });
    expect(bad.body).toEqual({ error: 'projects_limit is invalid' });
  });

  it('takes arrays as "a,b", a[]=x&a[]=y, and JSON arrays', async () => {
    const user = await createUser();
    const path = `/users/${user.id}/personal_access_tokens`;
    const variants = [
      await api('POST', path, { token: rootToken(), form: { name: 'csv', scopes: 'read_api, read_user' } }),
      await api('POST', path, { token: rootToken(), form: { name: 'brackets', scopes: ['read_api', 'read_user'] } }),
      await api('POST', path, { token: rootToken(), json: { name: 'json', scopes: ['read_api', 'read_user'] } }),
      await api('POST', path, { token: rootToken(), json: { name: 'json-csv', scopes: 'read_api,read_user' } }),
      await api('POST', path, { token: rootToken(), query: { name: 'query', scopes: ['read_api', 'read_user'] } }),
    ];
    for (const res of variants) {
      expect(res.status, res.text).toBe(201);
      expect(res.body.scopes).toEqual(['read_api', 'read_user']);
    }
  });

  it('treats a JSON body of null, and an empty body, as no parameters', async () => {
    const user = await createUser();
    const expected = { error: 'name is missing, scopes is missing, scopes does not have a valid value' };
    const nullBody = await raw('POST', `/users/${user.id}/personal_access_tokens`, 'null', 'application/json');
    expect(nullBody.status).toBe(400);
    expect(nullBody.body).toEqual(expected);
    const empty = await raw('POST', `/users/${user.id}/personal_access_tokens`, '', 'application/json');
    expect(empty.body).toEqual(expected);
    const none = await raw('POST', `/users/${user.id}/personal_access_tokens`, null);
    expect(none.body).toEqual(expected);
    const broken = await raw('POST', `/users/${user.id}/personal_access_tokens`, '{"name":', 'application/json');
    expect(broken.status).toBe(400);
  });

  it('reads urlencoded and multipart bodies', async () => {
    const fields = userFields();
    const form = new URLSearchParams({ ...fields, bio: 'from a form' });
    const urlencoded = await raw('POST', '/users', form.toString(), 'application/x-www-form-urlencoded');
    expect(urlencoded.status).toBe(201);
    expect(urlencoded.body.bio).toBe('from a form');
    const multipart = new FormData();
    for (const [k, v] of Object.entries({ ...userFields(), bio: 'from multipart', admin: 'true' })) multipart.append(k, v);
    const res = await raw('POST', '/users', multipart);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ bio: 'from multipart', is_admin: true });
  });

  it('ignores unknown parameters', async () => {
    const res = await api('POST', '/users', { token: rootToken(), json: { ...userFields(), id: 1, favourite_colour: 'teal', state: 'blocked' } });
    expect(res.status).toBe(201);
    expect(res.body.state).toBe('active');
    expect(res.body).not.toHaveProperty('favourite_colour');
  });

  it('lets the query string and the body both carry parameters', async () => {
    const { username, ...rest } = userFields();
    const res = await api('POST', '/users', { token: rootToken(), query: { username }, json: rest });
    expect(res.status).toBe(201);
    expect(res.body.username).toBe(username);
  });
});
