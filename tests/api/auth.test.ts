import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, url } from '../support/api';
import { attemptSignIn } from '../support/sign-in';
import { blockUser, createExpiredToken, createToken, createUser, TEST_PASSWORD } from '../support/users';

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('[AUTH] authentication forms', () => {
  it('accepts a token in PRIVATE-TOKEN, Authorization: Bearer, private_token and access_token', async () => {
    const user = await createUser();
    const forms: Array<[string, RequestInit, string]> = [
      ['PRIVATE-TOKEN', { headers: { 'PRIVATE-TOKEN': user.token } }, url('/user')],
      ['Bearer', { headers: { Authorization: `Bearer ${user.token}` } }, url('/user')],
      ['private_token', {}, url('/user', { private_token: user.token })],
      ['access_token', {}, url('/user', { access_token: user.token })],
    ];
    for (const [name, init, target] of forms) {
      const res = await fetch(target, init);
      expect(res.status, name).toBe(200);
      expect((await res.json()).id, name).toBe(user.id);
    }
  });

  it('accepts private_token in a form body', async () => {
    const user = await createUser();
    const res = await api('POST', '/user/personal_access_tokens', { form: { private_token: user.token, name: 'k8s', scopes: 'k8s_proxy' } });
    expect(res.status).toBe(201);
    expect(res.body.user_id).toBe(user.id);
  });
});

