// The one place a cleanup tells the audit trail that it removed a runner: inside the runner's own
// transaction, before the delete (the audit row reads the runner's scope), as a delete `via: 'cleanup'`.
import type { Prisma } from '../db/client';
import type { RunnerRow } from '../runners/queries';
import { recordRunnerAudit, type AuditActor } from '../audit/service';

export interface CleanupAuditContext {
  /** The admin who ran the cleanup; null for the daily schedule. */
  userId: number | null;
  ip: string | null;
  runId: number;
  trigger: CleanupTrigger;
}

export type CleanupTrigger = 'manual' | 'schedule';

export async function onRunnerCleanedUp(tx: Prisma.TransactionClient, runner: RunnerRow, context: CleanupAuditContext): Promise<void> {
  const user = context.userId === null ? null : await tx.user.findUnique({ where: { id: context.userId }, select: { id: true, name: true, email: true } });
  const actor: AuditActor = user ? { kind: 'user', id: user.id, name: user.name, email: user.email } : { kind: 'system', name: 'Stale runner cleanup' };
  await recordRunnerAudit(tx, {
    actor,
    ip: context.ip,
    runnerId: runner.id,
    action: 'delete',
    details: { via: 'cleanup', cleanup_run_id: context.runId, trigger: context.trigger },
  });
}
