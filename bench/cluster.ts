// Cluster benchmark: `npm run bench:cluster` (needs the production artifact: `npm run package` first).
// On this machine and on loopback only, it starts a PostgreSQL server of its own, PgBouncer (transaction
// pooling) and HAProxy configured as docs/operations.md says (deploy/), and 3 Runway instances from dist/;
// registers 100,000 runners; grows a simulated gitlab-runner fleet through HAProxy (long polling,
// check_interval 3 s, the agent's retry rules) step by step; holds a dashboard client on the live event
// stream reading the runner list, and a writer pausing and renaming runners; then restarts the instances
// one after another (SIGTERM, drain, start). It reports failed polls, lost writes, missed live changes and
// their delay, PostgreSQL transactions per poll and CPU, the list's p99 during the restart, each instance's
// time out, and the largest fleet served. Every process it starts is stopped by its id at the end.
// Env: BENCH_CLUSTER_STEPS (default 10000,20000,30000), BENCH_CLUSTER_RUNNERS (registered, 100000),
// BENCH_CLUSTER_INSTANCES (3), BENCH_CLUSTER_BALANCERS (HAProxy processes; default one per 8,000 runners of
// the largest step: one process holds two sockets per held poll within its 20,000 open files),
// BENCH_CLUSTER_SECONDS (measured window per step, 60), BENCH_CLUSTER_WRITES (writes per second, 4),
// BENCH_CLUSTER_WARMUP (seconds the largest fleet runs before its steady-state window, 300: by then every
// runner has been served by every instance), BENCH_DIST (the artifact, default dist).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { LocalFleet, WorkerFleet, type Fleet, type FleetRunner } from './cluster/fleet';
import { startInstance, stopInstance, type Instance, type RunwayCommand } from './cluster/instances';
import { startOwnPostgres, type OwnPostgres } from './cluster/postgres';
import { startHaproxy, startPgbouncer, type Proxy } from './cluster/proxies';
import { runScenario, type ScenarioReport } from './cluster/scenario';
import { BENCH_ROOT_PASSWORD, freePort, ROOT } from './runway-process';
import { seedBench } from './runners-seed';

const STEPS = (process.env.BENCH_CLUSTER_STEPS ?? '10000,20000,30000').split(',').map(Number);
const REGISTERED = Number(process.env.BENCH_CLUSTER_RUNNERS ?? 100_000);
const INSTANCES = Number(process.env.BENCH_CLUSTER_INSTANCES ?? 3);
const PER_BALANCER = 8_000;
const BALANCERS = Number(process.env.BENCH_CLUSTER_BALANCERS ?? Math.max(1, Math.ceil(Math.max(...STEPS) / PER_BALANCER)));
const WINDOW_S = Number(process.env.BENCH_CLUSTER_SECONDS ?? 60);
const WRITES = Number(process.env.BENCH_CLUSTER_WRITES ?? 4);
const WARMUP_S = Number(process.env.BENCH_CLUSTER_WARMUP ?? 300);
const DIST = path.resolve(ROOT, process.env.BENCH_DIST ?? 'dist');
const DATABASE = 'runway_cluster';
const SECRET = 'runway-cluster-bench-secret-0123456789abcdef0123';
const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);

