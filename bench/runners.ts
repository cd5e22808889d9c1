// Runner API benchmark: `npm run bench:runners` (needs a production build: RUNWAY_DIST_DIR, default .next).
// Seeds 100,000 runners (tags, managers, project links) and 1,000,000 jobs into a dedicated database on the
// DATABASE_URL server, starts Runway and a plain node:http + pg baseline on loopback, loads both with
// autocannon for a bounded time per scenario (after a 2 s pass over every route), and prints throughput, p50/p90/p99 and the Runway/baseline
// ratio. Then it repeats the list and details scenarios against 1,000 runners to show how latency scales.
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_RUNNERS, BENCH_JOBS.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startBaseline } from './baseline-server';
import { seedBench, type BenchData } from './runners-seed';

// The parts of autocannon's result the figures use (the package ships no types).
type AutocannonResult = { requests: { average: number }; latency: { p50: number; p90: number; p99: number }; non2xx: number; errors: number };
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 100_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const log = (s: string) => process.stderr.write(`${s}\n`);

function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL server (a dedicated bench database is created on it)');
  return url;
}

async function ensureDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(serverUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function runwayEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    INITIAL_ROOT_PASSWORD: 'runway-bench-root-password',
    NEXTAUTH_SECRET: 'runway-bench-secret-0123456789abcdef0123456789',
    RUNWAY_DEMO: 'false',
    RUNWAY_LOG_LEVEL: 'warn',
    RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
  };
}

/** Migrates the database and returns a root token (the CLI bootstraps root). */
function rootToken(env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'create-token', '--username', 'root', '--scopes', 'api', '--name', `bench-${Date.now()}`], {
    env, encoding: 'utf8', cwd: ROOT,
  });
  if (r.status !== 0) throw new Error(`create-token failed: ${r.stderr}`);
  return r.stdout.trim();
}

async function startRunway(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'start'], { env, cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`runway exited: ${err}`);
    if (await fetch(`http://127.0.0.1:${env.PORT}/-/liveness`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGKILL');
  throw new Error('runway did not start');
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000);
  });
}

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
  return [
    { name: 'GET /runners/all?per_page=20', method: 'GET', path: '/api/v4/runners/all?per_page=20' },
    { name: 'GET /runners/all?status=online', method: 'GET', path: '/api/v4/runners/all?per_page=20&status=online' },
    { name: `GET /runners/all?tag_list=${d.tag},tag-8`, method: 'GET', path: `/api/v4/runners/all?per_page=20&tag_list=${d.tag},tag-8` },
    { name: 'GET /runners/all?type=group_type', method: 'GET', path: '/api/v4/runners/all?per_page=20&type=group_type' },
    { name: 'GET /runners/:id', method: 'GET', path: `/api/v4/runners/${d.hotRunnerId}` },
    { name: 'GET /runners/:id/jobs', method: 'GET', path: `/api/v4/runners/${d.hotRunnerId}/jobs?per_page=20` },
    { name: 'POST /runners/verify', method: 'POST', path: '/api/v4/runners/verify', body: runnerBody('s_benchverify1'), runnerAuth: true },
    { name: 'POST /jobs/request', method: 'POST', path: '/api/v4/jobs/request', body: runnerBody('s_benchrequest'), runnerAuth: true },
  ];
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
  const basePort = await freePort();
  const baseline = await startBaseline(bigUrl, basePort);
  const rows: { name: string; runway: Figures; baseline: Figures }[] = [];
  try {
    // Every route once before any figure: Next.js loads a route's bundle on its first request, and the
    // JIT tiers up shared code (handler, Prisma) across all of them.
    for (const s of scenarios(data)) await load(port, s, token, 2);
    for (const s of scenarios(data)) {
      await load(port, s, token, 5); // warm-up (JIT, connection pools, Prisma engine, plan cache)
      const rw = await load(port, s, token);
      await load(basePort, s, token, 5);
      const bl = await load(basePort, s, token);
      rows.push({ name: s.name, runway: rw, baseline: bl });
      log(`${s.name}\n  runway   ${fmt(rw)}\n  baseline ${fmt(bl)}\n  ratio    ${(rw.rps / bl.rps).toFixed(2)} of baseline throughput`);
    }
  } finally {
    await stop(runway);
    await new Promise((r) => baseline.close(() => r(null)));
  }

  // Scaling: the same list/details scenarios against 1,000 runners.
  const smallUrl = await ensureDatabase('runway_bench_runners_small');
  const smallPort = await freePort();
  const smallEnv = runwayEnv(smallUrl, smallPort);
  const smallToken = rootToken(smallEnv);
  const small = await seedBench(smallUrl, { runners: 1_000, jobs: 20_000 }, log);
  const smallRunway = await startRunway(smallEnv);
  const scaling: { name: string; small: Figures; large: Figures }[] = [];
  try {
    for (const s of scenarios(small).slice(0, 6)) await load(smallPort, s, smallToken, 2);
    for (const s of scenarios(small).slice(0, 6)) {
      await load(smallPort, s, smallToken, 5);
      const f = await load(smallPort, s, smallToken);
      scaling.push({ name: s.name, small: f, large: rows.find((r) => r.name === s.name)?.runway ?? f });
    }
  } finally {
    await stop(smallRunway);
  }

  console.log('\n| scenario | Runway req/s | p50 / p90 / p99 ms | baseline req/s | p50 / p90 / p99 ms | Runway/baseline |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.runway.rps.toFixed(0)} | ${r.runway.p50} / ${r.runway.p90} / ${r.runway.p99} | ${r.baseline.rps.toFixed(0)} | ${r.baseline.p50} / ${r.baseline.p90} / ${r.baseline.p99} | ${(r.runway.rps / r.baseline.rps).toFixed(2)} |`);
  }
  console.log('\n| scenario (Runway) | 1,000 runners p50 / p99 ms, req/s | 100,000 runners p50 / p99 ms, req/s |');
  console.log('|---|---:|---:|');
  for (const s of scaling) console.log(`| ${s.name} | ${s.small.p50} / ${s.small.p99}, ${s.small.rps.toFixed(0)} | ${s.large.p50} / ${s.large.p99}, ${s.large.rps.toFixed(0)} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
