// The daily stale-runner cleanup (instance setting, off by default). Every instance's worker calls this
// on a timer; the first to insert the run row of the UTC day (unique scheduled_for) runs it, the others
// find the day taken. A run an instance lost mid-way stays unfinished; the next day runs again.
import { db } from '../db/client';
import { currentSettings } from '../settings/application';
import { executeRun, startRun } from './service';
import type { CleanupRule } from './rule';

/** Runs today's cleanup if the schedule is on and no instance ran it yet; returns the run id, if any. */
export async function runScheduledCleanup(day?: Date): Promise<number | null> {
  const s = await currentSettings();
  if (!s.staleRunnerCleanupEnabled) return null;
  const rule: CleanupRule = {
    staleDays: s.staleRunnerCleanupDays,
    runnerType: s.staleRunnerCleanupRunnerType,
    ownerGroupId: s.staleRunnerCleanupOwnerGroupId,
    ownerProjectId: s.staleRunnerCleanupOwnerProjectId,
  };
  const options = { dryRun: false, trigger: 'schedule' as const, userId: null };
  const runId = await startRun(rule, options, day ?? (await utcToday()));
  if (runId === null) return null;
  await executeRun(runId, rule, options);
  return runId;
}

/** The database's UTC date, so instances with skewed clocks agree on the day. */
async function utcToday(): Promise<Date> {
  const rows = await db().$queryRaw<{ day: Date }[]>`SELECT (now() AT TIME ZONE 'UTC')::date AS day`;
  return rows[0].day;
}
