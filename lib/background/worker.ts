// The worker loop started with the server: poll the queue, run one job at a time per instance, and
// record the outcome. Handlers are looked up by job kind.
import { claimJob, failJob, finishJob, type ClaimedJob } from './queue';
import { log, logError } from '../server/log';
import { handlers } from './handlers';

const IDLE_POLL_MS = 500;

/** Runs every queued job until the queue is empty; returns how many ran. */
export async function drainQueue(): Promise<number> {
  let ran = 0;
  for (let job = await claimJob(); job; job = await claimJob()) {
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
    log('info', 'background job finished', { job_id: job.id, kind: job.kind });
  } catch (err) {
    logError('background job failed', err, { job_id: job.id, kind: job.kind });
    await failJob(job.id, err instanceof Error ? err.message : String(err)).catch(() => undefined);
  }
}

/** Starts the polling loop; returns a function that stops it. */
export function startBackgroundWorker(): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await drainQueue();
    } catch (err) {
      logError('background worker poll failed', err);
    }
    if (!stopped) timer = setTimeout(tick, IDLE_POLL_MS);
  };
  timer = setTimeout(tick, 0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