describe('[AUTH] token failures', () => {
  it('answers an unknown token with 401 "401 Unauthorized"', async () => {
    const res = await api('GET', '/user', { token: 'glpat-not-a-real-token-xx' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('answers an expired token with 401 invalid_token and a WWW-Authenticate header', async () => {
    const user = await createUser();
    const expired = await createExpiredToken(user.id, ['api'], isoDay(-1));
    const res = await api('GET', '/user', { token: expired });
    expect(res.status).toBe(401);
    const description = 'Token is expired. You can either do re-authorization or token refresh.';
    expect(res.body).toEqual({ error: 'invalid_token', error_description: description });
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="GitLab API", error="invalid_token", error_description="${description}"`);
    // Expiring today counts as expired too.
    const today = await createExpiredToken(user.id, ['api'], isoDay(0));
    expect((await api('GET', '/user', { token: today })).status).toBe(401);
  });

  it('answers a revoked token with 401 invalid_token', async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['api']);
    expect((await api('DELETE', '/personal_access_tokens/self', { token })).status).toBe(204);
    const res = await api('GET', '/user', { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers a token without an accepted scope with 403 insufficient_scope and the scope list', async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['read_repository']);
    const res = await api('GET', '/users', { token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'read_user api read_api',
    });
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    const write = await api('POST', '/user/personal_access_tokens', { token, json: { name: 'x', scopes: ['k8s_proxy'] } });
    expect(write.status).toBe(403);
    // GitLab lists every scope registered for the endpoint whatever the method: the Users API class's
    // read_user (a GET-only scope) and API::API's api and read_api, even on this write.
    expect(write.body.scope).toBe('read_user api read_api');
  });

  it('lets read_api read but not write', async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['read_api']);
    expect((await api('GET', '/user', { token })).status).toBe(200);
    expect((await api('GET', '/personal_access_tokens', { token })).status).toBe(200);
    const write = await api('POST', '/user/personal_access_tokens', { token, json: { name: 'x', scopes: ['k8s_proxy'] } });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('insufficient_scope');
  });

  it('accepts read_user on GET /user and /users only', async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['read_user']);
    expect((await api('GET', '/user', { token })).status).toBe(200);
    expect((await api('GET', '/users', { token })).status).toBe(200);
    expect((await api('GET', `/users/${user.id}`, { token })).status).toBe(200);
    const tokens = await api('GET', '/personal_access_tokens', { token });
    expect(tokens.status).toBe(403);
    expect(tokens.body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
    const write = await api('POST', '/users', { token, json: {} });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('insufficient_scope');
  });

  it('answers a blocked user\'s token with 403 "Your account has been blocked."', async () => {
    const user = await createUser();
    await blockUser(user.id);
    for (const path of ['/user', '/users', '/personal_access_tokens/self']) {
      const res = await api('GET', path, { token: user.token });
      expect(res.status, path).toBe(403);
      expect(res.body, path).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    }
  });
});

describe('[AUTH] sudo', () => {
  it('lets an admin token with the sudo scope act as another user (header or parameter, id or username)', async () => {
    const user = await createUser();
    const byHeader = await api('GET', '/user', { token: rootToken(), headers: { Sudo: user.username } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.id).toBe(user.id);
    expect(byHeader.body).not.toHaveProperty('is_admin');
    const byParam = await api('GET', '/user', { token: rootToken(), query: { sudo: user.id } });
    expect(byParam.body.id).toBe(user.id);
  });

  it('refuses sudo without the sudo scope, from non-admins, and for unknown users', async () => {
    const user = await createUser();
    const admin = await createUser({ admin: true });
    const noScope = await api('GET', '/user', { token: admin.token, headers: { Sudo: user.username } });
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' });
    const nonAdmin = await api('GET', '/user', { token: user.token, headers: { Sudo: 'root' } });
    expect(nonAdmin.status).toBe(403);
    expect(nonAdmin.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    const unknown = await api('GET', '/user', { token: rootToken(), headers: { Sudo: 'no_such_user_here' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "404 User with ID or username 'no_such_user_here' Not Found" });
  });
});

describe('[AUTH] where a sign-in returns (callbackUrl)', () => {
  // Every spelling of a path that leaves the site, as the sign-in form or a plain form post sends it.
  const HOSTILE = [
    '/.//evil.example',
    '/..//evil.example',
    '/admin/..//evil.example',
    '/%2e%2e//evil.example',
    '//evil.example',
    '/\\evil.example',
    '/%2F/evil.example',
    '/%5Cevil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
  ];
  let user: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    user = await createUser();
  });

  it('returns to a path on this site, in the JSON answer and in the redirect', async () => {
    const back = '/admin/runners?type=instance_type';
    const json = await attemptSignIn(baseUrl(), user.username, TEST_PASSWORD, { callbackUrl: back });
    expect(json.cookie).not.toBeNull();
    expect(json.url).toBe(`${baseUrl()}${back}`);
    const plain = await attemptSignIn(baseUrl(), user.username, TEST_PASSWORD, { callbackUrl: back, json: false });
    expect(plain.status).toBe(302);
    expect(plain.url).toBe(`${baseUrl()}${back}`);
  });

  it.each([...HOSTILE, 'SITE//evil.example', 'SITE/.//evil.example'])('lands on the site root after a good sign-in with callbackUrl=%j', async (value) => {
    const callbackUrl = value.replace(/^SITE/, baseUrl());
    for (const json of [true, false]) {
      const attempt = await attemptSignIn(baseUrl(), user.username, TEST_PASSWORD, { callbackUrl, json });
      expect(attempt.cookie, `json=${json}`).not.toBeNull();
      expect(attempt.url, `json=${json}`).toBe(`${baseUrl()}/`);
      // Followed as a browser would: the same origin, and a path no browser reads as a host.
      const landing = new URL(attempt.url!, baseUrl());
      expect(landing.origin).toBe(new URL(baseUrl()).origin);
      expect(landing.pathname).toBe('/');
    }
  });
});

describe("[AUTH] next-auth's endpoints answer bad input with a JSON 4xx", () => {
  const auth = (path: string, init: RequestInit = {}) => fetch(`${baseUrl()}/api/auth/${path}`, { redirect: 'manual', ...init });
  const json = (body: string) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  it.each<[string, string, RequestInit, number, string]>([
    ['a callbackUrl that is not a URL', 'session?callbackUrl=abc', {}, 400, '400 Bad request - callbackUrl is invalid'],
    ['a callbackUrl that is not http(s)', 'signin?callbackUrl=javascript%3Aalert(1)', {}, 400, '400 Bad request - callbackUrl is invalid'],
    [
      'a callback-url cookie that is not a URL',
      'csrf',
      { headers: { Cookie: 'next-auth.callback-url=%3A%3A' } },
      400,
      '400 Bad request - the callback-url cookie is invalid',
    ],
    ['a body that is not JSON', 'callback/credentials', json('{'), 400, '400 Bad request - the body is not valid JSON'],
    ['a JSON body that is not an object', 'signout', json('[1,2]'), 400, '400 Bad request - the body must be a JSON object'],
    ['a JSON callbackUrl that is an object', 'callback/credentials', json('{"callbackUrl":{"a":1}}'), 400, '400 Bad request - callbackUrl is invalid'],
    ['GET on the credentials callback', 'callback/credentials', {}, 405, '405 Method Not Allowed'],
    ['PUT', 'session', { method: 'PUT' }, 405, '405 Method Not Allowed'],
    ['DELETE', 'signout', { method: 'DELETE' }, 405, '405 Method Not Allowed'],
    ['a line break to copy into a redirect', 'error?error=x%0d%0aSet-Cookie:%20a=1', {}, 400, '400 Bad request - error is invalid'],
    ['an action next-auth does not have', 'nothing-here', {}, 400, '400 Bad request'],
    ['POST on the CSRF endpoint', 'csrf', { method: 'POST' }, 400, '400 Bad request'],
    ['a session update without a CSRF token', 'session', { method: 'POST' }, 400, '400 Bad request'],
  ])('refuses %s', async (_name, path, init, status, message) => {
    const res = await auth(path, init);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ message });
  });

  it('clears a callback-url cookie it refuses, so the browser can sign in again', async () => {
    const res = await auth('csrf', { headers: { Cookie: 'next-auth.callback-url=not-a-url' } });
    expect(res.headers.getSetCookie().some((c) => /^next-auth\.callback-url=;.*Max-Age=0/.test(c))).toBe(true);
  });

  it('accepts credentials posted as a JSON object, as the form posts them', async () => {
    const user = await createUser();
    const csrf = await auth('csrf');
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const res = await auth('callback/credentials', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ csrfToken, username: user.username, password: TEST_PASSWORD, json: true }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: `${baseUrl()}/` });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('next-auth.session-token='))).toBe(true);
  });
});
