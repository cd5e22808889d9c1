// Fleet alert check benchmark: `npm run bench:runner-alerts`. Seeds a dedicated database on the DATABASE_URL
// server with 100,000 runners (bench/runners-seed.ts: every type and status, tags) and 1,000,000 jobs over
// 30 days (3% still pending, the others started after a varied queue wait), then times check cycles of the
// four rule kinds (lib/fleet-alerts/evaluate.ts, the worker's code, run in this process): each kind alone
// and a cycle of all four, with the rules set so that every cycle fires or clears (the writes measured too).
// Env: BENCH_RUNNERS (default 100000), BENCH_JOBS (default 1000000), BENCH_ROUNDS (default 20).
import os from 'node:os';
import pg from 'pg';
import { seedBench } from './runners-seed';
import { ensureDatabase, freePort, rootToken, runwayEnv } from './runway-process';

const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const DB_NAME = 'runway_bench_alerts';
const log = (s: string) => process.stderr.write(`${s}\n`);

/** 1,000,000 jobs over 30 days on a tenth of the fleet; started ones waited 0-100 s (1% 10 minutes more). */
async function seedJobs(c: pg.Client): Promise<void> {
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
         j AS (SELECT g, now() - (g % 43200) * interval '1 minute' AS created,
                      ((g::bigint * 7919) % 1000) / 10.0 + CASE WHEN g % 97 = 0 THEN 600 ELSE 0 END AS wait
                 FROM generate_series(1, $1::int) g)
    INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, created_at, started_at, queued_duration)
    SELECT CASE WHEN g % 33 = 0 THEN NULL ELSE rs.a[1 + (g * 31) % (array_length(rs.a, 1) / 10)] END,
           pl.projects[1 + g % array_length(pl.ids, 1)], pl.ids[1 + g % array_length(pl.ids, 1)],
           CASE WHEN g % 33 = 0 THEN 'pending' ELSE 'success' END, 'test', 'job ' || (g % 20), 'main', created,
           CASE WHEN g % 33 = 0 THEN NULL ELSE created + wait * interval '1 second' END,
           CASE WHEN g % 33 = 0 THEN NULL ELSE wait END
      FROM j, rs, pl`,
    [JOBS],
  );
  await c.query('VACUUM ANALYZE');
  log(`  jobs: ${JOBS} in ${((Date.now() - t) / 1000).toFixed(1)}s`);
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
}
const fmt = (x: { p50: number; max: number }) => `p50 ${x.p50.toFixed(1).padStart(6)} ms  max ${x.max.toFixed(1).padStart(6)} ms`;

async function main() {
  const url = await ensureDatabase(DB_NAME);
  const e = runwayEnv(url, await freePort());
  rootToken(e); // migrates and makes root
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`SELECT count(*)::int AS n FROM ci_runners`);
  if (rows[0].n === 0) await seedBench(url, { runners: RUNNERS, jobs: 0 }, log);
  else if (rows[0].n !== RUNNERS) throw new Error(`${DB_NAME} holds ${rows[0].n} runners, not ${RUNNERS}: drop it to seed again`);
  await seedJobs(c);
  const [{ tag }] = (
    await c.query(`SELECT t.name AS tag FROM tags t JOIN ci_runner_taggings x ON x.tag_id = t.id GROUP BY t.name ORDER BY count(*) DESC LIMIT 1`)
  ).rows as { tag: string }[];

  // The worker's code in this process, on the bench database.
  process.env.DATABASE_URL = url;
  process.env.NEXTAUTH_SECRET = e.NEXTAUTH_SECRET;
  process.env.RUNWAY_LOG_LEVEL = 'warn';
  const { db, disconnectDb } = await import('../lib/db/client');
  const { checkAlertRules } = await import('../lib/fleet-alerts/evaluate');
  await db().runnerAlertRule.deleteMany({});
  const kinds = [
    { name: 'online share of instance runners', kind: 'online_share_below', threshold: 80, runnerType: 'instance_type' as const },
    { name: 'went offline (all runners)', kind: 'went_offline', threshold: 0, windowMinutes: 10 },
    { name: `no online runner tagged ${tag}`, kind: 'tag_without_online_runner', tag },
    { name: 'queue wait p95 (60 min)', kind: 'queue_wait_p95_above', threshold: 60, windowMinutes: 60 },
  ];
  const created = [];
  for (const k of kinds) created.push(await db().runnerAlertRule.create({ data: { ...k, enabled: false } }));
  log(
    `\n${RUNNERS.toLocaleString('en-US')} runners, ${JOBS.toLocaleString('en-US')} jobs, ${ROUNDS} cycles each; load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );

  const cycle = async () => {
    // Flip every rule's state first, so each cycle fires or clears (its writes, audit and webhook rows timed too).
    await c.query(`UPDATE runner_alert_rules SET state = CASE WHEN state = 'firing' THEN 'ok' ELSE 'firing' END`);
    const r = (await checkAlertRules({ force: true }))!;
    return r.seconds * 1000;
  };
  const results: string[] = [];
  for (const rule of created) {
    await c.query(`UPDATE runner_alert_rules SET enabled = (id = $1)`, [rule.id]);
    await cycle(); // warm-up
    const ms: number[] = [];
    for (let i = 0; i < ROUNDS; i++) ms.push(await cycle());
    const [{ value }] = (await c.query(`SELECT last_value AS value FROM runner_alert_rules WHERE id = $1`, [rule.id])).rows;
    results.push(`${rule.kind.padEnd(26)} ${fmt(stats(ms))}   (value ${Number(value).toFixed(1)})`);
  }
  await c.query(`UPDATE runner_alert_rules SET enabled = true`);
  await cycle();
  const all: number[] = [];
  for (let i = 0; i < ROUNDS; i++) all.push(await cycle());
  for (const line of results) console.log(line);
  console.log(`${'a cycle of all four'.padEnd(26)} ${fmt(stats(all))}`);
  console.log(
    `load after: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
  await db().runnerAlertRule.deleteMany({});
  await disconnectDb();
  await c.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
