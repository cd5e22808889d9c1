// Brute-force protection and rate limits on a server of their own: the sign-in lock (10 failures lock one
// address out for 10 minutes, 100 from all addresses lock the account), the sign-in throttle (10 POSTs per 60 s per IP) and the API throttles
// (here 5 per 10 s), with GitLab's 429 answer. Counters and locks live in PostgreSQL.
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, ROOT, runwayEnv, startServer, stopServer } from '../support/server';
import { attemptSignIn, earlyInWindow } from '../support/sign-in';

const PASSWORD = 'limits-test-password-1';
let database: TestDatabase;
let server: ChildProcess;
let base: string;
let rootToken: string;
let env: NodeJS.ProcessEnv;
let ipSeq = 0;
/** A fresh client address per use, so the per-IP sign-in throttle of one test never touches another. */
const newIp = () => `198.51.100.${++ipSeq}`;

async function call(path: string, init: RequestInit & { token?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.token) headers['PRIVATE-TOKEN'] = init.token;
  if (init.ip) headers['X-Forwarded-For'] = init.ip;
  const res = await fetch(`${base}/api/v4${path}`, { ...init, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function createUser(opts: { admin?: boolean; scopes?: string[] } = {}): Promise<{ id: number; username: string; token: string }> {
  const username = `limits_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await call('/users', {
    method: 'POST',
    token: rootToken,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      name: username,
      password: PASSWORD,
      admin: opts.admin ?? false,
      skip_confirmation: true,
    }),
  });
  expect(res.status, res.text).toBe(201);
  const id = JSON.parse(res.text).id as number;
  const tok = await call(`/users/${id}/personal_access_tokens`, {
    method: 'POST',
    token: rootToken,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'limits', scopes: opts.scopes ?? ['api'] }),
  });
  expect(tok.status, tok.text).toBe(201);
  return { id, username, token: JSON.parse(tok.text).token };
}

async function sqlQuery<T>(text: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.inspectUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const [port, dbPort] = [await freePort(), await freePort()];
  database = await freshDatabase(`runway_test_limits_${process.pid}`, dbPort);
  base = `http://127.0.0.1:${port}`;
  env = runwayEnv({
    ...database.env,
    RUNWAY_EXTERNAL_URL: base,
    // The test plays a reverse proxy on 127.0.0.1 so that clients come from many IPv4 and IPv6 networks
    // (X-Forwarded-For), which loopback alone cannot give; the sign-in throttle keeps its default (10/60).
    RUNWAY_TRUSTED_PROXIES: '127.0.0.1',
    RUNWAY_RATE_LIMIT_AUTHENTICATED_API: '5/10',
    RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API: '5/10',
    RUNWAY_THROTTLE_USER_ALLOWLIST: '1', // root sets up every test
  });
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api,sudo', '--name', 'limits'], env);
  expect(made.status, made.stderr).toBe(0);
  rootToken = made.stdout.trim();
  server = await startServer(port, env);
}, 300_000);

afterAll(async () => {
  if (server) await stopServer(server);
  await database?.drop();
});

describe('[LIMITS] sign-in lock: per address, and per account at a higher total', () => {
  // The throttle allows 10 sign-in POSTs a minute per IP and the lock counts an IPv6 /64 as one client: a
  // client that makes more than 10 attempts here takes a new address of its /64 for each.
  let nets = 0;
  const newNet = () => {
    const net = `2001:db8:${(++nets).toString(16)}:1`;
    let host = 0;
    return Object.assign(() => `${net}::${(++host).toString(16)}`, { client: `${net}::/64` });
  };
  const failuresOf = async (key: string, client: string) =>
    (
      await sqlQuery<{ failures: number; locked: boolean }>(
        'SELECT failures, locked_at IS NOT NULL AS locked FROM sign_in_failures WHERE key = $1 AND client = $2',
        [key, client],
      )
    )[0];
  const lockedFlag = async (id: number) => JSON.parse((await call(`/users/${id}`, { token: rootToken })).text).locked as boolean;

  it('locks one address out after its 10 failures while the owner signs in from elsewhere', async () => {
    const user = await createUser();
    const attacker = newNet();
    for (let i = 1; i <= 9; i++)
      expect((await attemptSignIn(base, user.username, `wrong-${i}`, { ip: attacker() })).error, `attempt ${i}`).toBe('CredentialsSignin');
    const tenth = await attemptSignIn(base, user.username, 'wrong-10', { ip: attacker() });
    expect(tenth.error).toBe('locked');
    expect(tenth.cookie).toBeNull();
    // From the attacker's network even the right password is refused...
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: attacker() })).error).toBe('locked');
    // ...while the owner, from another address, signs in: one address cannot hold the account locked.
    const owner = await attemptSignIn(base, user.username, PASSWORD, { ip: newIp() });
    expect(owner.error).toBeNull();
    expect(owner.cookie).toMatch(/^next-auth\.session-token=/);
    // The lock of one address refuses the user from there: admins see `locked: true` (issue 31), though the
    // account itself is not locked for everyone.
    expect(await lockedFlag(user.id)).toBe(true);
    // And when it ends (a Runway extension): the lock period after the address's lock, on the database's clock.
    const [{ ends }] = await sqlQuery<{ ends: Date }>(
      "SELECT max(locked_at) + interval '10 minutes' AS ends FROM sign_in_failures WHERE client = $1 AND locked_at IS NOT NULL",
      [attacker.client],
    );
    const shown = JSON.parse((await call(`/users/${user.id}`, { token: rootToken })).text).locked_until as string;
    expect(new Date(shown).getTime()).toBe(ends.getTime());

    // Ten minutes later (moved back in the database rather than waited for) the attacker's network may try again.
    await sqlQuery(
      "UPDATE sign_in_failures SET started_at = started_at - interval '20 minutes', locked_at = locked_at - interval '10 minutes 1 second' WHERE client = $1",
      [attacker.client],
    );
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: attacker() })).cookie).not.toBeNull();
    expect(await lockedFlag(user.id)).toBe(false);
    expect(JSON.parse((await call(`/users/${user.id}`, { token: rootToken })).text).locked_until).toBeNull();
  }, 90_000);

  it("locks the account for everyone at 100 failures from all addresses (GitLab's locked), and audits each lock", async () => {
    const user = await createUser();
    const answers: Array<string | null> = [];
    for (let c = 0; c < 10; c++) {
      const ip = newIp();
      for (let i = 0; i < 10; i++) answers.push((await attemptSignIn(base, user.username, `wrong-${c}-${i}`, { ip })).error);
    }
    // Each address's 10th failure locks that address; the 100th also locks the account.
    expect(answers.filter((a) => a === 'locked')).toHaveLength(10);
    expect(answers[99]).toBe('locked');
    const right = await attemptSignIn(base, user.username, PASSWORD, { ip: newIp() });
    expect(right.error).toBe('locked');
    expect(right.cookie).toBeNull();
    expect((await attemptSignIn(base, `${user.username}@example.com`, PASSWORD, { ip: newIp() })).error).toBe('locked');
    expect(await lockedFlag(user.id)).toBe(true);
    // Attempts the lock refused were not counted.
    expect(await failuresOf(`user:${user.id}`, '')).toEqual({ failures: 100, locked: true });

    const events = JSON.parse((await call(`/audit_events?entity_type=User&entity_id=${user.id}&per_page=100`, { token: rootToken })).text);
    const locks = events.filter((e: { event_name: string }) => e.event_name === 'user_access_locked');
    expect(locks).toHaveLength(11);
    const messages = locks.map((e: { details: { custom_message: string } }) => e.details.custom_message);
    expect(messages.filter((m: string) => m === 'User access locked - excessive failed login attempts')).toHaveLength(1);
    expect(messages.filter((m: string) => m === 'User access locked - excessive failed login attempts from one address')).toHaveLength(10);

    // Ten minutes later the right password works again and clears the account's count.
    await sqlQuery("UPDATE users SET locked_at = locked_at - interval '10 minutes 1 second' WHERE id = $1", [user.id]);
    // The ten addresses' own locks still refuse the user from there (admins see them) until they end too.
    expect(await lockedFlag(user.id)).toBe(true);
    await sqlQuery(
      "UPDATE sign_in_failures SET locked_at = locked_at - interval '10 minutes 1 second' WHERE client <> '' AND key = $1 AND locked_at IS NOT NULL",
      [createHash('sha256').update(`login:${user.username.toLowerCase()}`).digest('hex')],
    );
    expect(await lockedFlag(user.id)).toBe(false);
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: newIp() })).cookie).not.toBeNull();
    expect(await failuresOf(`user:${user.id}`, '')).toBeUndefined();
  }, 120_000);

  it('answers a username that does not exist exactly as one that does', async () => {
    const user = await createUser();
    const nobody = `nobody_${Date.now().toString(36)}`;
    const [knownNet, unknownNet] = [newNet(), newNet()];
    const known: Array<string | null> = [];
    const unknown: Array<string | null> = [];
    for (let i = 1; i <= 11; i++) {
      known.push((await attemptSignIn(base, user.username, `wrong-${i}`, { ip: knownNet() })).error);
      unknown.push((await attemptSignIn(base, nobody, `wrong-${i}`, { ip: unknownNet() })).error);
    }
    expect(known).toEqual([...Array(9).fill('CredentialsSignin'), 'locked', 'locked']);
    expect(unknown).toEqual(known);
  }, 90_000);

  it('counts parallel failures from one client exactly, and never more than 10 of them on the account', async () => {
    const user = await createUser();
    const attacker = newNet();
    // 30 at once from one /64 (30 addresses, so the per-IP throttle lets them all through).
    const attempts = await Promise.all(Array.from({ length: 30 }, (_, i) => attemptSignIn(base, user.username, `wrong-${i}`, { ip: attacker() })));
    expect(attempts.filter((a) => a.error === 'CredentialsSignin')).toHaveLength(9);
    expect(attempts.filter((a) => a.error === 'locked')).toHaveLength(21);
    expect(await failuresOf(`user:${user.id}`, '')).toEqual({ failures: 10, locked: false });
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: newIp() })).cookie).not.toBeNull();
  }, 90_000);

  it("starts an address's count again after its successful sign-in", async () => {
    const user = await createUser();
    const client = newNet();
    for (let i = 1; i <= 9; i++) await attemptSignIn(base, user.username, `wrong-${i}`, { ip: client() });
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: client() })).cookie).not.toBeNull();
    for (let i = 1; i <= 9; i++) {
      expect((await attemptSignIn(base, user.username, `again-${i}`, { ip: client() })).error).toBe('CredentialsSignin');
    }
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: client() })).cookie).not.toBeNull();
  }, 90_000);

  // On the embedded database the CLI works through the running server's socket.
  it('lifts the locks when an admin resets the password (runway reset-password)', async () => {
    const user = await createUser();
    const client = newNet();
    for (let i = 1; i <= 10; i++) await attemptSignIn(base, user.username, `wrong-${i}`, { ip: client() });
    await sqlQuery('UPDATE users SET locked_at = now() WHERE id = $1', [user.id]);
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip: newIp() })).error).toBe('locked');
    // Asynchronously: a blocking spawnSync would leave this process's kept-alive sockets to be closed unseen.
    const args = ['reset-password', '--username', user.username, '--password', 'limits-new-password-2'];
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), ...args], { env, cwd: ROOT });
    expect((await attemptSignIn(base, user.username, 'limits-new-password-2', { ip: client() })).cookie).not.toBeNull();
  }, 90_000);
});

