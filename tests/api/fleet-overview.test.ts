// The fleet overview (Runway extension, /runners/fleet/*) against a fleet seeded with known answers, on a
// database of its own: two Runway instances start together on it and both take the daily snapshot at start,
// which must leave one row for today. Counts, history, versions and job statistics are checked exactly.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, ROOT, runwayEnv, startServer, stopServer } from '../support/server';
import { needsServer } from '../../lib/db/test-server';

let database: TestDatabase;
let servers: ChildProcess[] = [];
let base = '';
let rootToken = '';
let userToken = '';
let db: pg.Client;

const q = async <T = any>(text: string, values: unknown[] = []) => (await db.query(text, values)).rows as T[];

async function get(path: string, token?: string) {
  const res = await fetch(`${base}/api/v4${path}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

// Runner name -> [contacted ago, created ago, active]; ages are SQL intervals, null = never contacted.
const RUNNERS: Array<[string, string | null, string, boolean]> = [
  ['online-1', '10 minutes', '30 days', true],
  ['online-2', '1 hour', '30 days', true],
  ['online-3', '100 minutes', '30 days', true],
  ['offline-1', '140 minutes', '30 days', true],
  ['offline-2', '6 days', '30 days', true],
  ['paused-1', '10 minutes', '30 days', false],
  ['stale-1', '8 days', '30 days', true],
  ['stale-2', '10 days', '30 days', true],
  ['stale-3', '30 days', '30 days', false],
  ['stale-never', null, '8 days', true],
  ['never-1', null, '1 day', true],
  ['never-2', null, '6 days', false],
  ['stale-recent-create', '20 days', '7 days 1 minute', true],
];
const NOW = { online: 3, offline: 2, paused: 1, stale: 5, never_contacted: 2, total: 13 };

// Managers: runner name, system id, version.
const MANAGERS: Array<[string, string, string | null]> = [
  ['online-1', 's_a', '17.5.1'],
  ['online-1', 's_b', '17.5.0'],
  ['online-2', 's_a', '17.5.1'],
  ['online-3', 's_a', '17.4.2'],
  ['offline-1', 's_a', '17.3.0'],
  ['offline-1', 's_b', '17.3.0'],
  ['offline-2', 's_a', '17.3.0'],
  ['paused-1', 's_a', '16.11.3'],
  ['stale-1', 's_a', 'development version'],
  ['stale-2', 's_a', null],
];

// Jobs: runner name (null: not picked), days before today (UTC), queued durations (null: never started).
const JOBS: Array<[string | null, number, Array<number | null>]> = [
  ['online-1', 0, [1, 2, 3, 4]],
  ['online-2', 1, [10, 20]],
  ['online-3', 3, [100]],
  [null, 3, [null]],
  ['offline-1', 6, [30, 30, 30]],
  ['offline-2', 2, [10, 10, 109]],
  ['online-1', 8, [1000, 1000, 1000, 1000, 1000]],
];

const ids: Record<string, number> = {};

async function seed() {
  const [user] = await q(`SELECT id FROM users WHERE username = 'root'`);
  const [ns] = await q(`INSERT INTO namespaces (kind, name, path, full_path, traversal_ids) VALUES ('group', 'fleet', 'fleet', 'fleet', '{}') RETURNING id`);
  const [project] = await q(`INSERT INTO projects (name, path, namespace_id, full_path) VALUES ('p', 'p', $1, 'fleet/p') RETURNING id`, [ns.id]);
  const [pipeline] = await q(
    `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, user_id, updated_at) VALUES (1, $1, repeat('a', 40), 'main', 'success', $2, now()) RETURNING id`,
    [project.id, user.id],
  );
  for (const [name, contacted, created, active] of RUNNERS) {
    const [r] = await q(
      `INSERT INTO ci_runners (runner_type, description, active, token_digest, contacted_at, created_at, updated_at)
       VALUES ('instance_type', $1, $2, md5($1) || md5($1), now() - $3::interval, now() - $4::interval, now()) RETURNING id`,
      [name, active, contacted, created],
    );
    ids[name] = r.id;
  }
  for (const [name, system, version] of MANAGERS) {
    await q(
      `INSERT INTO ci_runner_machines (runner_id, system_xid, version, creation_state, contacted_at, updated_at) VALUES ($1, $2, $3, 'finished', now(), now())`,
      [ids[name], system, version],
    );
  }
  for (const [name, daysAgo, durations] of JOBS) {
    for (const d of durations) {
      await q(
        `INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, created_at, queued_duration)
         VALUES ($1, $2, $3, $4, 'test', 'job', 'main', (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') - $5 * interval '1 day' + interval '1 minute', $6)`,
        [name ? ids[name] : null, project.id, pipeline.id, d === null ? 'pending' : 'success', daysAgo, d],
      );
    }
  }
  // Earlier days' snapshots, as the worker would have left them; days 1, 3 and 4 have none.
  await q(`INSERT INTO ci_runner_fleet_snapshots (day, online, offline, stale, never_contacted, paused, total)
           VALUES ((now() AT TIME ZONE 'UTC')::date - 2, 5, 1, 2, 1, 0, 9), ((now() AT TIME ZONE 'UTC')::date - 5, 4, 0, 1, 0, 0, 5),
                  ((now() AT TIME ZONE 'UTC')::date - 40, 1, 1, 1, 1, 1, 5)`);
}

