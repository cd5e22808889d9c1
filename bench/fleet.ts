// Fleet benchmark: `npm run bench:fleet` (needs a production build: RUNWAY_DIST_DIR, default .next).
// Registers 100,000 runners (bench/runners-seed.ts) in a dedicated database, starts one Runway process with
// a raised file limit, and grows a fleet of simulated gitlab-runner processes against it, step by step:
// each runner polls POST /api/v4/jobs/request as gitlab-runner does (its JSON body with `info`, `token`,
// `system_id` and `last_update` = the previous answer's X-GitLab-Last-Update, the RUNNER-TOKEN header,
// keep-alive connection), then waits check_interval (3 s) with jitter before the next poll.
// For each step it reports polls/s, errors, the latency of answered polls, the Runway process's CPU and
// memory, database transactions per poll (pg_stat_database xact counts of the dedicated database, minus
// the dashboard's own and Runway's idle background work, both measured before the fleet starts), the
// dashboard runner list's p99 (GET /runners/all, what the admin page asks, sampled all along) and, with
// long polling on, how long after a pause a paused runner's held poll is answered. The run stops growing
// at the first step that is not served (a poll error, or a pause answered later than 1 s); the list's
// p99 (target: under 300 ms) is reported for every step.
// Each mode of RUNWAY_LONG_POLLING_SECONDS in BENCH_LONG_POLLING (default "50,0") gets its own Runway.
// Env: BENCH_FLEET_STEPS (default 1000,2500,5000,10000), BENCH_FLEET_SECONDS (measured window per step,
// default 30), BENCH_FLEET_RUNNERS (registered runners, default 100000), BENCH_FILE_LIMIT (default: the hard limit),
// BENCH_DB (default runway_bench_fleet_100k), BENCH_FLEET_DASHBOARD (default 1; 0 leaves the list out).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';
import { seedBench } from './runners-seed';
import { CHECK_INTERVAL_MS, newPollStats, percentile, processUsage, request as send, SimRunner, sleep } from './sim-runner';

const STEPS = (process.env.BENCH_FLEET_STEPS ?? '1000,2500,5000,10000').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_FLEET_SECONDS ?? 30);
const REGISTERED = Number(process.env.BENCH_FLEET_RUNNERS ?? 100_000);
const FILE_LIMIT = process.env.BENCH_FILE_LIMIT ? Number(process.env.BENCH_FILE_LIMIT) : 'hard';
const MODES = (process.env.BENCH_LONG_POLLING ?? '50,0').split(',').map(Number);
const DB = process.env.BENCH_DB ?? 'runway_bench_fleet_100k';
// BENCH_FLEET_DASHBOARD=0: no dashboard list during the steps, so the transactions counted are the polls'
// (and the background work's) alone, without the list's to subtract.
const DASHBOARD = process.env.BENCH_FLEET_DASHBOARD !== '0';
/** Longer than PostgreSQL's PGSTAT_IDLE_INTERVAL (10 s): every backend has reported its counts by then. */
const STATS_SETTLE_MS = 11_000;
const LIST_PATH = '/api/v4/runners/all?per_page=20';
const request = (port: number, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number) =>
  send({ port }, method, path, headers, body, timeoutMs, agent);
const log = (s: string) => process.stderr.write(`${s}\n`);

// The dashboard's connections. Each simulated runner has its own keep-alive agent with one socket, as each
// gitlab-runner process keeps its own connection (a shared pool would hand a socket idle for longer than
// the server's keep-alive timeout to another runner, and race the server closing it).
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

