// Runner API benchmark: `npm run bench:runners` (needs a production build: RUNWAY_DIST_DIR, default .next).
// Seeds 100,000 runners (tags, managers, project links) and 1,000,000 jobs into a dedicated database on the
// DATABASE_URL server, starts Runway and a plain node:http + pg baseline on loopback, loads both with
// autocannon for a bounded time per scenario (after a 2 s pass over every route), and prints throughput, p50/p90/p99 and the Runway/baseline
// ratio. Then it repeats the list and details scenarios against 1,000 runners to show how latency scales.
// The runner-facing scenarios (verify, jobs/request) are also run against a second Runway with the
// runner fast path off (RUNWAY_RUNNER_FAST_PATH=false), so one run shows both ways in beside the baseline.
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_RUNNERS, BENCH_JOBS,
// BENCH_ONLY (run only the scenarios whose name contains it, e.g. `POST`), BENCH_SKIP_SCALING=1,
// BENCH_ROUNDS (rounds of the runner-poll scenarios; the median round is reported).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cpuTime, ensureDatabase, freePort, ROOT, rootToken, runwayEnv, startRunway, stop } from './runway-process';
import { seedBench, type BenchData } from './runners-seed';
import { load as loadScenario, scenarios as allScenarios, type Figures, type Scenario } from './api-scenarios';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const ONLY = process.env.BENCH_ONLY ?? '';
const SKIP_SCALING = process.env.BENCH_SKIP_SCALING === '1';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const log = (s: string) => process.stderr.write(`${s}\n`);
const scenarios = (d: BenchData) => allScenarios(d, ONLY);

/** Like load(), plus the CPU time the serving process spent per request (robust on a shared machine). */
async function loadWithCpu(pid: number, port: number, s: Scenario, token: string): Promise<Figures> {
  const before = cpuTime(pid);
  let requests = 0;
  const f = await load(port, s, token, DURATION, (n) => (requests = n));
  return { ...f, cpu: requests ? (cpuTime(pid) - before) / requests : undefined };
}

/** The baseline (bench/baseline-server.ts) in a process of its own. */
async function startBaselineProcess(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'baseline-main.ts'), databaseUrl, String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`baseline exited (${code})`)));
  });
  return child;
}

function load(port: number, s: Scenario, token: string, duration = DURATION, total?: (requests: number) => void): Promise<Figures> {
  return loadScenario(port, s, token, { duration, connections: CONNECTIONS, total });
}

const cpuText = (f: Figures) => (f.cpu === undefined ? '' : `${f.cpu.toFixed(2)} ms CPU/req`);
const fmt = (f: Figures) =>
  `${cpuText(f)}  ${f.rps.toFixed(0).padStart(7)} req/s  p50 ${String(f.p50).padStart(4)} ms  p90 ${String(f.p90).padStart(4)} ms  p99 ${String(f.p99).padStart(4)} ms${f.errors ? `  (${f.errors} non-2xx/errors)` : ''}`;

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
  const baseline = await startBaselineProcess(bigUrl, basePort);
  const rows: { name: string; runway: Figures; baseline: Figures; viaNext?: Figures }[] = [];
  try {
    // Every route once before any figure: Next.js loads a route's bundle on its first request, and the
    // JIT tiers up shared code (handler, Prisma) across all of them.
    for (const s of scenarios(data)) await load(port, s, token, 2);
    for (const s of scenarios(data)) {
      await load(port, s, token, 5); // warm-up (JIT, connection pools, Prisma engine, plan cache)
      await load(basePort, s, token, 5);
      if (s.runnerAuth) await load(nextPort, s, token, 5);
      // Runner polls: BENCH_ROUNDS back-to-back rounds of Runway, baseline and fast path off, keeping the
      // round with the median ratio (on a shared machine the load changes between minutes, not seconds).
      const rounds: { rw: Figures; bl: Figures; nx?: Figures }[] = [];
      for (let i = 0; i < (s.runnerAuth ? ROUNDS : 1); i++) {
        const rw = await loadWithCpu(runway.pid!, port, s, token);
        const bl = await loadWithCpu(baseline.pid!, basePort, s, token);
        const nx = s.runnerAuth ? await loadWithCpu(viaNext.pid!, nextPort, s, token) : undefined;
        rounds.push({ rw, bl, nx });
        if (ROUNDS > 1 && s.runnerAuth)
          log(
            `  round ${i + 1}: ${(rw.rps / bl.rps).toFixed(2)} of baseline req/s, CPU/req ${rw.cpu?.toFixed(2)} vs ${bl.cpu?.toFixed(2)} ms (fast path off ${nx?.cpu?.toFixed(2)} ms)`,
          );
      }
      rounds.sort((x, y) => x.rw.rps / x.bl.rps - y.rw.rps / y.bl.rps);
      const { rw, bl, nx } = rounds[Math.floor(rounds.length / 2)];
      rows.push({ name: s.name, runway: rw, baseline: bl, viaNext: nx });
      log(`${s.name}\n  runway   ${fmt(rw)}\n  baseline ${fmt(bl)}\n  ratio    ${(rw.rps / bl.rps).toFixed(2)} of baseline throughput`);
      if (nx) log(`  fast path off ${fmt(nx)}  (${(nx.rps / bl.rps).toFixed(2)} of baseline)`);
    }
  } finally {
    await stop(runway);
    await stop(viaNext);
    await stop(baseline);
  }

  const cpuCell = (f: Figures) => (f.cpu === undefined ? '' : f.cpu.toFixed(2));
  const cpuRatio = (rw: Figures, bl: Figures) => (rw.cpu && bl.cpu ? (bl.cpu / rw.cpu).toFixed(2) : '');
  console.log(
    '\n| scenario | Runway req/s | p50 / p90 / p99 ms | CPU ms/req | baseline req/s | p50 / p90 / p99 ms | CPU ms/req | Runway/baseline req/s | baseline/Runway CPU per req |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const b = r.baseline;
    console.log(
      `| ${r.name} | ${r.runway.rps.toFixed(0)} | ${r.runway.p50} / ${r.runway.p90} / ${r.runway.p99} | ${cpuCell(r.runway)} | ${b.rps.toFixed(0)} | ${b.p50} / ${b.p90} / ${b.p99} | ${cpuCell(b)} | ${(r.runway.rps / b.rps).toFixed(2)} | ${cpuRatio(r.runway, b)} |`,
    );
    const n = r.viaNext;
    if (n)
      console.log(
        `| ${r.name} (fast path off) | ${n.rps.toFixed(0)} | ${n.p50} / ${n.p90} / ${n.p99} | ${cpuCell(n)} | | | | ${(n.rps / b.rps).toFixed(2)} | ${cpuRatio(n, b)} |`,
      );
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
  for (const s of scaling)
    console.log(`| ${s.name} | ${s.small.p50} / ${s.small.p99}, ${s.small.rps.toFixed(0)} | ${s.large.p50} / ${s.large.p99}, ${s.large.rps.toFixed(0)} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
