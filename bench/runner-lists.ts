// Runner list scaling: `npm run bench:runner-lists` (needs a production build: RUNWAY_DIST_DIR, default .next).
// Seeds 1,000, 100,000 and 1,000,000 runners (bench/runners-seed.ts; jobs do not grow with the fleet) into
// dedicated databases on the DATABASE_URL server, starts Runway on each in turn and loads every list filter
// (GET /runners/all, /runners, group and project runner lists; tag_list, status, paused, type, version
// prefix, search) with autocannon, then prints p50/p99 per size and the ratio to the 1,000-runner p50.
// Env: BENCH_DURATION (s, default 6), BENCH_CONNECTIONS (default 10), BENCH_SIZES (default
// 1000,100000,1000000), BENCH_DB_PREFIX (default runway_bench_lists), BENCH_ONLY (parts of scenario names).
import { createRequire } from 'node:module';
import { ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';
import { seedBench, type BenchData } from './runners-seed';

// The parts of autocannon's result the figures use (the package ships no types).
type AutocannonResult = { requests: { average: number; total: number }; latency: { p50: number; p90: number; p99: number }; non2xx: number; errors: number };
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SIZES = (process.env.BENCH_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const PREFIX = process.env.BENCH_DB_PREFIX ?? 'runway_bench_lists';
/** BENCH_ONLY: comma-separated parts of scenario names; only those scenarios run. */
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const selected = (d: BenchData) => scenarios(d).filter((s) => !ONLY || ONLY.some((part) => s.name.includes(part)));
// Jobs are only there so the running-job probes see a realistic table; they stay fixed as runners grow.
const jobsFor = (runners: number) => Math.min(100_000, runners * 20);
const log = (s: string) => process.stderr.write(`${s}\n`);

function scenarios(d: BenchData): { name: string; path: string }[] {
  const all = '/api/v4/runners/all?per_page=20';
  return [
    { name: 'GET /runners/all', path: all },
    { name: 'GET /runners/all?status=online', path: `${all}&status=online` },
    { name: 'GET /runners/all?status=offline', path: `${all}&status=offline` },
    { name: 'GET /runners/all?status=never_contacted', path: `${all}&status=never_contacted` },
    { name: 'GET /runners/all?status=stale', path: `${all}&status=stale` },
    { name: 'GET /runners/all?paused=true', path: `${all}&paused=true` },
    { name: 'GET /runners/all?type=group_type', path: `${all}&type=group_type` },
    { name: 'GET /runners/all?tag_list=tag-7', path: `${all}&tag_list=tag-7` },
    { name: 'GET /runners/all?tag_list=tag-7,tag-8', path: `${all}&tag_list=tag-7,tag-8` },
    { name: 'GET /runners/all?tag_list=tag-7,tag-8,tag-9', path: `${all}&tag_list=tag-7,tag-8,tag-9` },
    { name: 'GET /runners/all?tag_list=tag-7&status=online', path: `${all}&tag_list=tag-7&status=online` },
    { name: 'GET /runners/all?version_prefix=16.1', path: `${all}&version_prefix=16.1` },
    { name: 'GET /runners/all?search=runner 4', path: `${all}&search=runner%204` },
    { name: 'GET /runners (owned, admin)', path: '/api/v4/runners?per_page=20' },
    { name: 'GET /groups/:id/runners', path: `/api/v4/groups/${d.groupId}/runners?per_page=20` },
    { name: 'GET /groups/:id/runners?tag_list=tag-7,tag-8', path: `/api/v4/groups/${d.groupId}/runners?per_page=20&tag_list=tag-7,tag-8` },
    { name: 'GET /projects/:id/runners', path: `/api/v4/projects/${d.projectId}/runners?per_page=20` },
    { name: 'GET /projects/:id/runners?tag_list=tag-7,tag-8', path: `/api/v4/projects/${d.projectId}/runners?per_page=20&tag_list=tag-7,tag-8` },
  ];
}

interface Figures {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  total: string | null;
}

async function measure(port: number, path: string, token: string, duration: number): Promise<Figures> {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers: { 'PRIVATE-TOKEN': token }, connections: CONNECTIONS, duration });
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'PRIVATE-TOKEN': token } });
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.non2xx + r.errors, total: res.headers.get('x-total') };
}

async function main() {
  const results = new Map<number, Map<string, Figures>>();
  for (const size of SIZES) {
    const url = await ensureDatabase(`${PREFIX}_${size}`);
    const port = await freePort();
    const env = runwayEnv(url, port);
    const token = rootToken(env);
    const data = await seedBench(url, { runners: size, jobs: jobsFor(size) }, log);
    const runway = await startRunway(env);
    const figures = new Map<string, Figures>();
    try {
      for (const s of selected(data)) await measure(port, s.path, token, 1); // load every route once
      for (const s of selected(data)) {
        await measure(port, s.path, token, 2); // warm-up: JIT, pools, plan cache
        const f = await measure(port, s.path, token, DURATION);
        figures.set(s.name, f);
        log(
          `${size} runners  ${s.name}: p50 ${f.p50} ms  p99 ${f.p99} ms  ${f.rps.toFixed(0)} req/s  X-Total ${f.total ?? '(none)'}${f.errors ? `  ${f.errors} errors` : ''}`,
        );
      }
    } finally {
      await stop(runway);
    }
    results.set(size, figures);
  }
  const base = results.get(SIZES[0])!;
  console.log(
    `\n| scenario | ${SIZES.map((n) => `${n.toLocaleString('en-US')} runners p50 / p99 ms`).join(' | ')} | ${SIZES.slice(1)
      .map((n) => `p50 ratio ${n.toLocaleString('en-US')}`)
      .join(' | ')} |`,
  );
  console.log(
    `|---|${SIZES.map(() => '---:').join('|')}|${SIZES.slice(1)
      .map(() => '---:')
      .join('|')}|`,
  );
  for (const name of base.keys()) {
    const cells = SIZES.map((n) => results.get(n)!.get(name)!).map((f) => `${f.p50} / ${f.p99}`);
    const ratios = SIZES.slice(1).map((n) => (results.get(n)!.get(name)!.p50 / base.get(name)!.p50).toFixed(2));
    console.log(`| ${name} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
