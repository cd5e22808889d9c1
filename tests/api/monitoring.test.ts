// GitLab's health endpoints (/-/health, /-/liveness, /-/readiness) and /-/metrics: their shapes and
// statuses, readiness's instance check and `?all=1` database check, and the monitoring allowlist, which
// answers others GitLab's 404.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api';
import { freshDatabase, type TestDatabase } from '../support/database';
import { freePort, loopbackRequest, runwayEnv, startServer, stopServer } from '../support/server';

/** One request to 127.0.0.1:`port`, sent from the loopback address `from`. */
const request = (port: number, path: string, from: string, method = 'GET') => loopbackRequest(port, path, { from, method });

describe('[OPS] health endpoints', () => {
  const port = () => Number(new URL(baseUrl()).port);
  const get = (path: string, method = 'GET') => request(port(), path, '127.0.0.1', method);

  it("answers /-/health and /-/liveness as GitLab's do", async () => {
    const health = await get('/-/health');
    expect(health).toMatchObject({ status: 200, body: 'GitLab OK' });
    expect(health.headers['content-type']).toBe('text/plain');
    const live = await get('/-/liveness');
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toBe('application/json');
    expect(JSON.parse(live.body)).toEqual({ status: 'ok' });
  });

  it('checks the instance on /-/readiness, and PostgreSQL too with ?all=1', async () => {
    const ready = await get('/-/readiness');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ok', master_check: [{ status: 'ok' }] });
    expect(ready.headers['x-gitlab-custom-error']).toBeUndefined();
    for (const query of ['?all=1', '?all=true', '?all=0']) {
      const all = await get(`/-/readiness${query}`);
      expect(all.status, query).toBe(200);
      expect(JSON.parse(all.body)).toEqual({ status: 'ok', master_check: [{ status: 'ok' }], db_check: [{ status: 'ok' }] });
    }
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    for (const path of ['/-/health', '/-/liveness', '/-/readiness']) {
      const head = await get(path, 'HEAD');
      expect(head.status, path).toBe(200);
      expect(head.body).toBe('');
      const post = await get(path, 'POST');
      expect(post.status, path).toBe(405);
      expect(post.headers.allow).toBe('GET, HEAD');
    }
  });
});

describe('[OPS] monitoring allowlist', () => {
  let database: TestDatabase;
  let server: ChildProcess;
  let port: number;

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_monitoring_${process.pid}`, await freePort());
    port = await freePort();
    // Only 127.0.0.2 may read the monitoring endpoints; the tests connect from 127.0.0.1 to be refused.
    const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`, RUNWAY_MONITORING_ALLOWLIST: '127.0.0.2/32' });
    server = await startServer(port, env, { probeFrom: '127.0.0.2' });
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await database?.drop();
  });

  it("answers clients outside the allowlist GitLab's empty 404 on every monitoring endpoint", async () => {
    for (const path of ['/-/health', '/-/liveness', '/-/readiness', '/-/readiness?all=1', '/-/metrics']) {
      const refused = await request(port, path, '127.0.0.1');
      expect(refused.status, path).toBe(404);
      expect(refused.body, path).toBe('');
      // Not even the method is checked for them.
      expect((await request(port, path, '127.0.0.1', 'POST')).status, path).toBe(404);
    }
  });

  it('serves the allowed address, and the rest of the instance to everyone', async () => {
    expect(await request(port, '/-/health', '127.0.0.2')).toMatchObject({ status: 200, body: 'GitLab OK' });
    expect((await request(port, '/-/readiness?all=1', '127.0.0.2')).status).toBe(200);
    expect((await request(port, '/-/metrics', '127.0.0.2')).body).toContain('runway_build_info');
    const api = await request(port, '/api/v4/version', '127.0.0.1');
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body)).toEqual({ message: '401 Unauthorized' });
  });
});

describe('[OPS] what a production start says, and what it keeps out of the request log and histogram', () => {
  let database: TestDatabase;
  let server: ChildProcess;
  let port: number;
  let output = '';

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_monitoring_quiet_${process.pid}`, await freePort());
    port = await freePort();
    // The request log is an info line: the suite's default (warn) would hide it.
    const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`, RUNWAY_LOG_LEVEL: 'info' });
    // No secret configured, as an operator who skipped RUNWAY_SECRET starts it (the suite sets one for speed).
    delete env.NEXTAUTH_SECRET;
    delete env.RUNWAY_SECRET;
    delete env.RUNWAY_SECRET_FILE;
    server = await startServer(port, env, { onOutput: (text) => (output += text) });
  }, 300_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await database?.drop();
  });

  const entries = () =>
    output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('warns when it starts without RUNWAY_SECRET or RUNWAY_SECRET_FILE', () => {
    const warning = entries().find((e) => e.level === 'warn' && String(e.msg).includes('RUNWAY_SECRET'));
    expect(warning, output).toBeDefined();
    expect(String(warning!.fix)).toContain('RUNWAY_SECRET_FILE');
  });

  it('logs and counts traffic, but not health probes or its own warm-up', async () => {
    for (const path of ['/-/readiness', '/-/liveness', '/-/health', '/-/readiness?all=1'])
      expect((await request(port, path, '127.0.0.1')).status, path).toBe(200);
    expect((await request(port, '/api/v4/version', '127.0.0.1')).status).toBe(401);
    const metrics = (await request(port, '/-/metrics', '127.0.0.1')).body;
    await new Promise((r) => setTimeout(r, 200)); // the log lines of the answers just sent
    const logged = entries().filter((e) => e.msg === 'request');
    expect(logged.filter((e) => e.path === '/api/v4/version')).toHaveLength(1);
    expect(logged.filter((e) => String(e.path).startsWith('/-/') && e.path !== '/-/metrics')).toEqual([]);
    expect(logged.filter((e) => String(e.correlation_id).startsWith('warm-up'))).toEqual([]);
    // The warm-up asked for /api/v4/version and /api/v4/user too: only the test's own request is counted.
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/v4\/version",status="401"\} 1$/m);
    expect(metrics).not.toContain('route="/api/v4/user"');
    expect(metrics).not.toContain('route="/-/readiness"');
    expect(metrics).not.toContain('route="/-/liveness"');
  });
});
