// Job kinds and the code that runs them.
import { runImportJob, IMPORT_JOB_KIND } from '../repositories/import-queue';
import { deleteExpiredCounters } from '../rate-limits/queries';
import { deleteExpiredSignInFailures } from '../auth/lockout';
import { SNAPSHOT_EVERY_MS, takeFleetSnapshot } from '../fleet/snapshots';
import { runScheduledCleanup } from '../runner-cleanup/schedule';
import { CHECK_EVERY_MS, scheduledAlertCheck } from '../fleet-alerts/evaluate';
import { deliverDueWebhooks, runWebhookJob, WEBHOOK_JOB_KIND } from '../fleet-alerts/webhook';
import { pruneRunnerEvents } from '../runners/event-log';
import { reconcileRunnerVersions, scheduledReleasesRefresh } from '../runners/releases';
import { RUNNER_VERSIONS_JOB_KIND } from '../runners/upgrade-status';

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

export const handlers: Record<string, JobHandler> = {
  [IMPORT_JOB_KIND]: runImportJob,
  // A fleet alert webhook delivery's first attempt, at once; retries come from the sweep below.
  [WEBHOOK_JOB_KIND]: runWebhookJob,
  // A runner reported a version no manager had: its upgrade status now rather than at the next reconcile.
  [RUNNER_VERSIONS_JOB_KIND]: async () => void (await reconcileRunnerVersions()),
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
  // Upgrade statuses: the shipped release list stored when newer, every status recomputed when the list
  // changed, and versions not processed yet (from seeds, restores, other instances) computed.
  { name: 'runner upgrade statuses', everyMs: 60_000, run: reconcileRunnerVersions },
  // The daily refresh of the release list from public_runner_releases_url, when the setting is on; claimed
  // in PostgreSQL, so one instance fetches a day (and once an hour after a failure).
  // Fleet alert rules: every instance asks each minute, one claims the cycle in PostgreSQL and checks.
  { name: 'fleet alert check', everyMs: CHECK_EVERY_MS, run: scheduledAlertCheck },
  // Fleet alert webhook retries whose time has come (each delivery claimed by one instance).
  { name: 'fleet alert webhook retries', everyMs: 10_000, run: deliverDueWebhooks },
  { name: 'runner release list refresh', everyMs: 10 * 60_000, run: scheduledReleasesRefresh },
];
