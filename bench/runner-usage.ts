// Runner usage export benchmark: `npm run bench:runner-usage` (needs a production build: RUNWAY_DIST_DIR,
// default .next). Seeds a dedicated database on the DATABASE_URL server with 100,000 runners
// (bench/runners-seed.ts) and 1,000,000 jobs that finished in the last full month, spread over every runner
// and the seeded projects, starts Runway and downloads GET /runners/usage (the default period: that month)
// BENCH_ROUNDS times, timing the first byte and the whole file and sampling the server's resident memory
// (/proc/<pid>/status) every 50 ms. The export must hold one batch of runners at a time: its peak RSS
// should stay near the idle server's, whatever the number of jobs.
// Env: BENCH_RUNNERS (default 100000), BENCH_JOBS (default 1000000), BENCH_ROUNDS (default 3).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { seedBench } from './runners-seed';
import { ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';

const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DB_NAME = 'runway_bench_usage';
const log = (s: string) => process.stderr.write(`${s}\n`);

/** The jobs: all finished in the last full month (UTC), each runner some, one in 17 failed. */
async function seedJobs(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT count(*)::int AS jobs FROM ci_builds`);
    if (rows[0].jobs === JOBS) {
      log(`reusing ${rows[0].jobs} jobs`);
      return;
    }
    if (rows[0].jobs !== 0) throw new Error(`${DB_NAME} holds ${rows[0].jobs} jobs, not ${JOBS}: drop it to seed again`);
    const t = Date.now();
    await c.query(
      `
      WITH rs AS (SELECT array_agg(id ORDER BY id) a FROM ci_runners),
           pl AS (SELECT array_agg(id ORDER BY id) ids, array_agg(project_id ORDER BY id) projects FROM ci_pipelines),
           month AS (SELECT date_trunc('month', (now() AT TIME ZONE 'UTC') - interval '1 month') AT TIME ZONE 'UTC' AS start)
      INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, created_at, started_at, finished_at, queued_duration)
      SELECT rs.a[1 + (g::bigint * 7919) % array_length(rs.a, 1)],
             pl.projects[1 + g % array_length(pl.ids, 1)], pl.ids[1 + g % array_length(pl.ids, 1)],
             CASE WHEN g % 17 = 0 THEN 'failed' ELSE 'success' END, 'test', 'job ' || (g % 20), 'main',
             f - make_interval(secs => 60 + (g % 1740) + (g % 30)), f - make_interval(secs => 60 + (g % 1740)), f,
             (g % 600) / 10.0
        FROM generate_series(1, $1::int) g, rs, pl, month,
             LATERAL (SELECT month.start + make_interval(mins => (g % (28 * 1440))) AS f) fin`,
      [JOBS],
    );
    await c.query('VACUUM ANALYZE ci_builds');
    log(`  jobs: ${JOBS} in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  } finally {
    await c.end();
  }
}

const rssMiB = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function main() {
  const url = await ensureDatabase(DB_NAME);
  const port = await freePort();
  const e = runwayEnv(url, port);
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
    const idle = rssMiB(runway.pid!);
    log(
      `\n${RUNNERS.toLocaleString('en-US')} runners, ${JOBS.toLocaleString('en-US')} jobs last month; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    console.log(`idle server RSS ${idle.toFixed(0)} MiB`);
    for (let round = 1; round <= ROUNDS; round++) {
      let peak = rssMiB(runway.pid!);
      const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(runway.pid!))), 50);
      const t = performance.now();
      const res = await fetch(`${base}/api/v4/runners/usage`, { headers: { 'PRIVATE-TOKEN': token } });
      if (!res.ok) throw new Error(`GET /runners/usage: ${res.status} ${await res.text()}`);
      const reader = res.body!.getReader();
      let first = 0;
      let bytes = 0;
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - t;
        bytes += value.length;
        for (const b of value) if (b === 10) lines += 1;
      }
      const total = performance.now() - t;
      clearInterval(sampler);
      console.log(
        `round ${round}: ${(lines - 1).toLocaleString('en-US')} rows for ${res.headers.get('x-runway-usage-runners')} runners, ${(bytes / 1048576).toFixed(1)} MiB; ` +
          `first byte ${first.toFixed(0)} ms, whole file ${(total / 1000).toFixed(1)} s; server RSS peak ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)})`,
      );
    }
  } finally {
    await stop(runway);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
