// The cluster benchmark's scenario, shared by `npm run bench:cluster` and the test suite's small cluster:
// a fleet polling through the load balancers, a dashboard client holding the event stream and reading the
// runner list, a writer pausing and renaming runners; steady windows at growing fleet sizes, then a
// rolling restart of every instance under that load. It measures what issue 22 asks and checks nothing
// was lost or missed.
import type pg from 'pg';
import { loadAverage, percentile, sleep, type PollStats, type Target } from '../sim-runner';
import { Dashboard } from './dashboard';
import type { Fleet, FleetRunner } from './fleet';
import { restartInstance, type Instance, type RestartFigures, type RunwayCommand } from './instances';
import { Writer, type Write } from './writer';

export interface Topology {
  /** The load balancers' ports (several HAProxy processes when one cannot hold the fleet's sockets). */
  balancers: Target[];
  instances: Instance[];
  run: RunwayCommand;
  env: NodeJS.ProcessEnv;
  /** A direct connection to the benchmark's database (counts and checks, never through PgBouncer). */
  db: pg.Client;
  database: string;
  /** PostgreSQL's CPU seconds so far, when the server is the benchmark's own. */
  postgresCpuSeconds?: () => number;
  fleet: Fleet;
  token: string;
}

export interface ScenarioOptions {
  /** Fleet sizes to measure in turn; the restart runs at the last size served. */
  steps: number[];
  runners: FleetRunner[];
  /** Runners the writer changes (active ones, apart from the fleet's first: written ones still poll). */
  writerRunnerIds: number[];
  windowSeconds: number;
  holdSeconds: number;
  writesPerSecond: number;
  /** Pause between two instances' restarts. */
  settleSeconds: number;
  /**
   * After the last step, how long the fleet runs before a steady-state window is measured (every runner has
   * then been served by every instance, so their caches hold it); 0: no such window.
   */
  warmupSeconds?: number;
  log: (line: string) => void;
}

export interface StepFigures {
  runners: number;
  seconds: number;
  polls: number;
  pollsPerSecond: number;
  failedPolls: number;
  throttled: number;
  statuses: Record<string, number>;
  errorSamples: string[];
  transactions: number;
  transactionsPerPoll: number;
  postgresCpuPercent: number | null;
  listP99: number;
  listErrors: number;
  served: boolean;
}

export interface ScenarioReport {
  steps: StepFigures[];
  /** The last step's size again, after the warm-up. */
  steady: StepFigures | null;
  largestServed: number;
  restart: {
    runners: number;
    instances: (RestartFigures & { listP99: number })[];
    polls: number;
    failedPolls: number;
    throttled: number;
    errorSamples: string[];
    listP99: number;
    listErrors: number;
  } | null;
  writes: { sent: number; acknowledged: number; failed: number; lost: Write[] };
  live: {
    missed: Write[];
    coveredByResync: number;
    latencyP50: number;
    latencyP99: number;
    connects: number;
    resyncs: number;
    /** Resyncs from the restarts on: a stream that resumes on another instance is replayed, not resynced. */
    resyncsDuringRestart: number;
    streamErrors: string[];
  };
  loadAverage: string;
}

async function transactions(db: pg.Client, database: string): Promise<number> {
  const r = await db.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [database]);
  return Number(r.rows[0].n);
}

const failed = (s: PollStats) => s.errors;

