// [LIMITS] The client IP is decided once, in the http wrapper, from the socket and the X-Forwarded-For hops
// of proxies on RUNWAY_TRUSTED_PROXIES only, and it is always an IP address. One server of its own trusts its
// loopback peer (the test plays the reverse proxy); another keeps the default, which trusts no proxy.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { ownServer, type OwnServer } from '../support/own-server';
import { freePort, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { attemptSignIn, earlyInWindow } from '../support/sign-in';
import { TEST_PASSWORD } from '../support/users';
import { systemId } from './runners-registration-support';

/** The address GET /user/sessions shows for the session a sign-in with this X-Forwarded-For made. */
async function sessionIp(base: string, username: string, password: string, forwarded: string): Promise<string | null> {
  const attempt = await attemptSignIn(base, username, password, { ip: forwarded });
  expect(attempt.cookie, forwarded).not.toBeNull();
  const res = await fetch(`${base}/api/v4/user/sessions`, { headers: { Cookie: attempt.cookie! } });
  const sessions = (await res.json()) as { current: boolean; ip_address: string | null }[];
  return sessions.find((s) => s.current)!.ip_address;
}

// What a trusted proxy on 127.0.0.1 forwards, and the client IP Runway must take from it.
const FORWARDED: [string, string][] = [
  ['203.0.113.9', '203.0.113.9'],
  // A hop the client wrote before the proxy's own is not believed.
  ['198.51.100.1, 203.0.113.9', '203.0.113.9'],
  // IPv4-mapped IPv6 is the IPv4 address; IPv6 is written in its canonical form.
  ['::ffff:203.0.113.10', '203.0.113.10'],
  ['2001:DB8:0:0::1', '2001:db8::1'],
  // Not an address: the walk stops there and takes the trusted proxy's own address.
  ['<script>alert(1)</script>', '127.0.0.1'],
  ['203.0.113.9, not-an-ip', '127.0.0.1'],
  ['203.0.113.9:4711', '127.0.0.1'],
  [`${'x'.repeat(2000)}`, '127.0.0.1'],
  // A hop that is not an address ends the walk even behind a valid one the proxy wrote.
  ['not-an-ip, 203.0.113.12', '203.0.113.12'],
];

describe('[LIMITS] client IP behind a trusted proxy (a server of its own trusts 127.0.0.1)', () => {
  // The shipped default trusts no proxy; here the test plays a reverse proxy on 127.0.0.1, so this server is
  // started with RUNWAY_TRUSTED_PROXIES=127.0.0.1 to read the hops it forwards.
  let own: OwnServer;
  beforeAll(async () => {
    own = await ownServer('client_ip_proxy', { RUNWAY_TRUSTED_PROXIES: '127.0.0.1' });
  }, 300_000);
  afterAll(async () => {
    await own?.stop();
  });

  const call = async (method: string, path: string, opts: { token?: string; json?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${own.base}/api/v4${path}`, {
      method,
      headers: { ...(opts.token ? { 'PRIVATE-TOKEN': opts.token } : {}), ...(opts.json ? { 'Content-Type': 'application/json' } : {}), ...opts.headers },
      body: opts.json ? JSON.stringify(opts.json) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> => {
    const client = new pg.Client({ connectionString: own.database.inspectUrl });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  it('records only valid addresses on sessions: the right-most untrusted hop, else the proxy', async () => {
    const username = `clientip${Date.now().toString(36)}`;
    const made = await call('POST', '/users', {
      token: own.rootToken,
      json: { username, name: username, email: `${username}@example.com`, password: TEST_PASSWORD, skip_confirmation: true },
    });
    expect(made.status).toBe(201);
    for (const [forwarded, expected] of FORWARDED) {
      expect(await sessionIp(own.base, username, TEST_PASSWORD, forwarded), forwarded).toBe(expected);
    }
  });

  it('writes only valid addresses into audit events and runner managers (through the fast path)', async () => {
    for (const [forwarded, expected] of FORWARDED) {
      const runner = await call('POST', '/user/runners', { token: own.rootToken, json: { runner_type: 'instance_type' } });
      expect(runner.status).toBe(201);
      const created = await query<{ ip_address: string | null }>("SELECT ip_address FROM audit_events WHERE target_type = 'Ci::Runner' AND target_id = $1", [
        runner.body.id,
      ]);
      expect(created.map((e) => e.ip_address)).toEqual(['127.0.0.1']);
      const verify = await call('POST', '/runners/verify', {
        json: { token: runner.body.token, system_id: systemId() },
        headers: { 'X-Forwarded-For': forwarded },
      });
      expect(verify.status).toBe(200);
      // A new manager is written at once with its address (issue 30); polled in case the request returns first.
      await expect
        .poll(
          async () =>
            (await call('GET', `/runners/${runner.body.id}/managers`, { token: own.rootToken })).body.map((m: { ip_address: string }) => m.ip_address),
          {
            message: forwarded,
            timeout: 15_000,
          },
        )
        .toEqual([expected]);
      const reset = await call('POST', `/runners/${runner.body.id}/reset_authentication_token`, {
        token: own.rootToken,
        headers: { 'X-Forwarded-For': forwarded },
      });
      expect(reset.status).toBe(201);
      const [event] = await query<{ ip_address: string | null }>(
        "SELECT ip_address FROM audit_events WHERE target_type = 'Ci::Runner' AND target_id = $1 ORDER BY id DESC LIMIT 1",
        [runner.body.id],
      );
      expect(event.ip_address, forwarded).toBe(expected);
    }
  }, 120_000);
});

describe('[LIMITS] client IP with the default configuration (no trusted proxy)', () => {
  let database: TestDatabase;
  let server: ChildProcess;
  let base: string;

  beforeAll(async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    database = await freshDatabase(`runway_test_client_ip_${process.pid}`, dbPort);
    base = `http://127.0.0.1:${port}`;
    const env = runwayEnv({
      ...database.env,
      RUNWAY_EXTERNAL_URL: base,
      // Anonymous API requests throttled (off by default) to show a spoofed X-Forwarded-For does not evade it.
      RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API: '5/10',
    });
    server = await startServer(port, env);
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await database?.drop();
  });

  it('does not let a loopback client evade the sign-in throttle by rotating X-Forwarded-For (issue 20 repro)', async () => {
    await earlyInWindow(60, 25);
    // A successful sign-in counts too.
    const first = await attemptSignIn(base, 'root', ROOT_PASSWORD, { ip: '198.51.100.1' });
    const statuses = [first.status];
    for (let i = 2; i <= 12; i++) statuses.push((await attemptSignIn(base, 'nobody-at-all', 'wrong', { ip: `198.51.100.${i}` })).status);
    expect(statuses.slice(0, 10).filter((s) => s === 429)).toEqual([]);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // The session shows the socket's address, not the claimed one.
    const sessions = await fetch(`${base}/api/v4/user/sessions`, { headers: { Cookie: first.cookie! } });
    expect(((await sessions.json()) as { ip_address: string }[]).map((s) => s.ip_address)).toEqual(['127.0.0.1']);
  }, 90_000);

  it('does not let it evade the anonymous API throttle either', async () => {
    // The counters of the current 10 s window, read from the server's database.
    const counters = async () => {
      const client = new pg.Client({ connectionString: database.inspectUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ key: string; count: number }>(
          `SELECT key, count FROM rate_limit_counters
            WHERE key LIKE 'throttle_unauthenticated_api:%'
              AND window_start = to_timestamp(floor(extract(epoch FROM now()) / 10) * 10)`,
        );
        return new Map(rows.map((r) => [r.key, r.count]));
      } finally {
        await client.end();
      }
    };
    const KEY = 'throttle_unauthenticated_api:ip:127.0.0.1';
    await earlyInWindow(10, 6);
    // Whatever this address already spent in the window (the start-up warm-up's anonymous requests, when the
    // window is the same) counts: the limit is 5, so the first (5 - before) pass and the rest are refused.
    const before = (await counters()).get(KEY) ?? 0;
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await fetch(`${base}/api/v4/user`, { headers: { 'X-Forwarded-For': `192.0.2.${i}` } })).status);
    const after = await counters();
    const passing = Math.max(0, 5 - before);
    expect(statuses, `counted before: ${before}; now: ${JSON.stringify([...after])}`).toEqual([
      ...Array<number>(passing).fill(401),
      ...Array<number>(6 - passing).fill(429),
    ]);
    // All six were counted against the socket's address, none against an address the client claimed.
    expect(after.get(KEY)).toBe(before + 6);
    expect([...after.keys()]).toEqual([KEY]);
  }, 60_000);
});