const day = (daysAgo: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d.toISOString().slice(0, 10);
};

describe('[FLEET] fleet overview API on a seeded fleet', { ...needsServer('two Runway instances on one database'), timeout: 60_000 }, () => {
  beforeAll(async () => {
    database = await freshDatabase(`runway_test_fleet_${process.pid}`, await freePort());
    const env = runwayEnv({ ...database.env });
    // Migrates and makes root; the fleet is then seeded before any instance starts.
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'fleet-tests'], env);
    if (made.status !== 0) throw new Error(`create-token failed: ${made.stderr}`);
    rootToken = made.stdout.trim();
    db = new pg.Client({ connectionString: database.inspectUrl });
    await db.connect();
    await seed();
    const ports = [await freePort(), await freePort()];
    // Started together: both workers take today's snapshot at start, racing for the same row.
    servers = await Promise.all(ports.map((port) => startServer(port, { ...env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}` })));
    base = `http://127.0.0.1:${ports[0]}`;
    const user = await fetch(`${base}/api/v4/users`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        username: 'fleet_user',
        email: 'fleet_user@example.com',
        name: 'Fleet user',
        password: 'fleet-user-password-1',
        skip_confirmation: true,
      }),
    }).then((r) => r.json() as Promise<{ id: number }>);
    const pat = await fetch(`${base}/api/v4/users/${user.id}/personal_access_tokens`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'fleet', scopes: ['api'] }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    userToken = pat.token;
    // Snapshot and demo code run in this process too, against the fleet's database.
    process.env.DATABASE_URL = database.inspectUrl;
    process.env.RUNWAY_DB_POOL_MAX = '4';
    delete process.env.RUNWAY_RESOLVED_DATABASE_URL;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServer));
    await db?.end();
    await database?.drop();
  });

  it.each(['status', 'status_history', 'versions', 'jobs'])('GET /runners/fleet/%s: 401 anonymous, 403 for a user, 200 for an admin', async (name) => {
    expect(await get(`/runners/fleet/${name}`)).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await get(`/runners/fleet/${name}`, userToken)).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect((await get(`/runners/fleet/${name}`, rootToken)).status).toBe(200);
  });

  it.each([
    ['status_history', '0'],
    ['status_history', '91'],
    ['status_history', 'abc'],
    ['jobs', '31'],
    ['jobs', '-1'],
  ])('GET /runners/fleet/%s?days=%s answers 400 with the parameter named', async (name, days) => {
    const res = await get(`/runners/fleet/${name}?days=${days}`, rootToken);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^days (does not have a valid value|is invalid)$/);
  });

  it('counts runners by their one status now, as the runner list defines them', async () => {
    const res = await get('/runners/fleet/status', rootToken);
    expect(res.body).toEqual({ ...NOW, counted_at: expect.any(String) });
    // The list's filters overlap as GitLab's scopes do (status=online includes paused runners that contacted
    // lately); the overview gives each runner its one REST status, so its counts add up to the total.
    const list = await fetch(`${base}/api/v4/runners/all?status=online&per_page=100`, { headers: { 'PRIVATE-TOKEN': rootToken } }).then(
      (r) => r.json() as Promise<Array<{ description: string; status: string }>>,
    );
    expect(list.map((r) => [r.description, r.status]).sort()).toEqual([
      ['online-1', 'online'],
      ['online-2', 'online'],
      ['online-3', 'online'],
      ['paused-1', 'paused'],
    ]);
  });

  it('two instances starting together leave one snapshot for today, with the counts of the moment', async () => {
    const today = () =>
      q(`SELECT online, offline, stale, never_contacted, paused, total FROM ci_runner_fleet_snapshots WHERE day = (now() AT TIME ZONE 'UTC')::date`);
    // The workers snapshot right after start, in the background.
    await expect.poll(today, { timeout: 30_000 }).toHaveLength(1);
    expect(await today()).toEqual([NOW]);
  });

  it('status history: one entry per day, oldest first, null where no snapshot was taken', async () => {
    const res = await get('/runners/fleet/status_history', rootToken);
    expect(res.body).toHaveLength(30);
    expect(res.body[0].date).toBe(day(29));
    expect(res.body[29]).toEqual({ date: day(0), ...NOW });
    expect(res.body[27]).toEqual({ date: day(2), online: 5, offline: 1, stale: 2, never_contacted: 1, paused: 0, total: 9 });
    expect(res.body[28]).toEqual({ date: day(1), online: null, offline: null, stale: null, never_contacted: null, paused: null, total: null });
    expect(res.body.filter((d: any) => d.total !== null).map((d: any) => d.date)).toEqual([day(5), day(2), day(0)]);
    const week = await get('/runners/fleet/status_history?days=3', rootToken);
    expect(week.body.map((d: any) => d.date)).toEqual([day(2), day(1), day(0)]);
    const long = await get('/runners/fleet/status_history?days=90', rootToken);
    expect(long.body.find((d: any) => d.date === day(40))).toMatchObject({ total: 5 });
  });

  it('versions: managers and runners per version, newest first, newest marked, more than one minor behind flagged, each with its upgrade status', async () => {
    // The statuses are computed by the instances' workers as they start (the shipped release list, GitLab 18.6.0).
    let res = await get('/runners/fleet/versions', rootToken);
    for (let i = 0; i < 50 && res.body.upgrade_statuses.not_processed.versions > 0; i++) {
      await new Promise((done) => setTimeout(done, 200));
      res = await get('/runners/fleet/versions', rootToken);
    }
    const shipped = JSON.parse(readFileSync(path.join(ROOT, 'lib/runners/data/gitlab-runner-releases.json'), 'utf8'));
    const none = { versions: 0, managers: 0, runners: 0 };
    expect(res.body).toEqual({
      newest_version: '17.5.1',
      versions_count: 6,
      managers: 9,
      runners: 7,
      outdated_managers: 4,
      outdated_runners: 3,
      // Every 17.x and 16.x version is outside GitLab 18.6's backport window: an upgrade is recommended.
      upgrade_statuses: {
        invalid: { versions: 1, managers: 1, runners: 1 },
        not_available: none,
        available: none,
        recommended: { versions: 5, managers: 8, runners: 6 },
        not_processed: none,
      },
      releases: {
        fetched_at: new Date(shipped.fetched_at).toISOString(),
        source: `shipped with Runway: ${shipped.source}`,
        versions_count: shipped.versions.length,
        newest_version: shipped.versions.at(-1).slice(1),
        gitlab_version: '18.6.0',
        refresh_enabled: false,
        refresh_attempted_at: null,
        refresh_error: null,
      },
      versions: [
        { version: '17.5.1', managers: 2, runners: 2, newest: true, outdated: false, upgrade_status: 'recommended' },
        { version: '17.5.0', managers: 1, runners: 1, newest: false, outdated: false, upgrade_status: 'recommended' },
        { version: '17.4.2', managers: 1, runners: 1, newest: false, outdated: false, upgrade_status: 'recommended' },
        { version: '17.3.0', managers: 3, runners: 2, newest: false, outdated: true, upgrade_status: 'recommended' },
        { version: '16.11.3', managers: 1, runners: 1, newest: false, outdated: true, upgrade_status: 'recommended' },
        { version: 'development version', managers: 1, runners: 1, newest: false, outdated: false, upgrade_status: 'invalid' },
      ],
    });
  });

  it('jobs: per day and over the window, queued duration percentiles, busiest runners and longest queues', async () => {
    const res = await get('/runners/fleet/jobs', rootToken);
    const b = res.body;
    expect(b.days).toBe(7);
    expect(b.jobs).toBe(14);
    // Queued durations in the window: 1 2 3 4 10 10 10 20 30 30 30 100 109 (the pending job has none).
    expect(b.queued_duration).toEqual({ median: 10, p90: expect.closeTo(86, 6), p99: expect.closeTo(107.92, 6) });
    expect(b.per_day.map((d: any) => [d.date, d.jobs])).toEqual([
      [day(6), 3],
      [day(5), 0],
      [day(4), 0],
      [day(3), 2],
      [day(2), 3],
      [day(1), 2],
      [day(0), 4],
    ]);
    expect(b.per_day[6].queued_duration).toEqual({ median: 2.5, p90: expect.closeTo(3.7, 6), p99: expect.closeTo(3.97, 6) });
    expect(b.per_day[5].queued_duration).toEqual({ median: 15, p90: expect.closeTo(19, 6), p99: expect.closeTo(19.9, 6) });
    expect(b.per_day[3].queued_duration).toEqual({ median: 100, p90: 100, p99: 100 });
    expect(b.per_day[4].queued_duration).toEqual({ median: 10, p90: expect.closeTo(89.2, 6), p99: expect.closeTo(107.02, 6) });
    expect(b.per_day[1].queued_duration).toEqual({ median: null, p90: null, p99: null });
    expect(b.busiest_runners.map((r: any) => [r.runner.description, r.jobs])).toEqual([
      ['online-1', 4],
      ['offline-1', 3],
      ['offline-2', 3],
      ['online-2', 2],
      ['online-3', 1],
    ]);
    expect(b.busiest_runners[0]).toEqual({
      runner: { id: ids['online-1'], description: 'online-1', runner_type: 'instance_type', status: 'online' },
      jobs: 4,
      queued_duration: { mean: 2.5, median: 2.5, p90: expect.closeTo(3.7, 6), p99: expect.closeTo(3.97, 6) },
    });
    // Ranked by mean queued duration (the outlier-heavy runner first: its mean 43 beats a steady 30).
    expect(b.longest_queues.map((r: any) => [r.runner.description, r.queued_duration.mean, r.queued_duration.median])).toEqual([
      ['online-3', 100, 100],
      ['offline-2', 43, 10],
      ['offline-1', 30, 30],
      ['online-2', 15, 15],
      ['online-1', 2.5, 2.5],
    ]);
    const today = await get('/runners/fleet/jobs?days=1', rootToken);
    expect(today.body).toMatchObject({ days: 1, jobs: 4, per_day: [{ date: day(0), jobs: 4 }] });
  });

  it('the snapshot is idempotent per day: concurrent runs keep one row and take the latest counts', async () => {
    const { takeFleetSnapshot } = await import('../../lib/fleet/snapshots');
    const { disconnectDb } = await import('../../lib/db/client');
    try {
      await q(`UPDATE ci_runners SET active = false WHERE id = $1`, [ids['online-1']]);
      const days = await Promise.all(Array.from({ length: 6 }, () => takeFleetSnapshot()));
      expect(new Set(days)).toEqual(new Set([day(0)]));
      const rows = await q(`SELECT online, paused, total FROM ci_runner_fleet_snapshots WHERE day = (now() AT TIME ZONE 'UTC')::date`);
      expect(rows).toEqual([{ online: 2, paused: 2, total: 13 }]);
      expect((await q(`SELECT count(*)::int AS n FROM ci_runner_fleet_snapshots`))[0].n).toBe(4);
      const history = await get('/runners/fleet/status_history?days=1', rootToken);
      expect(history.body).toEqual([{ date: day(0), ...NOW, online: 2, paused: 2 }]);
    } finally {
      await q(`UPDATE ci_runners SET active = true WHERE id = $1`, [ids['online-1']]);
      await disconnectDb();
    }
  });

  it('the demo history fills every missing day of the last 30 from the runners, keeps recorded days, and is idempotent', async () => {
    const { seedFleetDemo } = await import('../../lib/seed/fleet');
    const { disconnectDb } = await import('../../lib/db/client');
    try {
      await seedFleetDemo();
      const first = (await get('/runners/fleet/status_history', rootToken)).body;
      await seedFleetDemo();
      expect((await get('/runners/fleet/status_history', rootToken)).body).toEqual(first);
      expect(first.every((d: any) => d.total !== null && d.online + d.offline + d.stale + d.never_contacted + d.paused === d.total)).toBe(true);
      // Nine runners were created 30 days ago, the rest within the last 8 days; recorded days are kept.
      expect(first[0]).toMatchObject({ date: day(29), total: 9 });
      expect(first[28]).toMatchObject({ date: day(1), total: 13 });
      expect(first[27]).toEqual({ date: day(2), online: 5, offline: 1, stale: 2, never_contacted: 1, paused: 0, total: 9 });
      // stale-3, last contacted 30 days ago, counts as stale from 7 days after that contact (day 23 on), not before.
      expect(first.slice(29 - 23).every((d: any) => d.stale >= 1)).toBe(true);
      expect(first[0]).toMatchObject({ stale: 0 });
    } finally {
      await disconnectDb();
    }
  });
});
