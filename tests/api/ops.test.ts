// Operations: structured request logs (and that they never carry a token), and several instances
// migrating one database at once under the advisory lock.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, ROOT, runwayEnv, startServer, stopServer } from '../support/server';
import type { ChildProcess } from 'node:child_process';
import { needsServer } from '../../lib/db/test-server';

describe('[OPS] request logs', () => {
  let database: TestDatabase;
  let server: ChildProcess;
  let base: string;
  let token: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    database = await freshDatabase(`runway_test_ops_${process.pid}`, dbPort);
    base = `http://127.0.0.1:${port}`;
    const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base, RUNWAY_LOG_LEVEL: 'info' });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api,sudo', '--name', 'ops'], env);
    expect(made.status).toBe(0);
    token = made.stdout.trim();
    server = await startServer(port, env);
    server.stdout?.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await database?.drop();
  });

  const entryFor = async (correlationId: string) => {
    await expect.poll(() => lines.find((l) => l.includes(`"correlation_id":"${correlationId}"`)), { timeout: 5000 }).toBeDefined();
    return JSON.parse(lines.find((l) => l.includes(`"correlation_id":"${correlationId}"`))!);
  };

  it("writes one JSON line per request with GitLab's api_json.log fields, and no token", async () => {
    const root = (await (await fetch(`${base}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } })).json()) as { id: number };
    const res = await fetch(`${base}/api/v4/version?private_token=${token}`, {
      headers: { 'X-Request-Id': 'ops-log-check', 'User-Agent': 'python-gitlab/4.4.0' },
    });
    expect(res.status).toBe(200);
    const res2 = await fetch(`${base}/api/v4/version`, { headers: { 'PRIVATE-TOKEN': token, 'X-Request-Id': 'ops-log-check-2' } });
    expect(res2.status).toBe(200);
    const entry = await entryFor('ops-log-check');
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/api/v4/version',
      route: '/api/v4/version',
      status: 200,
      remote_ip: '127.0.0.1',
      ua: 'python-gitlab/4.4.0',
      user_id: root.id,
      username: 'root',
      correlation_id: 'ops-log-check',
    });
    expect(entry.duration_s).toBeGreaterThan(0);
    // Authenticating the token took database statements, and their time is this request's.
    expect(entry.db_count).toBeGreaterThanOrEqual(1);
    expect(entry.db_duration_s).toBeGreaterThan(0);
    expect(entry.db_duration_s).toBeLessThanOrEqual(entry.duration_s);
    await entryFor('ops-log-check-2');
    expect(lines.join('\n')).not.toContain(token);
  });

  it('names the user the request acted as (after Sudo), and no user when anonymous', async () => {
    const created = await fetch(`${base}/api/v4/users`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'ops.logged', email: 'ops.logged@example.com', name: 'Ops Logged', password: 'ops-logged-password-1' }),
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: number };
    const sudo = await fetch(`${base}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token, Sudo: 'ops.logged', 'X-Request-Id': 'ops-log-sudo' } });
    expect(sudo.status).toBe(200);
    expect(await entryFor('ops-log-sudo')).toMatchObject({ user_id: user.id, username: 'ops.logged', route: '/api/v4/user', status: 200 });
    const anonymous = await fetch(`${base}/api/v4/version`, { headers: { 'X-Request-Id': 'ops-log-anonymous' } });
    expect(anonymous.status).toBe(401);
    const entry = await entryFor('ops-log-anonymous');
    expect(entry).toMatchObject({ status: 401, route: '/api/v4/version', remote_ip: '127.0.0.1', ua: expect.any(String) });
    expect(entry).not.toHaveProperty('user_id');
    expect(entry).not.toHaveProperty('username');
  });

  it('logs runner polls of the fast path with their route and database time, and a client that left as 499', async () => {
    const made = await fetch(`${base}/api/v4/user/runners`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ runner_type: 'instance_type' }),
    });
    const runner = (await made.json()) as { token: string };
    const poll = (id: string, body: object, signal?: AbortSignal) =>
      fetch(`${base}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': id },
        body: JSON.stringify(body),
        signal,
      });
    const first = await poll('ops-log-poll', { token: runner.token });
    expect(first.status).toBe(204);
    const entry = await entryFor('ops-log-poll');
    expect(entry).toMatchObject({ route: '/api/v4/jobs/request', status: 204, method: 'POST' });
    expect(entry.db_count).toBeGreaterThanOrEqual(1);
    expect(entry).not.toHaveProperty('user_id');
    // A held poll whose runner goes away before the answer.
    const controller = new AbortController();
    const held = poll('ops-log-gone', { token: runner.token, last_update: first.headers.get('x-gitlab-last-update') }, controller.signal);
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
    await expect(held).rejects.toThrow();
    expect(await entryFor('ops-log-gone')).toMatchObject({ route: '/api/v4/jobs/request', status: 499 });
    expect(lines.join('\n')).not.toContain(runner.token);
  });

  it('filters token-shaped path segments (a token pasted into the URL) out of the request log', async () => {
    const secrets = [token, 'glrt-t1_Qw3rTy8uIoPaSdFgHjKl', 'glrtr-AbCdEf0123456789xyz', 'GR1348941zYxWvUtSrQp9876', 't1_Zx8cVb7nM6aS5dF4gH3j'];
    for (const [i, secret] of secrets.entries()) {
      const res = await fetch(`${base}/api/v4/${secret}`, { headers: { 'X-Request-Id': `ops-redact-${i}` } });
      expect(res.status).toBe(404);
      const nested = await fetch(`${base}/api/v4/runners/${encodeURIComponent(secret)}/jobs`, { headers: { 'X-Request-Id': `ops-redact-nested-${i}` } });
      expect(nested.status).toBeGreaterThanOrEqual(400);
    }
    await expect.poll(() => lines.filter((l) => l.includes('ops-redact-')).length, { timeout: 5000 }).toBe(secrets.length * 2);
    const logged = lines.filter((l) => l.includes('ops-redact-')).map((l) => JSON.parse(l) as { path: string });
    expect(logged.map((e) => e.path)).toContain('/api/v4/[FILTERED]');
    expect(logged.map((e) => e.path)).toContain('/api/v4/runners/[FILTERED]/jobs');
    const all = lines.join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
    // Ordinary paths stay readable.
    await fetch(`${base}/api/v4/projects/acme%2Fwidgets`, { headers: { 'X-Request-Id': 'ops-redact-plain' } });
    await expect.poll(() => lines.find((l) => l.includes('ops-redact-plain')), { timeout: 5000 }).toContain('"path":"/api/v4/projects/acme%2Fwidgets"');
  });
});

describe('[OPS] migrations at start', () => {
  it(
    'lets several instances migrate one database at once (advisory lock)',
    { ...needsServer('several processes migrate one database'), timeout: 120_000 },
    async () => {
      const database = await freshDatabase(`runway_test_migrate_${process.pid}`, 0);
      try {
        const runs = await Promise.all(
          [1, 2, 3].map(
            () =>
              new Promise<{ code: number; out: string }>((resolve) => {
                const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'migrate'], {
                  env: runwayEnv(database.env),
                  cwd: ROOT,
                });
                let out = '';
                child.stdout.on('data', (d) => (out += d));
                child.stderr.on('data', (d) => (out += d));
                child.on('exit', (code) => resolve({ code: code ?? 1, out }));
              }),
          ),
        );
        expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
        // Exactly one of them applied the migrations; the others found the database up to date.
        expect(runs.filter((r) => r.out.includes('applied:')).length).toBe(1);
        expect(runs.filter((r) => r.out.includes('database is up to date')).length).toBe(2);
      } finally {
        await database.drop();
      }
    },
  );
});
