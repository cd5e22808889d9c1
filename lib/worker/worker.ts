// The worker loop started with the server: poll the queue, run one job at a time per instance, and
// record the outcome. Handlers are looked up by job kind.
import { claimJob, failJob, finishJob, setWakeHook, type ClaimedJob } from '../background/queue';
import { log, logError } from '../log/log';
import { handlers, periodicTasks } from './jobs';
import { metrics } from '../metrics/registry';

// An idle queue is polled ever less often (one UPDATE per poll), up to every 5 s. A wake-up (a job was
// queued in this process, perhaps inside a transaction not yet committed) polls quickly a few times.
const MIN_IDLE_MS = 1_000;
const MAX_IDLE_MS = 5_000;
const WAKE_POLLS_MS = [50, 250, 1_000];

/** Runs every queued job until the queue is empty (or `stopping` says so); returns how many ran. */
export async function drainQueue(stopping: () => boolean = () => false): Promise<number> {
  let ran = 0;
  for (let job = stopping() ? null : await claimJob(); job; job = stopping() ? null : await claimJob()) {
    await runJob(job);
    ran++;
  }
  return ran;
}

async function runJob(job: ClaimedJob): Promise<void> {
  const handler = handlers[job.kind];
  if (!handler) {
    await failJob(job.id, `unknown job kind ${job.kind}`);
    return;
  }
  try {
    await handler(job.payload);
    await finishJob(job.id);
    metrics().backgroundOutcomes.inc({ kind: job.kind, outcome: 'finished' });
    log('info', 'background job finished', { job_id: job.id, kind: job.kind });
  } catch (err) {
    logError('background job failed', err, { job_id: job.id, kind: job.kind });
    await failJob(job.id, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    metrics().backgroundOutcomes.inc({ kind: job.kind, outcome: 'failed' });
  }
}

/**
 * Starts the polling loop; returns a function that stops it: no job is claimed from then on, and the
 * promise resolves when the job being run (if any) has finished.
 */
export function startBackgroundWorker(): () => Promise<void> {
  let stopped = false;
  let running = false;
  let current: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let idle = MIN_IDLE_MS;
  let wakePolls: number[] = [];

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
  };
  async function tick() {
    if (running) return;
    running = true;
    let ran = 0;
    try {
      current = drainQueue(() => stopped);
      ran = await current;
    } catch (err) {
      logError('background worker poll failed', err);
    } finally {
      running = false;
    }
    idle = ran > 0 ? MIN_IDLE_MS : Math.min(idle * 2, MAX_IDLE_MS);
    schedule(wakePolls.shift() ?? idle);
  }

  setWakeHook(() => {
    wakePolls = [...WAKE_POLLS_MS];
    if (!running) schedule(wakePolls.shift()!);
  });
  schedule(0);
  const runTask = (task: (typeof periodicTasks)[number]) => task.run().catch((err: unknown) => logError('periodic task failed', err, { task: task.name }));
  // Once at start too, so a fresh instance has today's fleet snapshot without waiting an interval.
  periodicTasks.forEach(runTask);
  const periodic = periodicTasks.map((task) => setInterval(() => runTask(task), task.everyMs).unref());
  return async () => {
    stopped = true;
    periodic.forEach(clearInterval);
    setWakeHook(undefined);
    if (timer) clearTimeout(timer);
    if (running) await current?.catch(() => undefined);
  };
}
