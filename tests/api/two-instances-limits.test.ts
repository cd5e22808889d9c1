// Two Runway instances on ONE database share the sign-in lock and the rate-limit counters: nothing of either
// lives in one process's memory.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { attemptSignIn, earlyInWindow, nextWindow } from '../support/sign-in';
import { needsServer } from '../../lib/db/test-server';

const PASSWORD = 'two-instances-password-1';

// PGlite (the embedded database) belongs to one process: two instances need a PostgreSQL server.
describe('[LIMITS] two instances, one database', needsServer('two Runway instances on one database'), () => {
  let database: TestDatabase;
  const servers: ChildProcess[] = [];
  let bases: [string, string];
  let rootToken: string;

  const api = async (base: string, path: string, token: string, init: RequestInit = {}) =>
    fetch(`${base}/api/v4${path}`, { ...init, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...init.headers } });

  async function createUser(): Promise<{ username: string; token: string }> {
    const username = `twin_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const made = await api(bases[0], '/users', rootToken, {
      method: 'POST',
      body: JSON.stringify({ username, email: `${username}@example.com`, name: username, password: PASSWORD, skip_confirmation: true }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const tok = await api(bases[1], `/users/${id}/personal_access_tokens`, rootToken, {
      method: 'POST',
      body: JSON.stringify({ name: 'twin', scopes: ['api'] }),
    });
    expect(tok.status).toBe(201);
    return { username, token: ((await tok.json()) as { token: string }).token };
  }

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_two_limits_${process.pid}`, 0);
    const env = runwayEnv({ ...database.env, RUNWAY_RATE_LIMIT_AUTHENTICATED_API: '6/10', RUNWAY_THROTTLE_USER_ALLOWLIST: '1' });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'twins'], env);
    expect(made.status, made.stderr).toBe(0);
    rootToken = made.stdout.trim();
    const ports = [await freePort(), await freePort()];
    bases = ports.map((p) => `http://127.0.0.1:${p}`) as [string, string];
    // One after the other: the first migrates, the second finds the schema in place.
    for (const [i, port] of ports.entries()) {
      servers.push(await startServer(port, { ...env, RUNWAY_EXTERNAL_URL: bases[i] }));
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServer));
    await database?.drop();
  });

  it("locks one address out on both after its 10 failed sign-ins split across them, and not the owner's", async () => {
    const user = await createUser();
    // Two clients, each on a loopback address of its own (block 0: freshLoopbackAddress never takes it).
    const [attacker, owner] = ['127.0.0.21', '127.0.0.22'];
    for (let i = 0; i < 9; i++) {
      const attempt = await attemptSignIn(bases[i % 2], user.username, `wrong-${i}`, { from: attacker });
      expect(attempt.error, `attempt ${i + 1}`).toBe('CredentialsSignin');
    }
    expect((await attemptSignIn(bases[1], user.username, 'wrong-10', { from: attacker })).error).toBe('locked');
    // The sign-in throttle lets one address send 10 a minute (its default): the attacker's next tries wait for the next minute.
    await nextWindow(60);
    for (const base of bases) {
      const right = await attemptSignIn(base, user.username, PASSWORD, { from: attacker });
      expect(right.error, base).toBe('locked');
      expect(right.cookie, base).toBeNull();
      expect((await attemptSignIn(base, user.username, PASSWORD, { from: owner })).cookie, base).not.toBeNull();
    }
  }, 120_000);

  it('counts requests split across both against one rate limit', async () => {
    const [user, other] = [await createUser(), await createUser()];
    await earlyInWindow(10, 6);
    for (let i = 0; i < 6; i++) expect((await api(bases[i % 2], '/user', user.token)).status, `request ${i + 1}`).toBe(200);
    for (const base of bases) {
      const res = await api(base, '/user', user.token);
      expect(res.status, base).toBe(429);
      expect(res.headers.get('ratelimit-name')).toBe('throttle_authenticated_api');
    }
    expect((await api(bases[0], '/user', other.token)).status).toBe(200);
  }, 60_000);
});
