// A cleanup run as the API returns it (Runway extension).
import type { RunnerCleanupRun } from '../db/generated/client';
import { ruleEntity } from './rule';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function cleanupRunEntity(r: RunnerCleanupRun & { user?: { id: number; username: string; name: string } | null }) {
  return {
    id: r.id,
    trigger: r.trigger,
    dry_run: r.dryRun,
    rule: ruleEntity({ staleDays: r.staleDays, runnerType: r.runnerType, ownerGroupId: r.ownerGroupId, ownerProjectId: r.ownerProjectId }),
    user: r.user ? { id: r.user.id, username: r.user.username, name: r.user.name } : null,
    started_at: r.startedAt.toISOString(),
    finished_at: iso(r.finishedAt),
    matched_count: r.matchedCount,
    deleted_count: r.deletedCount,
    skipped_count: r.skippedCount,
    failed_count: r.failedCount,
    results: r.results,
  };
}
