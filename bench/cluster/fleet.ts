// The simulated fleet of the cluster benchmark: gitlab-runners spread over the load balancers' ports, in
// this process (the test suite's few hundred) or in worker processes (tens of thousands: each process may
// hold only as many sockets as its open-file limit, 20,000 on this machine), with one interface.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addPollStats, newPollStats, SimRunner, sleep, type PollStats, type Target } from '../sim-runner';

export interface FleetRunner {
  id: number;
  token: string;
  systemId: string;
}

export interface FleetPlan {
  runners: FleetRunner[];
  /** The load balancers' ports: runner i polls through targets[i % targets.length]. */
  targets: Target[];
  holdSeconds: number;
  /** New runners start spread over this long, as gitlab-runner processes do not all start at once. */
  rampMs: number;
}

export interface Fleet {
  add(plan: FleetPlan): Promise<void>;
  /** The polls answered since the last take, and a fresh count from now. */
  take(): Promise<PollStats>;
  /** Stops every runner after its poll in flight; the polls answered since the last take. */
  stop(): Promise<PollStats>;
}

/** Runners in this process. */
export class LocalFleet implements Fleet {
  private runners: SimRunner[] = [];
  private stats = newPollStats();

  async add(plan: FleetPlan): Promise<void> {
    plan.runners.forEach((r, i) => {
      const sim = new SimRunner(r.id, r.token, r.systemId);
      this.runners.push(sim);
      sim.start(plan.targets[i % plan.targets.length], plan.holdSeconds, () => this.stats, Math.random() * plan.rampMs);
    });
  }

  async take(): Promise<PollStats> {
    const s = this.stats;
    this.stats = newPollStats();
    return s;
  }

  async stop(): Promise<PollStats> {
    for (const r of this.runners) r.stopped = true;
    // Held polls end when their hold does, or when the servers stop; do not wait longer than that.
    await Promise.race([Promise.all(this.runners.map((r) => r.done)), sleep(70_000)]);
    for (const r of this.runners) r.agent.destroy();
    return this.take();
  }

  get size(): number {
    return this.runners.length;
  }
}

type Reply = { type: 'stats'; stats: PollStats; seq: number };

/** Runners in worker processes (bench/cluster/fleet-worker.ts), at most `perWorker` each. */
export class WorkerFleet implements Fleet {
  private workers: { child: ChildProcess; size: number }[] = [];
  private seq = 0;

  constructor(private readonly perWorker: number) {}

  private spawnWorker(): { child: ChildProcess; size: number } {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const child = fork(path.join(here, 'fleet-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const w = { child, size: 0 };
    this.workers.push(w);
    return w;
  }

  private ask(child: ChildProcess, message: object): Promise<PollStats> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      const onMessage = (m: Reply) => {
        if (m.type !== 'stats' || m.seq !== seq) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m.stats);
      };
      const onExit = (code: number | null) => reject(new Error(`a fleet worker exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ ...message, seq });
    });
  }

  async add(plan: FleetPlan): Promise<void> {
    let rest = plan.runners;
    let offset = 0;
    while (rest.length) {
      const w = this.workers.find((x) => x.size < this.perWorker) ?? this.spawnWorker();
      const share = rest.slice(0, this.perWorker - w.size);
      rest = rest.slice(share.length);
      // Keep each runner on the target it would have had in one process.
      const targets = plan.targets.map((_, i) => plan.targets[(offset + i) % plan.targets.length]);
      offset += share.length;
      w.size += share.length;
      await this.ask(w.child, { type: 'add', plan: { ...plan, runners: share, targets } });
    }
  }

  async take(): Promise<PollStats> {
    const all = await Promise.all(this.workers.map((w) => this.ask(w.child, { type: 'take' })));
    return all.reduce(addPollStats, newPollStats());
  }

  async stop(): Promise<PollStats> {
    const all = await Promise.all(this.workers.map((w) => this.ask(w.child, { type: 'stop' })));
    for (const w of this.workers) w.child.kill('SIGTERM');
    return all.reduce(addPollStats, newPollStats());
  }
}
