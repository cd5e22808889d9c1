// Runner API benchmark: `npm run bench:runners` (needs a production build: RUNWAY_DIST_DIR, default .next).
// Seeds 100,000 runners (tags, managers, project links) and 1,000,000 jobs into a dedicated database on the
// DATABASE_URL server, starts Runway and a plain node:http + pg baseline on loopback, loads both with
// autocannon for a bounded time per scenario (after a 2 s pass over every route), and prints throughput, p50/p90/p99 and the Runway/baseline
// ratio. Then it repeats the list and details scenarios against 1,000 runners to show how latency scales.
// The runner-facing scenarios (verify, jobs/request) are also run against a second Runway with the
// runner fast path off (RUNWAY_RUNNER_FAST_PATH=false), so one run shows both ways in beside the baseline.
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_RUNNERS, BENCH_JOBS,
// BENCH_ONLY (run only the scenarios whose name contains it, e.g. `POST`), BENCH_SKIP_SCALING=1.
import { createRequire } from 'node:module';
import { startBaseline } from './baseline-server';
import { ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './harness';
import { seedBench, type BenchData } from './runners-seed';

const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<any>;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const ONLY = process.env.BENCH_ONLY ?? '';
const SKIP_SCALING = process.env.BENCH_SKIP_SCALING === '1';
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const log = (s: string) => process.stderr.write(`${s}\n`);

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Runner-facing endpoints authenticate with the runner token in the body; gitlab-runner sends no PRIVATE-TOKEN. */
  runnerAuth?: boolean;
}

function scenarios(d: BenchData): Scenario[] {
  const runnerBody = (sys: string) => ({ token: d.hotRunnerToken, system_id: sys, info: { name: 'bench', version: '18.1.2', platform: 'linux', architecture: 'amd64' } });
  const all: Scenario[] = [
    { name: 'GET /runners/all?per_page=20', method: 'GET', path: '/api/v4/runners/all?per_page=20' },
    { name: 'GET /runners/all?status=online', method: 'GET', path: '/api/v4/runners/all?per_page=20&status=online' },
    { name: `GET /runners/all?tag_list=${d.tag},tag-8`, method: 'GET', path: `/api/v4/runners/all?per_page=20&tag_list=${d.tag},tag-8` },
    { name: 'GET /runners/all?type=group_type', method: 'GET', path: '/api/v4/runners/all?per_page=20&type=group_type' },
    { name: 'GET /runners/:id', method: 'GET', path: `/api/v4/runners/${d.hotRunnerId}` },
    { name: 'GET /runners/:id/jobs', method: 'GET', path: `/api/v4/runners/${d.hotRunnerId}/jobs?per_page=20` },
    { name: 'POST /runners/verify', method: 'POST', path: '/api/v4/runners/verify', body: runnerBody('s_benchverify1'), runnerAuth: true },
    { name: 'POST /jobs/request', method: 'POST', path: '/api/v4/jobs/request', body: runnerBody('s_benchrequest'), runnerAuth: true },
  ];
  return all.filter((s) => s.name.includes(ONLY));
}

interface Figures {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
}

