// GET /-/metrics: Prometheus's text format with request, database, queue, runner and process metrics,
// readable from loopback by default and refused (403) to addresses outside the monitoring allowlist.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';

/** The value of one series (exact label set) in a Prometheus text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v) && Object.keys(found).length === Object.keys(labels).length) return Number(m[3]);
  }
  return undefined;
}

describe('[OPS] Prometheus metrics', () => {
  let database: TestDatabase;
  const databases: TestDatabase[] = [];
  const servers: ChildProcess[] = [];
  let base: string;
  let token: string;

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_metrics_${process.pid}`, await freePort());
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'metrics'], env);
    expect(made.status, made.stderr).toBe(0);
    token = made.stdout.trim();
    servers.push(await startServer(port, env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServer));
    await Promise.all([database, ...databases].map((d) => d?.drop()));
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}/api/v4${path}`, { ...init, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...init.headers } });

  it('counts requests by route template and status, and exposes pool, queue, runner and process metrics', async () => {
    const created: number[] = [];
    for (const description of ['metrics-a', 'metrics-b', 'metrics-c']) {
      const res = await api('/user/runners', { method: 'POST', body: JSON.stringify({ runner_type: 'instance_type', description }) });
      expect(res.status).toBe(201);
      created.push(((await res.json()) as { id: number }).id);
    }
    for (const id of created) expect((await api(`/runners/${id}`)).status).toBe(200);
    expect((await api('/runners/999999')).status).toBe(404);

    const res = await fetch(`${base}/-/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v4/runners/:id', status: '200' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/v4/runners/:id', status: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v4/user/runners', status: '201' })).toBe(3);
    // Never one series per URL.
    expect(text).not.toContain('route="/api/v4/runners/999999"');
    // This scrape itself is in flight.
    expect(sample(text, 'http_requests_in_flight')).toBeGreaterThanOrEqual(1);

    expect(sample(text, 'runway_runners', { status: 'never_contacted', runner_type: 'instance_type' })).toBe(3);
    expect(sample(text, 'runway_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'runway_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'runway_background_jobs', { status: 'queued' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'runway_db_statement_duration_seconds_count', { kind: 'SELECT' })).toBeGreaterThan(0);
    expect(sample(text, 'runway_db_statement_duration_seconds_count', { kind: 'INSERT' })).toBeGreaterThan(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('answers HEAD without a body and refuses other methods with 405', async () => {
    const head = await fetch(`${base}/-/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${base}/-/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ message: '405 Method Not Allowed' });
  });

  // The second instance has a database of its own: the embedded one (PGlite) belongs to one process.
  it('refuses addresses outside RUNWAY_MONITORING_ALLOWLIST with 403', async () => {
    const port = await freePort();
    const other = `http://127.0.0.1:${port}`;
    const own = await freshDatabase(`runway_test_metrics_allowlist_${process.pid}`, await freePort());
    databases.push(own);
    servers.push(await startServer(port, runwayEnv({ ...own.env, RUNWAY_EXTERNAL_URL: other, RUNWAY_MONITORING_ALLOWLIST: '192.0.2.0/24' })));
    const res = await fetch(`${other}/-/metrics`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: '403 Forbidden' });
    // The rest of the instance is unaffected.
    expect((await fetch(`${other}/-/liveness`)).status).toBe(200);
  }, 120_000);
});
