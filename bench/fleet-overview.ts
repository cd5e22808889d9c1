// Fleet overview benchmark: `npm run bench:fleet-overview` (needs a production build: RUNWAY_DIST_DIR,
// default .next). Seeds a dedicated database on the DATABASE_URL server with 100,000 runners and managers
// (bench/runners-seed.ts), 1,000,000 jobs over 30 days with varied queued durations and 30 days of
// snapshots (set-based SQL), starts Runway and times the page's four /api/v4 calls: each alone, sequentially,
// and the four together as the page sends them. Target: every call answers in under 500 ms.
// Env: BENCH_RUNNERS (default 100000), BENCH_JOBS (default 1000000), BENCH_ROUNDS (default 30).
import pg from 'pg';
import { seedBench } from './runners-seed';
import { ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const DB_NAME = 'runway_bench_fleet';
const log = (s: string) => process.stderr.write(`${s}\n`);

const ENDPOINTS = [
  '/api/v4/runners/fleet/status',
  '/api/v4/runners/fleet/status_history?days=30',
  '/api/v4/runners/fleet/versions',
  '/api/v4/runners/fleet/jobs?days=7',
];

/** 1,000,000 jobs over the last 30 days on a tenth of the fleet (a few runners far busier), 3% never started. */
async function seedJobs(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT (SELECT count(*)::int FROM ci_runners) AS runners, (SELECT count(*)::int FROM ci_builds) AS jobs`);
    if (rows[0].jobs === JOBS) {
      log(`reusing ${rows[0].runners} runners and ${rows[0].jobs} jobs`);
      return;
    }
    if (rows[0].jobs !== 0) throw new Error(`${DB_NAME} holds ${rows[0].jobs} jobs, not ${JOBS}: drop it to seed again`);
    let t = Date.now();
    await c.query(
      `
      WITH rs AS (SELECT array_agg(id ORDER BY id) a FROM ci_runners),
           pl AS (SELECT array_agg(id ORDER BY id) ids, array_agg(project_id ORDER BY id) projects FROM ci_pipelines)
      INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, created_at, started_at, queued_duration)
      SELECT rs.a[1 + CASE WHEN g % 5 = 0 THEN g % 20 ELSE (g * 31) % (array_length(rs.a, 1) / 10) END],
             pl.projects[1 + g % array_length(pl.ids, 1)], pl.ids[1 + g % array_length(pl.ids, 1)],
             CASE WHEN g % 33 = 0 THEN 'pending' ELSE 'success' END, 'test', 'job ' || (g % 20), 'main',
             now() - (g % 43200) * interval '1 minute', NULL,
             CASE WHEN g % 33 = 0 THEN NULL ELSE ((g::bigint * 7919) % 1000) / 10.0 + CASE WHEN g % 97 = 0 THEN 600 ELSE 0 END END
        FROM generate_series(1, $1::int) g, rs, pl`,
      [JOBS],
    );
    log(`  jobs: ${JOBS} in ${((Date.now() - t) / 1000).toFixed(1)}s`);
    t = Date.now();
    await c.query(`
      INSERT INTO ci_runner_fleet_snapshots (day, online, offline, stale, never_contacted, paused, total)
      SELECT (now() AT TIME ZONE 'UTC')::date - d, 1000 + d, 20000 - d, 60000 + d * 10, 19000, 5000, 105000 + d * 11
        FROM generate_series(1, 29) d ON CONFLICT (day) DO NOTHING`);
    await c.query('VACUUM ANALYZE');
    log(`  snapshots, vacuum analyze: ${((Date.now() - t) / 1000).toFixed(1)}s`);
  } finally {
    await c.end();
  }
}

async function timed(url: string, token: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers: { 'PRIVATE-TOKEN': token } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t;
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { p50: at(0.5), p90: at(0.9), max: s[s.length - 1] };
}
const fmt = (x: { p50: number; p90: number; max: number }) =>
  `p50 ${x.p50.toFixed(0).padStart(4)} ms  p90 ${x.p90.toFixed(0).padStart(4)} ms  max ${x.max.toFixed(0).padStart(4)} ms`;

async function main() {
  const url = await ensureDatabase(DB_NAME);
  const port = await freePort();
  const e = runwayEnv(url, port);
  // Migrates and makes root; the token is the admin's.
  const token = rootToken(e);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`SELECT count(*)::int AS n FROM ci_runners`);
  await c.end();
  if (rows[0].n === 0) await seedBench(url, { runners: RUNNERS, jobs: 0 }, log);
  else if (rows[0].n !== RUNNERS) throw new Error(`${DB_NAME} holds ${rows[0].n} runners, not ${RUNNERS}: drop it to seed again`);
  await seedJobs(url);

  const runway = await startRunway(e);
  try {
    const base = `http://127.0.0.1:${port}`;
    for (const p of ENDPOINTS) for (let i = 0; i < 3; i++) await timed(base + p, token); // warm-up
    log(`\n${RUNNERS.toLocaleString('en-US')} runners, ${JOBS.toLocaleString('en-US')} jobs, ${ROUNDS} rounds, one client`);
    const worst: number[] = [];
    for (const p of ENDPOINTS) {
      const ms: number[] = [];
      for (let i = 0; i < ROUNDS; i++) ms.push(await timed(base + p, token));
      const s = stats(ms);
      worst.push(s.max);
      console.log(`${`GET ${p.replace('/api/v4', '')}`.padEnd(46)} ${fmt(s)}`);
    }
    const page: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      await Promise.all(ENDPOINTS.map((p) => timed(base + p, token)));
      page.push(performance.now() - t);
    }
    const ps = stats(page);
    console.log(`${'the page: all four at once'.padEnd(46)} ${fmt(ps)}`);
    const verdict = Math.max(...worst, ps.p90) < 500 ? 'under' : 'NOT under';
    console.log(`\nslowest single call ${Math.max(...worst).toFixed(0)} ms, page p90 ${ps.p90.toFixed(0)} ms: ${verdict} the 500 ms target`);
  } finally {
    await stop(runway);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