async function load(port: number, s: Scenario, token: string, duration = DURATION): Promise<Figures> {
  const headers: Record<string, string> = s.runnerAuth ? {} : { 'PRIVATE-TOKEN': token };
  if (s.body) headers['Content-Type'] = 'application/json';
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${s.path}`, method: s.method, headers, body: s.body ? JSON.stringify(s.body) : undefined,
    connections: CONNECTIONS, duration,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

const fmt = (f: Figures) => `${f.rps.toFixed(0).padStart(7)} req/s  p50 ${String(f.p50).padStart(4)} ms  p90 ${String(f.p90).padStart(4)} ms  p99 ${String(f.p99).padStart(4)} ms${f.errors ? `  (${f.errors} non-2xx/errors)` : ''}`;

async function main() {
  log(`runner benchmark: ${RUNNERS} runners, ${JOBS} jobs, ${CONNECTIONS} connections, ${DURATION}s per scenario`);
  const bigUrl = await ensureDatabase('runway_bench_runners_large');
  const port = await freePort();
  const env = runwayEnv(bigUrl, port);
  const token = rootToken(env);
  const data = await seedBench(bigUrl, { runners: RUNNERS, jobs: JOBS }, log);
  const runway = await startRunway(env);
  // The same Runway code with the runner fast path off: the runner routes through Next.js's router.
  const nextPort = await freePort();
  const viaNext = await startRunway({ ...runwayEnv(bigUrl, nextPort), RUNWAY_RUNNER_FAST_PATH: 'false' });
  const basePort = await freePort();
  const baseline = await startBaseline(bigUrl, basePort);
  const rows: { name: string; runway: Figures; baseline: Figures; viaNext?: Figures }[] = [];
  try {
    // Every route once before any figure: Next.js loads a route's bundle on its first request, and the
    // JIT tiers up shared code (handler, Prisma) across all of them.
    for (const s of scenarios(data)) await load(port, s, token, 2);
    for (const s of scenarios(data)) {
      await load(port, s, token, 5); // warm-up (JIT, connection pools, Prisma engine, plan cache)
      const rw = await load(port, s, token);
      await load(basePort, s, token, 5);
      const bl = await load(basePort, s, token);
      let nx: Figures | undefined;
      if (s.runnerAuth) {
        await load(nextPort, s, token, 5);
        nx = await load(nextPort, s, token);
      }
      rows.push({ name: s.name, runway: rw, baseline: bl, viaNext: nx });
      log(`${s.name}\n  runway   ${fmt(rw)}\n  baseline ${fmt(bl)}\n  ratio    ${(rw.rps / bl.rps).toFixed(2)} of baseline throughput`);
      if (nx) log(`  fast path off ${fmt(nx)}  (${(nx.rps / bl.rps).toFixed(2)} of baseline)`);
    }
  } finally {
    await stop(runway);
    await stop(viaNext);
    await new Promise((r) => baseline.close(() => r(null)));
  }

  console.log('\n| scenario | Runway req/s | p50 / p90 / p99 ms | baseline req/s | p50 / p90 / p99 ms | Runway/baseline |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.runway.rps.toFixed(0)} | ${r.runway.p50} / ${r.runway.p90} / ${r.runway.p99} | ${r.baseline.rps.toFixed(0)} | ${r.baseline.p50} / ${r.baseline.p90} / ${r.baseline.p99} | ${(r.runway.rps / r.baseline.rps).toFixed(2)} |`);
    const n = r.viaNext;
    if (n) console.log(`| ${r.name} (fast path off) | ${n.rps.toFixed(0)} | ${n.p50} / ${n.p90} / ${n.p99} | | | ${(n.rps / r.baseline.rps).toFixed(2)} |`);
  }
  if (SKIP_SCALING) return;

  // Scaling: the same list/details scenarios against 1,000 runners.
  const smallUrl = await ensureDatabase('runway_bench_runners_small');
  const smallPort = await freePort();
  const smallEnv = runwayEnv(smallUrl, smallPort);
  const smallToken = rootToken(smallEnv);
  const small = await seedBench(smallUrl, { runners: 1_000, jobs: 20_000 }, log);
  const smallRunway = await startRunway(smallEnv);
  const scaling: { name: string; small: Figures; large: Figures }[] = [];
  try {
    for (const s of scenarios(small).filter((s) => !s.runnerAuth)) await load(smallPort, s, smallToken, 2);
    for (const s of scenarios(small).filter((s) => !s.runnerAuth)) {
      await load(smallPort, s, smallToken, 5);
      const f = await load(smallPort, s, smallToken);
      scaling.push({ name: s.name, small: f, large: rows.find((r) => r.name === s.name)?.runway ?? f });
    }
  } finally {
    await stop(smallRunway);
  }

  console.log('\n| scenario (Runway) | 1,000 runners p50 / p99 ms, req/s | 100,000 runners p50 / p99 ms, req/s |');
  console.log('|---|---:|---:|');
  for (const s of scaling) console.log(`| ${s.name} | ${s.small.p50} / ${s.small.p99}, ${s.small.rps.toFixed(0)} | ${s.large.p50} / ${s.large.p99}, ${s.large.rps.toFixed(0)} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
