// The one place a cleanup tells the audit trail that it removed a runner, inside the runner's own
// transaction. Integration wires it to lib/audit/service.ts recordRunnerAudit (branch `audit`), which
// does not exist on this branch yet; until then a cleanup deletion leaves no audit row.
import type { Prisma } from '../db/client';
import type { RunnerRow } from '../runners/queries';

export interface CleanupAuditContext {
  /** The admin who ran the cleanup; null for the daily schedule. */
  userId: number | null;
  runId: number;
  trigger: CleanupTrigger;
}

export type CleanupTrigger = 'manual' | 'schedule';

export async function onRunnerCleanedUp(_tx: Prisma.TransactionClient, _runner: RunnerRow, _context: CleanupAuditContext): Promise<void> {
  // Wired at integration: recordRunnerAudit(tx, { action: 'delete', via: 'cleanup', ... }).
}
