// GET /-/metrics: Prometheus's text format with request, database, queue, runner, long-lived request,
// throttle, build and process metrics, readable from loopback by default (tests/api/monitoring.test.ts
// checks the allowlist), and clean under `promtool check metrics`.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServerUrl } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { openEventStream } from '../support/event-stream';
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
  const servers: ChildProcess[] = [];
  let base: string;
  let token: string;

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_metrics_${process.pid}`, await freePort());
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Anonymous API requests are throttled (3 an hour) so that a refusal shows in the throttle counter.
    const env = runwayEnv({
      ...database.env,
      RUNWAY_EXTERNAL_URL: base,
      RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API: '3/3600',
      // A held runner poll must time out within the test (the default holds it 50 s) for its series to show.
      RUNWAY_LONG_POLLING_SECONDS: '2',
    });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'metrics'], env);
    expect(made.status, made.stderr).toBe(0);
    token = made.stdout.trim();
    servers.push(await startServer(port, env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServer));
    await database?.drop();
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
    // The alert rules (deploy/prometheus) compare the pool with its size and read the database's reachability.
    // 10 by default; the embedded database has one session, so one connection (lib/server/database.ts).
    expect(sample(text, 'runway_db_pool_max_connections')).toBe(testServerUrl ? 10 : 1);
    expect(sample(text, 'runway_database_up')).toBe(1);
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

  const scrape = async () => (await fetch(`${base}/-/metrics`)).text();
  const poll = (token: string, lastUpdate?: string) =>
    fetch(`${base}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, last_update: lastUpdate }),
    });

  it('counts held runner polls and event streams in their own series, not as request latency', async () => {
    const made = await api('/user/runners', { method: 'POST', body: JSON.stringify({ runner_type: 'instance_type', description: 'metrics-poll' }) });
    const runnerToken = ((await made.json()) as { token: string }).token;
    const first = await poll(runnerToken);
    expect(first.status).toBe(204);
    const held = poll(runnerToken, first.headers.get('x-gitlab-last-update')!);
    await expect.poll(async () => sample(await scrape(), 'runway_runner_polls_held'), { timeout: 5_000 }).toBe(1);
    expect((await held).status).toBe(204);
    const stream = await openEventStream(`${base}/api/v4/runners/events`, { 'PRIVATE-TOKEN': token });
    expect(stream.status).toBe(200);

    const text = await scrape();
    expect(sample(text, 'runway_event_streams_open')).toBe(1);
    expect(sample(text, 'runway_runner_polls_held')).toBe(0);
    // The held poll (RUNWAY_LONG_POLLING_SECONDS is 2 on this server) ended by timing out.
    expect(sample(text, 'runway_runner_job_request_hold_seconds_count', { outcome: 'timeout' })).toBe(1);
    expect(sample(text, 'runway_runner_job_request_hold_seconds_sum', { outcome: 'timeout' })).toBeGreaterThanOrEqual(1.9);
    // Only the poll answered at once is a request duration; the open stream is not in flight.
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v4/jobs/request', status: '204' })).toBe(1);
    expect(text).not.toContain('route="/api/v4/runners/events"');
    expect(sample(text, 'http_requests_in_flight')).toBe(1); // the scrape itself
    stream.close();
    await expect.poll(async () => sample(await scrape(), 'runway_event_streams_open'), { timeout: 5_000 }).toBe(0);
  });

  it("labels every /api path outside v3 and v4 as one route, counts throttled requests under GitLab's names and names the build", async () => {
    for (let i = 0; i < 5; i++) await fetch(`${base}/api/v5/projects/${i}`);
    // Earlier anonymous requests (the start's warm-up, this file's other tests) may have been throttled too:
    // what these five add is counted.
    const throttledBefore =
      sample(await scrape(), 'gitlab_rack_attack_events_total', { event_type: 'throttle', event_name: 'throttle_unauthenticated_api' }) ?? 0;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${base}/api/v4/version`)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const text = await scrape();
    expect(text).not.toContain('[...path]');
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/*', status: '404' })).toBe(5);
    const throttled = statuses.filter((s) => s === 429).length;
    expect(sample(text, 'gitlab_rack_attack_events_total', { event_type: 'throttle', event_name: 'throttle_unauthenticated_api' })).toBe(
      throttledBefore + throttled,
    );
    expect(sample(text, 'gitlab_rack_attack_throttle_limit', { event_name: 'throttle_unauthenticated_api' })).toBe(3);
    expect(sample(text, 'gitlab_rack_attack_throttle_period_seconds', { event_name: 'throttle_unauthenticated_api' })).toBe(3600);
    const build = /^runway_build_info\{version="([^"]+)",revision="([^"]+)"\} 1$/m.exec(text);
    expect(build?.[1]).toMatch(/^\d+\.\d+\.\d+/);
    expect(build?.[2]).toMatch(/^([0-9a-f]{7,40}(-dirty)?|unknown)$/);
  });

  // promtool ships in Debian's `prometheus` package (.ci/run installs it); CI never skips this check.
  const promtool = spawnSync('promtool', ['--version']).status === 0;
  it.skipIf(!promtool && !process.env.CI)("passes `promtool check metrics` for Runway's own metrics", async () => {
    const text = await scrape();
    const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(run.error, 'promtool must be installed (Debian: apt-get install prometheus)').toBeUndefined();
    // One problem a line, `<metric> <problem>`; Node's own process_*/nodejs_* metrics come from prom-client.
    const problems = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /^(runway_|http_|gitlab_)/.test(line.trim()));
    expect(problems).toEqual([]);
    // A parse error of the whole exposition would not name a metric.
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/error while linting|text format parsing error/i);
  });
});
