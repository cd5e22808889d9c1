// A/B of the admin API between two checkouts on one bench database, for a shared or noisy machine, where
// two runs of `npm run bench:runners` minutes apart differ by more than a change: `BENCH_AB_OTHER=<the other
// checkout, built> npm run bench:api-ab`. Starts this checkout's Runway (A) and the other's (B) on the
// 100,000-runner database of bench:runners (seeded by it first), then runs each admin scenario in
// BENCH_ROUNDS rounds (default 3) that alternate the order (A B, B A, ...), so both see the same minutes of
// the machine. Prints, per scenario, each side's median throughput and CPU per request (the process's own,
// from /proc) and B/A. The other checkout must accept the database's migrations: an older main does (a
// migration it does not know stays applied; it applies none).
// Env: BENCH_AB_OTHER (required), BENCH_DURATION (s per load, default 10), BENCH_CONNECTIONS (default 10),
// BENCH_ONLY (scenario name filter), BENCH_ROUNDS.
import path from 'node:path';
import { load, scenarios, type Figures } from './api-scenarios';
import { seedBench } from './runners-seed';
import { cpuTime, ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';

const OTHER = process.env.BENCH_AB_OTHER;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const ONLY = process.env.BENCH_ONLY ?? '';
const log = (s: string) => process.stderr.write(`${s}\n`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!OTHER) throw new Error('BENCH_AB_OTHER: the path of the other checkout (built: node scripts/build.mjs there)');
  const url = await ensureDatabase('runway_bench_runners_large');
  const data = await seedBench(url, { runners: 100_000, jobs: 1_000_000 }, log);
  const sides = [
    { name: 'A', root: undefined as string | undefined },
    { name: 'B', root: path.resolve(OTHER) },
  ].map((s) => ({ ...s, port: 0, token: '', pid: 0 }));
  const children = [];
  try {
    for (const side of sides) {
      side.port = await freePort();
      const env = runwayEnv(url, side.port);
      side.token = rootToken(env, side.root);
      const child = await startRunway(env, undefined, [], side.root);
      children.push(child);
      side.pid = child.pid!;
    }
    const rows: { name: string; a: Figures[]; b: Figures[] }[] = [];
    for (const s of scenarios(data, ONLY).filter((x) => !x.runnerAuth)) {
      for (const side of sides) await load(side.port, s, side.token, { duration: 5, connections: CONNECTIONS }); // warm-up
      const row = { name: s.name, a: [] as Figures[], b: [] as Figures[] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 ? [...sides].reverse() : sides) {
          const before = cpuTime(side.pid);
          let requests = 0;
          const f = await load(side.port, s, side.token, { duration: DURATION, connections: CONNECTIONS, total: (n) => (requests = n) });
          f.cpu = requests ? (cpuTime(side.pid) - before) / requests : undefined;
          (side.name === 'A' ? row.a : row.b).push(f);
          log(`${s.name} round ${round + 1} ${side.name}: ${f.rps.toFixed(0)} req/s, ${f.cpu?.toFixed(2)} ms CPU/req`);
        }
      }
      rows.push(row);
    }
    console.log(`\nA: ${process.cwd()}  B: ${OTHER}  (${ROUNDS} alternating rounds of ${DURATION} s, medians)\n`);
    console.log('| scenario | A req/s | A CPU ms/req | B req/s | B CPU ms/req | A/B req/s | B/A CPU per req |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const [ar, br] = [median(r.a.map((f) => f.rps)), median(r.b.map((f) => f.rps))];
      const [ac, bc] = [median(r.a.map((f) => f.cpu ?? NaN)), median(r.b.map((f) => f.cpu ?? NaN))];
      console.log(
        `| ${r.name} | ${ar.toFixed(0)} | ${ac.toFixed(2)} | ${br.toFixed(0)} | ${bc.toFixed(2)} | ${(ar / br).toFixed(2)} | ${(bc / ac).toFixed(2)} |`,
      );
    }
  } finally {
    for (const c of children) await stop(c);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
