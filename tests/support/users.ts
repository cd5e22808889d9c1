// Users and tokens for API tests, made through the API with the root token (POST /users and
// POST /users/:id/personal_access_tokens), so every test exercises the real endpoints.
import { api, rootToken, uniq } from './api';
import { fetchFrom, freshLoopbackAddress } from './loopback-fetch';

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

export async function createToken(userId: number, scopes: string[], opts: { name?: string; expiresAt?: string } = {}): Promise<string> {
  const res = await api('POST', `/users/${userId}/personal_access_tokens`, {
    token: rootToken(),
    json: { name: opts.name ?? uniq('token'), scopes, ...(opts.expiresAt ? { expires_at: opts.expiresAt } : {}) },
  });
  if (res.status !== 201) throw new Error(`POST /users/${userId}/personal_access_tokens failed: ${res.status} ${res.text}`);
  return res.body.token;
}

/**
 * A token that expired on `expiresAt` (today or earlier). The API refuses such dates, as it should, so the
 * token is made valid and its expiry moved back in the database: only tests of expired tokens need this.
 */
export async function createExpiredToken(userId: number, scopes: string[], expiresAt: string): Promise<string> {
  const name = uniq('expired');
  const token = await createToken(userId, scopes, { name });
  const { default: pg } = await import('pg');
  const { inject } = await import('vitest');
  const client = new pg.Client({ connectionString: inject('inspectUrl') });
  await client.connect();
  try {
    const res = await client.query('UPDATE personal_access_tokens SET expires_at = $1 WHERE user_id = $2 AND name = $3', [expiresAt, userId, name]);
    if (res.rowCount !== 1) throw new Error(`could not expire token ${name}`);
  } finally {
    await client.end();
  }
  return token;
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
  /** The loopback address the sign-in came from (the session's ip_address). */
  ip: string;
}

const cookiePairs = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]);

/**
 * Signs in through next-auth's real credentials flow (on `base`, the test server unless given) and returns
 * the session cookie and the CSRF token the dashboard publishes for it. Each sign-in connects from its own
 * loopback address (`ip`, which the session records): see freshLoopbackAddress.
 */
export async function signIn(login: string, password: string, base?: string): Promise<TestSession> {
  const origin = base ?? (await import('./api')).baseUrl();
  const ip = freshLoopbackAddress();
  const csrfRes = await fetchFrom(ip, `${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetchFrom(ip, `${origin}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookiePairs(csrfRes).join('; ') },
    body: new URLSearchParams({ csrfToken, username: login, password, json: 'true' }).toString(),
  });
  const session = cookiePairs(res).find((c) => c.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`sign-in failed for ${login}: ${res.status}`);
  return { cookie: session, csrf: await publishedCsrfToken(origin, session), ip };
}

/** The `csrf-token` meta tag of a dashboard page, as scripts read it from GitLab's pages. */
async function publishedCsrfToken(origin: string, cookie: string): Promise<string> {
  const page = await fetch(`${origin}/-/user_settings/active_sessions`, { headers: { Cookie: cookie }, redirect: 'manual' });
  const html = await page.text();
  const match = /<meta name="csrf-token" content="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no csrf-token on the dashboard page (${page.status})`);
  return match[1];
}

/** Signs out through next-auth's sign-out endpoint, as the dashboard's Sign out button does. */
export async function signOut(session: TestSession, base?: string): Promise<void> {
  const origin = base ?? (await import('./api')).baseUrl();
  const csrfRes = await fetch(`${origin}/api/auth/csrf`, { headers: { Cookie: session.cookie } });
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${origin}/api/auth/signout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: [session.cookie, ...cookiePairs(csrfRes)].join('; ') },
    body: new URLSearchParams({ csrfToken, json: 'true' }).toString(),
  });
  if (res.status !== 200) throw new Error(`sign-out failed: ${res.status}`);
}
