// [LIMITS] The client IP is decided once, in the http wrapper, from the socket and the X-Forwarded-For hops
// of proxies on RUNWAY_TRUSTED_PROXIES only, and it is always an IP address. The suite's server trusts its
// loopback peer (tests/support/server.ts: the tests play the reverse proxy); a server of its own here keeps
// the default, which trusts no proxy.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { inspect } from '../support/inspect';
import { freePort, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { attemptSignIn, earlyInWindow } from '../support/sign-in';
import { createUser, TEST_PASSWORD } from '../support/users';
import { registered, resetInstanceToken, systemId } from './runners-registration-support';

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

describe('[LIMITS] client IP behind a trusted proxy (the suite server trusts 127.0.0.1)', () => {
  it('records only valid addresses on sessions: the right-most untrusted hop, else the proxy', async () => {
    const user = await createUser();
    for (const [forwarded, expected] of FORWARDED) {
      expect(await sessionIp(baseUrl(), user.username, TEST_PASSWORD, forwarded), forwarded).toBe(expected);
    }
  });

  it('writes only valid addresses into audit events and runner managers (through the fast path)', async () => {
    const token = await resetInstanceToken();
    for (const [forwarded, expected] of FORWARDED) {
      const runner = await registered(token);
      const created = await inspect<{ ip_address: string | null }>("SELECT ip_address FROM audit_events WHERE target_type = 'Ci::Runner' AND target_id = $1", [
        runner.id,
      ]);
      expect(created.map((e) => e.ip_address)).toEqual(['127.0.0.1']);
      const verify = await api('POST', '/runners/verify', { json: { token: runner.token, system_id: systemId() }, headers: { 'X-Forwarded-For': forwarded } });
      expect(verify.status).toBe(200);
      const managers = await api('GET', `/runners/${runner.id}/managers`, { token: inject('rootToken') });
      expect(
        managers.body.map((m: { ip_address: string }) => m.ip_address),
        forwarded,
      ).toEqual([expected]);
      const reset = await api('POST', `/runners/${runner.id}/reset_authentication_token`, {
        token: inject('rootToken'),
        headers: { 'X-Forwarded-For': forwarded },
      });
      expect(reset.status).toBe(201);
      const [event] = await inspect<{ ip_address: string | null }>(
        "SELECT ip_address FROM audit_events WHERE target_type = 'Ci::Runner' AND target_id = $1 ORDER BY id DESC LIMIT 1",
        [runner.id],
      );
      expect(event.ip_address, forwarded).toBe(expected);
    }
  });
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
      RUNWAY_RATE_LIMIT_SIGN_IN: '10/60',
      RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API: '5/10',
    });
    delete env.RUNWAY_TRUSTED_PROXIES;
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
    await earlyInWindow(10, 6);
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await fetch(`${base}/api/v4/user`, { headers: { 'X-Forwarded-For': `192.0.2.${i}` } })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  }, 60_000);
});
