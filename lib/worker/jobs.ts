// Job kinds and the code that runs them.
import { runImportJob, IMPORT_JOB_KIND } from '../repositories/import-queue';
import { deleteExpiredCounters } from '../rate-limits/queries';
import { deleteExpiredSignInFailures } from '../auth/lockout';
import { SNAPSHOT_EVERY_MS, takeFleetSnapshot } from '../fleet/snapshots';
import { runScheduledCleanup } from '../runner-cleanup/schedule';
import { pruneRunnerEvents } from '../runners/event-log';

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

export const handlers: Record<string, JobHandler> = {
  [IMPORT_JOB_KIND]: runImportJob,
};

export interface PeriodicTask {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/** Housekeeping every instance runs at start and then on a timer; each task is idempotent, so instances need not agree. */
export const periodicTasks: PeriodicTask[] = [
  { name: 'delete expired rate-limit counters', everyMs: 5 * 60_000, run: deleteExpiredCounters },
  { name: 'delete ended sign-in failure counts', everyMs: 5 * 60_000, run: deleteExpiredSignInFailures },
  // Today's row of the fleet overview's status history (one row per day, upserted).
  { name: 'runner fleet snapshot', everyMs: SNAPSHOT_EVERY_MS, run: takeFleetSnapshot },
  // Daily, claimed per UTC day in PostgreSQL: checking every 10 minutes only bounds how late in the day it runs.
  { name: 'stale runner cleanup', everyMs: 10 * 60_000, run: runScheduledCleanup },
  // The live-event log keeps ten minutes (lib/runners/event-log.ts): pruned every minute, it stays small.
  { name: 'prune runner event log', everyMs: 60_000, run: pruneRunnerEvents },
];
