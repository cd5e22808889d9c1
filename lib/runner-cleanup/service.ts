// A cleanup run: finds the runners the rule matches in id-ordered batches and removes each in its own
// transaction, through the runner delete service. Two runs at once never remove a runner twice and
// never fail on each other: a runner is re-checked against the rule under FOR UPDATE SKIP LOCKED, so a
// runner another run holds or already removed is reported as skipped.
import { db, type Prisma } from '../db/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { logError } from '../log/log';
import { RUNNER_COLUMNS, whereClause, type RunnerRow } from '../runners/queries';
import { destroyRunner } from '../runners/service';
import { onRunnerCleanedUp, type CleanupTrigger } from './audit-hook';
import { ruleFilters, type CleanupRule } from './rule';

export const CLEANUP_BATCH = 100;

export type CleanupOutcome = 'deleted' | 'would_delete' | 'skipped' | 'failed';

export interface CleanupResult {
  runner_id: number;
  description: string | null;
  runner_type: string;
  contacted_at: string | null;
  created_at: string;
  result: CleanupOutcome;
  message: string | null;
}

export interface RunOptions {
  dryRun: boolean;
  trigger: CleanupTrigger;
  userId: number | null;
  /** The admin's address for the audit trail; null for the daily schedule. */
  ip?: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function resultOf(r: RunnerRow, result: CleanupOutcome, message: string | null = null): CleanupResult {
  return {
    runner_id: r.id,
    description: r.description,
    runner_type: r.runnerType,
    contacted_at: iso(r.contactedAt),
    created_at: r.createdAt.toISOString(),
    result,
    message,
  };
}

/** Starts a run record; the schedule claims its day with `scheduledFor` (null when the day is taken). */
export async function startRun(rule: CleanupRule, o: RunOptions, scheduledFor?: Date): Promise<number | null> {
  const rows = await db().$queryRaw<{ id: number }[]>(sql`
    INSERT INTO runner_cleanup_runs (trigger, scheduled_for, user_id, dry_run, stale_days, runner_type, owner_group_id, owner_project_id)
    VALUES (${o.trigger}, ${scheduledFor ?? null}::date, ${o.userId}, ${o.dryRun}, ${rule.staleDays},
            ${rule.runnerType}::"RunnerType", ${rule.ownerGroupId}, ${rule.ownerProjectId})
    ON CONFLICT (scheduled_for) DO NOTHING
    RETURNING id`);
  return rows[0]?.id ?? null;
}

/** Removes one runner if it still matches the rule and no other run holds it. */
async function removeOne(rule: CleanupRule, candidate: RunnerRow, o: RunOptions, runId: number): Promise<CleanupResult> {
  try {
    return await db().$transaction(async (tx: Prisma.TransactionClient) => {
      const rows = await tx.$queryRaw<RunnerRow[]>(sql`
        SELECT ${RUNNER_COLUMNS} FROM ci_runners r
         WHERE r.id = ${candidate.id} AND ${whereClause({ kind: 'all' }, ruleFilters(rule))}
         FOR UPDATE SKIP LOCKED`);
      const runner = rows[0];
      if (!runner) return resultOf(candidate, 'skipped', 'Already removed, contacted since, or being removed by another cleanup');
      await onRunnerCleanedUp(tx, runner, { userId: o.userId, ip: o.ip ?? null, runId, trigger: o.trigger });
      const removed = await destroyRunner(tx, runner.id);
      return removed ? resultOf(runner, 'deleted') : resultOf(runner, 'skipped', 'Already removed');
    });
  } catch (err) {
    logError('stale runner cleanup failed for a runner', err, { runner_id: candidate.id, run_id: runId });
    return resultOf(candidate, 'failed', err instanceof Error ? err.message.slice(0, 500) : String(err));
  }
}

/** Applies the rule for a started run and records its counts and results. */
export async function executeRun(runId: number, rule: CleanupRule, o: RunOptions): Promise<void> {
  const results: CleanupResult[] = [];
  const where = whereClause({ kind: 'all' }, ruleFilters(rule));
  let after = 0;
  for (;;) {
    // Keyset batches on the primary key: each batch reads from where the last one ended, never OFFSET.
    const batch = await queryRows<RunnerRow>(sql`
      SELECT ${RUNNER_COLUMNS} FROM ci_runners r WHERE ${where} AND r.id > ${after} ORDER BY r.id LIMIT ${CLEANUP_BATCH}`);
    if (!batch.length) break;
    after = batch[batch.length - 1].id;
    for (const candidate of batch) {
      results.push(o.dryRun ? resultOf(candidate, 'would_delete') : await removeOne(rule, candidate, o, runId));
    }
  }
  const count = (outcome: CleanupOutcome) => results.filter((r) => r.result === outcome).length;
  await db().runnerCleanupRun.update({
    where: { id: runId },
    data: {
      matchedCount: results.length,
      deletedCount: count('deleted'),
      skippedCount: count('skipped'),
      failedCount: count('failed'),
      results: results as unknown as Prisma.InputJsonValue,
      finishedAt: new Date(),
    },
  });
}

/** A run started and finished now (POST /runners/cleanup). */
export async function runCleanup(rule: CleanupRule, o: RunOptions): Promise<number> {
  const runId = (await startRun(rule, o))!;
  await executeRun(runId, rule, o);
  return runId;
}