export async function runScenario(t: Topology, o: ScenarioOptions): Promise<ScenarioReport> {
  const dashboard = new Dashboard(t.balancers[0], t.token);
  const writer = new Writer(t.balancers[t.balancers.length - 1], t.token, o.writerRunnerIds, o.writesPerSecond);
  dashboard.start();
  writer.start();
  const steps: StepFigures[] = [];
  let started = 0;
  let restart: ScenarioReport['restart'] = null;
  let restartFrom = Infinity;
  let steady: StepFigures | null = null;
  const measure = async (n: number): Promise<StepFigures> => {
    await t.fleet.take();
    const listFrom = Date.now();
    const x0 = await transactions(t.db, t.database);
    const c0 = t.postgresCpuSeconds?.() ?? null;
    const t0 = Date.now();
    await sleep(o.windowSeconds * 1000);
    const s = await t.fleet.take();
    const seconds = (Date.now() - t0) / 1000;
    const c1 = t.postgresCpuSeconds?.() ?? null;
    // Read at once: busy backends report their counts every second, so in a steady fleet the lag at both
    // ends of the window is the same and cancels out (waiting would count the next seconds' polls too).
    const x1 = await transactions(t.db, t.database);
    const list = dashboard.list.filter((l) => l.at >= listFrom && l.at < t0 + seconds * 1000);
    const step: StepFigures = {
      runners: n,
      seconds,
      polls: s.polls,
      pollsPerSecond: s.polls / seconds,
      failedPolls: failed(s),
      throttled: s.throttled,
      statuses: s.statuses,
      errorSamples: s.errorSamples,
      transactions: x1 - x0,
      transactionsPerPoll: s.polls ? (x1 - x0) / s.polls : NaN,
      postgresCpuPercent: c0 !== null && c1 !== null ? ((c1 - c0) / seconds) * 100 : null,
      listP99: percentile(
        list.map((l) => l.ms),
        99,
      ),
      listErrors: list.filter((l) => l.status !== 200).length,
      served: false,
    };
    step.served = step.failedPolls === 0 && step.listErrors === 0;
    o.log(
      `${n} runners: ${step.pollsPerSecond.toFixed(0)} polls/s, ${step.failedPolls} failed, ${step.throttled} throttled, ` +
        `${step.transactionsPerPoll.toFixed(3)} xact/poll, PostgreSQL CPU ${step.postgresCpuPercent?.toFixed(0) ?? 'n/a'}%, ` +
        `list p99 ${step.listP99} ms, load ${loadAverage()}${step.errorSamples.length ? ` (${step.errorSamples.join('; ')})` : ''}`,
    );
    return step;
  };
  try {
    for (const n of o.steps) {
      if (n > o.runners.length) break;
      const rampMs = Math.max(3_000, ((n - started) / 400) * 1000);
      await t.fleet.add({ runners: o.runners.slice(started, n), targets: t.balancers, holdSeconds: o.holdSeconds, rampMs });
      started = n;
      // Settle: every new runner has polled once and is in its cycle.
      await sleep(rampMs + 6_000);
      const step = await measure(n);
      steps.push(step);
      if (!step.served) break;
    }
    if (o.warmupSeconds && steps.length && steps[steps.length - 1].served) {
      o.log(`warming up for ${o.warmupSeconds} s`);
      await sleep(o.warmupSeconds * 1000);
      steady = await measure(started);
    }
    // The rolling restart, at the fleet size reached: one instance after another, SIGTERM, drain, start.
    await t.fleet.take();
    const from = Date.now();
    restartFrom = from;
    const figures: (RestartFigures & { listP99: number })[] = [];
    for (const instance of t.instances) {
      const began = Date.now();
      const f = await restartInstance(instance, t.run, t.env);
      await sleep(o.settleSeconds * 1000);
      const listP99 = percentile(
        dashboard.list.filter((l) => l.at >= began).map((l) => l.ms),
        99,
      );
      figures.push({ ...f, listP99 });
      o.log(
        `restarted ${f.name}: stopped in ${f.stopMs} ms (exit ${f.exitCode}), out for ${f.outMs} ms, list p99 ${listP99} ms from its SIGTERM to ${o.settleSeconds} s after`,
      );
    }
    const s = await t.fleet.take();
    const list = dashboard.list.filter((l) => l.at >= from);
    restart = {
      runners: started,
      instances: figures,
      polls: s.polls,
      failedPolls: failed(s),
      throttled: s.throttled,
      errorSamples: s.errorSamples,
      listP99: percentile(
        list.map((l) => l.ms),
        99,
      ),
      listErrors: list.filter((l) => l.status !== 200).length,
    };
    o.log(`rolling restart: ${s.polls} polls, ${restart.failedPolls} failed, list p99 ${restart.listP99} ms, ${restart.listErrors} list errors`);
  } finally {
    await writer.stop();
    // Changes still on their way to the dashboard.
    await sleep(3_000);
    await dashboard.stop();
    const last = await t.fleet.stop();
    if (restart) {
      restart.polls += last.polls;
      restart.failedPolls += failed(last);
      for (const e of last.errorSamples) if (restart.errorSamples.length < 8) restart.errorSamples.push(e);
    }
  }
  const lost = await writer.lost(t.db);
  const acknowledged = writer.acknowledged;
  const missed: Write[] = [];
  const latencies: number[] = [];
  let coveredByResync = 0;
  for (const w of acknowledged) {
    const heard = dashboard.events.find((e) => e.runnerId === w.runnerId && e.at >= w.sentAt);
    if (heard) latencies.push(heard.at - w.answeredAt);
    else if (dashboard.resyncs.some((at) => at >= w.sentAt)) coveredByResync++;
    else missed.push(w);
  }
  const served = steps.filter((s) => s.served);
  return {
    steps,
    steady,
    largestServed: served.length ? served[served.length - 1].runners : 0,
    restart,
    writes: { sent: writer.writes.length, acknowledged: acknowledged.length, failed: writer.writes.length - acknowledged.length, lost },
    live: {
      missed,
      coveredByResync,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      connects: dashboard.connects,
      resyncs: dashboard.resyncs.length,
      resyncsDuringRestart: dashboard.resyncs.filter((at) => at >= restartFrom).length,
      streamErrors: dashboard.streamErrors.slice(0, 10),
    },
    loadAverage: loadAverage(),
  };
}