describe('[LIMITS] sign-in throttle per IP', () => {
  it('answers the 11th sign-in POST within a minute from one IP with 429 "Retry later"; other IPs go on', async () => {
    const user = await createUser();
    const ip = newIp();
    await earlyInWindow(60, 20);
    // Successful sign-ins count too (GitLab throttles every POST to a protected path).
    expect((await attemptSignIn(base, user.username, PASSWORD, { ip })).cookie).not.toBeNull();
    for (let i = 2; i <= 10; i++) {
      expect((await attemptSignIn(base, 'nobody-at-all', 'wrong', { ip })).status, `attempt ${i}`).not.toBe(429);
    }
    // The form's JSON protocol: next-auth's client reads the error code from the URL.
    const json = await attemptSignIn(base, user.username, PASSWORD, { ip });
    expect(json.status).toBe(429);
    // The code carries Retry-After's seconds, so the form can say when to retry.
    expect(json.error).toBe(`RateLimited:${json.headers.get('retry-after')}`);
    expect(json.cookie).toBeNull();
    // A plain form post: GitLab's text.
    const plain = await attemptSignIn(base, user.username, PASSWORD, { ip, json: false });
    expect(plain.status).toBe(429);
    expect(plain.text).toBe('Retry later\n');
    expect(plain.headers.get('content-type')).toBe('text/plain');
    expect(plain.headers.get('ratelimit-name')).toBe('throttle_unauthenticated_protected_paths');
    expect(plain.headers.get('ratelimit-limit')).toBe('10');
    expect(plain.headers.get('ratelimit-observed')).toBe('12');
    expect(plain.headers.get('ratelimit-remaining')).toBe('0');
    const retryAfter = Number(plain.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another address signs in as usual; throttled attempts never reached the password check.
    const other = await attemptSignIn(base, user.username, PASSWORD, { ip: newIp() });
    expect(other.cookie).not.toBeNull();
    expect(await sqlQuery('SELECT 1 FROM sign_in_failures WHERE key = $1', [`user:${user.id}`])).toEqual([]);
    // Reading the CSRF token or the session is not a sign-in attempt.
    const get = await fetch(`${base}/api/auth/session`, { headers: { 'X-Forwarded-For': ip } });
    expect(get.status).toBe(200);
  }, 90_000);

  it('takes the address the trusted proxy saw, not hops the client sent before it', async () => {
    // The tests connect from 127.0.0.1, a trusted proxy (RUNWAY_TRUSTED_PROXIES); a spoofed hop before the
    // proxy's own is ignored.
    const ip = newIp();
    await earlyInWindow(60, 20);
    for (let i = 1; i <= 10; i++) await attemptSignIn(base, 'nobody-at-all', 'wrong', { ip: `10.9.9.${i}, ${ip}` });
    expect((await attemptSignIn(base, 'nobody-at-all', 'wrong', { ip: `10.9.9.99, ${ip}` })).status).toBe(429);
  }, 90_000);
});

describe('[LIMITS] API rate limits', () => {
  it('limits authenticated requests per user: 429 "Retry later" with RateLimit headers; other users go on; the window ends', async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    await earlyInWindow(10, 6);
    for (let i = 1; i <= 5; i++) expect((await call('/user', { token: alice.token })).status, `request ${i}`).toBe(200);
    const limited = await call('/user', { token: alice.token });
    expect(limited.status).toBe(429);
    expect(limited.text).toBe('Retry later\n');
    expect(limited.headers.get('content-type')).toBe('text/plain');
    expect(limited.headers.get('ratelimit-name')).toBe('throttle_authenticated_api');
    expect(limited.headers.get('ratelimit-limit')).toBe('30'); // 5 per 10 s, expressed per minute
    expect(limited.headers.get('ratelimit-observed')).toBe('6');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    const reset = Number(limited.headers.get('ratelimit-reset'));
    expect(Math.abs(reset - (Date.now() / 1000 + retryAfter))).toBeLessThan(3);
    expect(limited.headers.get('ratelimit-resettime')).toBe(new Date(reset * 1000).toUTCString());
    // A write is refused the same way, and another user is not affected.
    expect((await call('/user/personal_access_tokens', { method: 'POST', token: alice.token })).status).toBe(429);
    expect((await call('/user', { token: bob.token })).status).toBe(200);

    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 300));
    expect((await call('/user', { token: alice.token })).status).toBe(200);
  }, 60_000);

  it('counts a Sudo request against the admin who sent it, and never an allowlisted user', async () => {
    const [admin, carol] = [await createUser({ admin: true, scopes: ['api', 'sudo'] }), await createUser()];
    await earlyInWindow(10, 6);
    for (let i = 1; i <= 6; i++) await call('/user', { token: admin.token, headers: { Sudo: carol.username } });
    expect((await call('/user', { token: admin.token })).status).toBe(429);
    expect((await call('/user', { token: carol.token })).status).toBe(200);
    // root (id 1) is in RUNWAY_THROTTLE_USER_ALLOWLIST.
    for (let i = 1; i <= 7; i++) expect((await call('/user', { token: rootToken })).status).toBe(200);
  }, 60_000);

  it('limits unauthenticated requests per IP, before the 401', async () => {
    const [ip, other] = [newIp(), newIp()];
    await earlyInWindow(10, 6);
    for (let i = 1; i <= 5; i++) expect((await call('/user', { ip })).status, `request ${i}`).toBe(401);
    const limited = await call('/user', { ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-name')).toBe('throttle_unauthenticated_api');
    expect(limited.text).toBe('Retry later\n');
    expect((await call('/user', { ip: other })).status).toBe(401);
    // The runner agent's API (runner tokens) is counted by neither throttle, as in GitLab.
    const verify = await call('/runners/verify', {
      method: 'POST',
      ip,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'glrt-not-a-runner-token' }),
    });
    expect(verify.status).toBe(403);
  }, 60_000);

  it("does not count the dashboard's session requests (GitLab's frontend requests)", async () => {
    const dave = await createUser();
    const session = await attemptSignIn(base, dave.username, PASSWORD, { ip: newIp() });
    expect(session.cookie).not.toBeNull();
    for (let i = 1; i <= 7; i++) {
      const res = await call('/user', { headers: { Cookie: session.cookie! } });
      expect(res.status, `request ${i}`).toBe(200);
    }
  }, 60_000);
});