function runwayCli(run: RunwayCommand, args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync(run.command, [...run.args, ...args], { env, cwd: run.cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`runway ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

async function main() {
  const run: RunwayCommand = { command: path.join(DIST, 'bin', 'runway'), args: [], cwd: DIST };
  const stops: (() => Promise<void>)[] = [];
  let postgres: OwnPostgres | undefined;
  let report: ScenarioReport | undefined;
  const instances: Instance[] = [];
  try {
    log(`version: ${runwayCli(run, ['--version'], process.env)}`);
    postgres = await startOwnPostgres({ maxConnections: 300 });
    stops.push(postgres.stop);
    const admin = new pg.Client({ connectionString: postgres.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const direct = postgres.url(DATABASE);
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATABASE_URL: direct,
      INITIAL_ROOT_PASSWORD: BENCH_ROOT_PASSWORD,
      RUNWAY_SECRET: SECRET,
      RUNWAY_LOG_LEVEL: 'warn',
    };
    const token = runwayCli(run, ['create-token', '--username', 'root', '--scopes', 'api', '--name', 'cluster-bench'], base);
    log(`seeding ${REGISTERED} runners`);
    await seedBench(direct, { runners: REGISTERED, jobs: 20_000 }, log);

    const bouncer = await startPgbouncer({ port: await freePort(), pgPort: postgres.port, database: DATABASE, user: 'postgres' });
    stops.push(bouncer.stop);
    const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
    const balancerPorts = await Promise.all(Array.from({ length: BALANCERS }, () => freePort()));
    const env: NodeJS.ProcessEnv = {
      ...base,
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${bouncer.port}/${bouncer.alias}`,
      RUNWAY_DATABASE_DIRECT_URL: direct,
      RUNWAY_DB_PREPARED_STATEMENTS: 'false',
      RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${balancerPorts[0]}`,
      RUNWAY_TRUSTED_PROXIES: '127.0.0.1',
    };
    for (let i = 0; i < INSTANCES; i++) {
      instances.push(await startInstance(`instance ${i + 1}`, ports[i], run, env));
      log(`instance ${i + 1} ready on ${ports[i]}`);
    }
    const balancers: Proxy[] = [];
    for (const port of balancerPorts) {
      const b = await startHaproxy({ port, servers: ports });
      balancers.push(b);
      stops.push(b.stop);
    }
    log(`${BALANCERS} HAProxy process(es) on ${balancerPorts.join(', ')}, PgBouncer on ${bouncer.port}, PostgreSQL on ${postgres.port}`);

    const db = new pg.Client({ connectionString: direct });
    await db.connect();
    stops.push(() => db.end());
    const max = Math.max(...STEPS);
    const rows = (
      await db.query(
        `SELECT id, split_part(description, ' ', 3)::int AS n FROM ci_runners
          WHERE active AND description LIKE 'bench runner %' ORDER BY id LIMIT $1`,
        [max + 2_000],
      )
    ).rows as { id: number; n: number }[];
    const runners: FleetRunner[] = rows
      .slice(0, max)
      .map((r) => ({ id: r.id, token: `bench-runner-${r.n}`, systemId: `s_cluster${String(r.n).padStart(8, '0')}` }));
    const fleet: Fleet = max > 2_000 ? new WorkerFleet(8_000) : new LocalFleet();
    report = await runScenario(
      {
        balancers: balancerPorts.map((port) => ({ port })),
        instances,
        run,
        env,
        db,
        database: DATABASE,
        postgresCpuSeconds: postgres.cpuSeconds,
        fleet,
        token,
      },
      {
        steps: STEPS,
        runners,
        writerRunnerIds: rows.slice(max).map((r) => r.id),
        windowSeconds: WINDOW_S,
        holdSeconds: 50,
        writesPerSecond: WRITES,
        settleSeconds: 20,
        warmupSeconds: WARMUP_S,
        log,
      },
    );
  } finally {
    await Promise.all(instances.map((i) => stopInstance(i, 30_000)));
    for (const stop of stops.reverse()) await stop().catch((err: Error) => log(`cleanup: ${err.message}`));
  }
  print(report);
}

function print(r: ScenarioReport) {
  const n = (x: number) => x.toLocaleString('en-US');
  console.log(`\n${INSTANCES} instances, ${BALANCERS} HAProxy, PgBouncer, ${n(REGISTERED)} registered runners; load average ${r.loadAverage} at the end.\n`);
  console.log('| simulated runners | polls/s | failed polls | 429s | DB xact per poll | PostgreSQL CPU | list p99 ms | served |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const s of [...r.steps, ...(r.steady ? [r.steady] : [])])
    console.log(
      `| ${n(s.runners)} | ${s.pollsPerSecond.toFixed(0)} | ${s.failedPolls} | ${s.throttled} | ${s.transactionsPerPoll.toFixed(3)} | ${s.postgresCpuPercent?.toFixed(0) ?? 'n/a'}% | ${s.listP99} | ${s.served ? 'yes' : 'no'} |`,
    );
  if (r.steady) console.log(`(The last row is the largest fleet again after ${WARMUP_S} s of warm-up: the steady state.)`);
  console.log(`\nLargest fleet served without an error: ${n(r.largestServed)}.`);
  if (r.restart) {
    console.log(
      `Rolling restart at ${n(r.restart.runners)} runners: ${n(r.restart.polls)} polls, ${r.restart.failedPolls} failed, ${r.restart.throttled} throttled; list p99 ${r.restart.listP99} ms, ${r.restart.listErrors} list errors.`,
    );
    for (const i of r.restart.instances)
      console.log(
        `  ${i.name}: drained and exited in ${i.stopMs} ms (exit ${i.exitCode}), out for ${i.outMs} ms; list p99 ${i.listP99} ms from its SIGTERM to 20 s after it was back`,
      );
    if (r.restart.errorSamples.length) console.log(`  failures: ${r.restart.errorSamples.join('; ')}`);
  }
  console.log(`Writes: ${r.writes.sent} sent, ${r.writes.acknowledged} acknowledged, ${r.writes.failed} not, ${r.writes.lost.length} acknowledged and lost.`);
  console.log(
    `Live changes: ${r.live.missed.length} missed, ${r.live.coveredByResync} covered by a resync; delay after the write's answer p50 ${r.live.latencyP50} ms, p99 ${r.live.latencyP99} ms; ${r.live.connects} stream connections, ${r.live.resyncs} resyncs (${r.live.resyncsDuringRestart} during the restarts).`,
  );
  if (r.live.streamErrors.length) console.log(`  stream errors: ${r.live.streamErrors.join('; ')}`);
  console.log(
    `\n${JSON.stringify({ ...r, writes: { ...r.writes, lost: r.writes.lost.slice(0, 5) }, live: { ...r.live, missed: r.live.missed.slice(0, 5) } })}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
