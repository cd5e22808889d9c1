// Users and tokens for API tests, made through the API with the root token (POST /users and
// POST /users/:id/personal_access_tokens), so every test exercises the real endpoints.
import { api, rootToken, uniq } from './api';

export interface TestUser {
  id: number;
  username: string;
  /** A personal access token with scope `api`. */
  token: string;
}

export const TEST_PASSWORD = 'runway-test-password-1';

export async function createUser(opts: { admin?: boolean; username?: string } = {}): Promise<TestUser> {
  const username = opts.username ?? uniq('user').replace(/-/g, '_');
  const res = await api('POST', '/users', {
    token: rootToken(),
    json: {
      username,
      email: `${username.toLowerCase()}@example.com`,
      name: `Test ${username}`,
      password: TEST_PASSWORD,
      admin: opts.admin ?? false,
      skip_confirmation: true,
    },
  });
  if (res.status !== 201) throw new Error(`POST /users failed: ${res.status} ${res.text}`);
  const token = await createToken(res.body.id, ['api']);
  return { id: res.body.id, username: res.body.username, token };
}

export async function createToken(
  userId: number,
  scopes: string[],
  opts: { name?: string; expiresAt?: string } = {},
): Promise<string> {
  const res = await api('POST', `/users/${userId}/personal_access_tokens`, {
    token: rootToken(),
    json: { name: opts.name ?? uniq('token'), scopes, ...(opts.expiresAt ? { expires_at: opts.expiresAt } : {}) },
  });
  if (res.status !== 201) throw new Error(`POST /users/${userId}/personal_access_tokens failed: ${res.status} ${res.text}`);
  return res.body.token;
}

/** Blocks a user through the admin API. */
export async function blockUser(userId: number): Promise<void> {
  const res = await api('POST', `/users/${userId}/block`, { token: rootToken() });
  if (res.status !== 201) throw new Error(`block failed: ${res.status} ${res.text}`);
}

export interface TestSession {
  /** The Cookie header value carrying the next-auth session. */
  cookie: string;
  /** The session's X-CSRF-Token for writes. */
  csrf: string;
}

/** Signs in through next-auth's real credentials flow (on the test server, or `server`) and returns the session cookie and CSRF token. */
export async function signIn(login: string, password: string, server?: string): Promise<TestSession> {
  const { baseUrl } = await import('./api');
  const { AUTH_SECRET } = await import('./server');
  const { decode } = await import('next-auth/jwt');
  const { createHmac } = await import('node:crypto');
  const base = server ?? baseUrl();
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = csrfRes.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, username: login, password, json: 'true' }).toString(),
  });
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`sign-in failed for ${login}: ${res.status}`);
  const jwt = await decode({ token: decodeURIComponent(session.split('=').slice(1).join('=')), secret: AUTH_SECRET });
  const csrf = createHmac('sha256', AUTH_SECRET).update(`csrf:${String(jwt?.sid)}`).digest('base64url');
  return { cookie: session, csrf };
}