async function transactions(admin: pg.Client): Promise<number> {
  const r = await admin.query(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1`, [DB]);
  return Number(r.rows[0].n);
}

/** The dashboard's runner list, asked every 250 ms while the fleet polls. */
function dashboard(port: number, token: string) {
  const latencies: number[] = [];
  let errors = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = Date.now();
      try {
        const res = await request(port, 'GET', LIST_PATH, { 'private-token': token }, undefined, 120_000);
        if (res.status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(Date.now() - t0);
      await sleep(250);
    }
  })();
  return {
    take: () => ({ latencies: latencies.splice(0), errors: ((e) => ((errors = 0), e))(errors) }),
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** Pauses a runner whose poll is being held, times its answer, and unpauses it. */
async function pauseProbe(port: number, token: string, fleet: SimRunner[]): Promise<{ ms: number; putMs: number } | null> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const now = Date.now();
    const r = fleet.find((x) => x.inflight?.withLastUpdate && now - x.inflight.since > 2_000);
    if (r && r.inflight) {
      const answered = new Promise<number>((resolve) => (r.inflight!.answered = resolve));
      const t0 = Date.now();
      const put = await request(
        port,
        'PUT',
        `/api/v4/runners/${r.id}`,
        { 'private-token': token, 'content-type': 'application/json' },
        JSON.stringify({ paused: true }),
        30_000,
      );
      const paused = Date.now();
      if (put.status !== 200) throw new Error(`pausing runner ${r.id}: ${put.status} ${put.body}`);
      const at = await Promise.race([answered, sleep(10_000).then(() => NaN)]);
      await request(
        port,
        'PUT',
        `/api/v4/runners/${r.id}`,
        { 'private-token': token, 'content-type': 'application/json' },
        JSON.stringify({ paused: false }),
        30_000,
      );
      return { ms: at - paused, putMs: paused - t0 };
    }
    await sleep(200);
  }
  return null;
}

interface StepResult {
  mode: number;
  n: number;
  pollsPerS: number;
  errors: number;
  statuses: string;
  /** Polls answered before the hold time was up (with long polling off: every poll). */
  answered: number;
  answeredP50: number;
  answeredP99: number;
  held: number;
  cpuPct: number;
  rssMb: number;
  xactPerPoll: number;
  listP99: number;
  listErrors: number;
  pause: { ms: number; putMs: number } | null;
  ok: boolean;
}

async function runMode(holdSeconds: number, url: string, admin: pg.Client, runners: { id: number; n: number }[]): Promise<StepResult[]> {
  const port = await freePort();
  const env = { ...runwayEnv(url, port), RUNWAY_LONG_POLLING_SECONDS: String(holdSeconds) };
  const token = rootToken(env);
  const runway: ChildProcess = await startRunway(env, FILE_LIMIT);
  const pid = runway.pid!;
  const results: StepResult[] = [];
  const fleet: SimRunner[] = [];
  let stats = newPollStats();
  try {
    // What Runway spends with no fleet polling: its background work per second (idle), then the dashboard
    // list's own transactions per request. PostgreSQL 15+ backends report their counts when idle, but an
    // idle backend may hold them for up to 10 s (PGSTAT_IDLE_INTERVAL): each count is read after that.
    for (let i = 0; i < 5; i++) await request(port, 'GET', LIST_PATH, { 'private-token': token }, undefined, 120_000);
    await sleep(STATS_SETTLE_MS);
    const i0 = await transactions(admin);
    const idleStarted = Date.now();
    await sleep(2 * STATS_SETTLE_MS);
    const x0 = await transactions(admin);
    const idleXactsPerS = (x0 - i0) / ((Date.now() - idleStarted) / 1000);
    const listStarted = Date.now();
    for (let i = 0; i < 40; i++) await request(port, 'GET', LIST_PATH, { 'private-token': token }, undefined, 120_000);
    await sleep(STATS_SETTLE_MS);
    const listXacts = ((await transactions(admin)) - x0 - idleXactsPerS * ((Date.now() - listStarted) / 1000)) / 40;
    log(
      `long polling ${holdSeconds || 'off'}: idle, Runway runs ${idleXactsPerS.toFixed(2)} transactions per second; the runner list ${listXacts.toFixed(2)} per request`,
    );
    const board = DASHBOARD ? dashboard(port, token) : { take: () => ({ latencies: [] as number[], errors: 0 }), stop: async () => undefined };
    try {
      for (const n of STEPS) {
        if (n > runners.length) break;
        // New runners start over max(3 s, 1 s per 400): gitlab-runner processes do not all start at once.
        const ramp = Math.max(CHECK_INTERVAL_MS, ((n - fleet.length) / 400) * 1000);
        for (let i = fleet.length; i < n; i++) {
          const r = new SimRunner(runners[i].id, `bench-runner-${runners[i].n}`, `s_fleet${String(runners[i].n).padStart(8, '0')}`);
          fleet.push(r);
          r.start({ port }, holdSeconds, () => stats, Math.random() * ramp);
        }
        // Settle: every new runner has polled once and is in its cycle (held, or waiting check_interval),
        // and the counts of the first polls have been reported (they are not the steady state).
        await sleep(ramp + 2 * CHECK_INTERVAL_MS + STATS_SETTLE_MS);
        stats = newPollStats();
        board.take();
        const u0 = processUsage(pid);
        const t0 = Date.now();
        const xa = await transactions(admin);
        const pause = holdSeconds ? await pauseProbe(port, token, fleet) : null;
        await sleep(Math.max(0, WINDOW_S * 1000 - (Date.now() - t0)));
        const elapsed = (Date.now() - t0) / 1000;
        const u1 = processUsage(pid);
        const s = stats;
        const listed = board.take();
        // Counts not yet reported at either end of the window roughly cancel out in a steady fleet.
        const xb = await transactions(admin);
        // Transactions of the window less the dashboard's and the idle background work's (the pause
        // probe's two PUTs stay in: a handful).
        const pollXacts = xb - xa - listed.latencies.length * listXacts - idleXactsPerS * elapsed;
        const r: StepResult = {
          mode: holdSeconds,
          n,
          pollsPerS: s.polls / elapsed,
          errors: s.errors,
          statuses: Object.entries(s.statuses)
            .map(([k, v]) => `${k}:${v}`)
            .join(' '),
          answered: s.answered.length,
          answeredP50: percentile(s.answered, 50),
          answeredP99: percentile(s.answered, 99),
          held: s.held,
          cpuPct: ((u1.cpuS - u0.cpuS) / elapsed) * 100,
          rssMb: u1.rssMb,
          xactPerPoll: s.polls ? pollXacts / s.polls : NaN,
          listP99: percentile(listed.latencies, 99),
          listErrors: listed.errors,
          pause,
          ok: false,
        };
        // Served: no poll failed and a pause reached its held poll within 1 s. The list's p99 is reported
        // beside it (on a machine loaded by other work it can miss while the fleet is served).
        r.ok = r.errors === 0 && (!holdSeconds || (r.pause !== null && r.pause.ms <= 1_000));
        results.push(r);
        log(
          `long polling ${holdSeconds || 'off'}, ${n} runners: ${r.pollsPerS.toFixed(0)} polls/s, ${r.errors} errors [${r.statuses}]` +
            `${s.errorSamples.length ? ` (${s.errorSamples.join('; ')})` : ''}, answered p50/p99 ${r.answeredP50}/${r.answeredP99} ms, ${r.held} held to the end,` +
            ` CPU ${r.cpuPct.toFixed(0)}%, RSS ${r.rssMb.toFixed(0)} MB, ${r.xactPerPoll.toFixed(2)} xact/poll, list p99 ${r.listP99} ms,` +
            ` pause answered ${r.pause ? `${r.pause.ms} ms after the PUT (PUT ${r.pause.putMs} ms)` : 'n/a'}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}` +
            `${r.ok ? '' : '  -> not served'}`,
        );
        if (!r.ok) break;
      }
    } finally {
      await board.stop();
    }
  } finally {
    for (const r of fleet) r.stopped = true;
    await stop(runway); // answers every held poll, so the loops end
    await Promise.race([Promise.all(fleet.map((r) => r.done)), sleep(15_000)]);
    for (const r of fleet) r.agent.destroy();
  }
  return results;
}

async function main() {
  const url = await ensureDatabase(DB);
  const seedPort = await freePort();
  rootToken(runwayEnv(url, seedPort)); // migrates and bootstraps root
  await seedBench(url, { runners: REGISTERED, jobs: 20_000 }, log);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const max = Math.max(...STEPS);
  // Active runners only (the seed pauses one in 17), in a fixed order.
  const runners = (
    await admin.query(
      `
    SELECT id, split_part(description, ' ', 3)::int AS n FROM ci_runners
     WHERE active AND description LIKE 'bench runner %' ORDER BY id LIMIT $1`,
      [max],
    )
  ).rows as { id: number; n: number }[];
  const all: StepResult[] = [];
  try {
    for (const mode of MODES) all.push(...(await runMode(mode, url, admin, runners)));
  } finally {
    await admin.end();
    agent.destroy();
  }
  console.log(
    `\nRegistered runners: ${REGISTERED.toLocaleString('en-US')}; window ${WINDOW_S} s per step; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end.`,
  );
  console.log(
    '\n| long polling | simulated runners | polls/s | errors | held to the end | answered before the hold time: n, p50 / p99 ms | Runway CPU | Runway RSS | DB xact per poll | list p99 ms (< 300) | paused poll answered after | served |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of all) {
    console.log(
      `| ${r.mode ? `${r.mode} s` : 'off'} | ${r.n.toLocaleString('en-US')} | ${r.pollsPerS.toFixed(0)} | ${r.errors} | ${r.mode ? r.held : 'n/a'} | ${r.answered}, ${r.answeredP50} / ${r.answeredP99} | ${r.cpuPct.toFixed(0)}% | ${r.rssMb.toFixed(0)} MB | ${r.xactPerPoll.toFixed(2)} | ${r.listP99} | ${r.pause ? `${r.pause.ms} ms` : 'n/a'} | ${r.ok ? 'yes' : 'no'} |`,
    );
  }
  for (const mode of MODES) {
    const best = all.filter((r) => r.mode === mode && r.ok).at(-1);
    console.log(
      `Long polling ${mode ? `${mode} s` : 'off'}: largest fleet served (no errors${mode ? ', pause within 1 s' : ''}): ${best ? best.n.toLocaleString('en-US') : 'none of the steps'}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
