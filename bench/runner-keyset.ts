// Offset against keyset pages of the runner list, deep in a large fleet: the statement Runway runs for
// `GET /runners/all?page=N` (with its capped count) and for `?pagination=keyset&id_after=<id>` (no count, no
// OFFSET), timed client-side at several depths. `DATABASE_URL=<server> npx tsx bench/runner-keyset.ts`
// (BENCH_KEYSET_RUNNERS, default 100,000; BENCH_KEEP=1 keeps the database for reruns).
import pg from 'pg';
import { runnerPageSql, type RunnerFilters, type RunnerOrder } from '../lib/runners/queries';
import { ensureDatabase, freePort, rootToken, runwayEnv, serverUrl } from './runway-process';
import { seedBench } from './runners-seed';

const RUNNERS = Number(process.env.BENCH_KEYSET_RUNNERS ?? 100_000);
const NAME = `runway_bench_keyset_${RUNNERS}`;
const PER_PAGE = 100;
const log = (s: string) => console.log(s);

async function median(c: pg.Client, q: { text: string; values: unknown[] }): Promise<number> {
  await c.query(q); // warm the cache as a served list would
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = process.hrtime.bigint();
    await c.query(q);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times.sort((a, b) => a - b)[4];
}

async function main() {
  const url = await ensureDatabase(NAME);
  rootToken(runwayEnv(url, await freePort())); // migrates and bootstraps root
  await seedBench(url, { runners: RUNNERS, jobs: 0 }, log);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('SET max_parallel_workers_per_gather = 0');
  const order: RunnerOrder = { by: 'id', dir: 'asc' };
  const filters: Array<[string, RunnerFilters]> = [
    ['all', {}],
    ['status=offline', { status: 'offline' }],
    ['paused=false', { paused: false }],
  ];
  log(`\n${RUNNERS} runners, per_page ${PER_PAGE}, median of 9 (ms): offset page (with capped count) | keyset page`);
  for (const [name, f] of filters) {
    for (const depth of [0, 1_000, 10_000, Math.floor(RUNNERS * 0.5), Math.floor(RUNNERS * 0.9)]) {
      const offset = runnerPageSql({ kind: 'all' }, f, depth, PER_PAGE + 1, order);
      const rows = await c.query({ text: offset.text, values: offset.values as unknown[] });
      // The cursor a keyset walk would hold at that depth: the id before the page.
      const previous = runnerPageSql({ kind: 'all' }, f, depth - 1, 1, order);
      const before = depth ? (await c.query({ text: previous.text, values: previous.values as unknown[] })).rows[0]?.id : undefined;
      if (depth && before === undefined) continue; // fewer matches than the depth
      const keyset = runnerPageSql({ kind: 'all' }, { ...f, idAfter: before }, 0, PER_PAGE + 1, order, false);
      const same =
        (await c.query({ text: keyset.text, values: keyset.values as unknown[] })).rows.map((r) => r.id).join() === rows.rows.map((r) => r.id).join();
      const a = await median(c, { text: offset.text, values: offset.values as unknown[] });
      const b = await median(c, { text: keyset.text, values: keyset.values as unknown[] });
      log(
        `  ${name.padEnd(15)} depth ${String(depth).padStart(7)}: offset ${a.toFixed(1).padStart(7)} | keyset ${b.toFixed(1).padStart(6)}${same ? '' : '  (pages differ!)'}`,
      );
    }
  }
  await c.end();
  if (process.env.BENCH_KEEP !== '1') {
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE "${NAME}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
