'use client';
// The last cleanups (GET /runners/cleanup/runs), newest first: when, who or the schedule, the rule, the
// counts, and each run's per-runner results behind a disclosure.
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { formatDateTime } from '../shared/format';
import { CleanupResults } from './cleanup-results';
import { describeRule } from './cleanup-schedule';
import { useCleanupRuns } from './use-runner-cleanup';

export function CleanupRuns({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const runs = useCleanupRuns(page);
  const data = runs.data;
  return (
    <section aria-labelledby="cleanup-runs-heading" className="flex flex-col gap-3">
      <h2 id="cleanup-runs-heading" className="text-lg font-semibold text-slate-900">
        Last cleanups
      </h2>
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
        {runs.isPending ? (
          <LoadingState label="Loading cleanups…" />
        ) : runs.error ? (
          <ErrorState title="Could not load the last cleanups" error={runs.error} onRetry={() => runs.refetch()} />
        ) : !data?.items.length ? (
          <EmptyState title="No cleanups yet">Runs you start here and daily cleanups are listed here with what they removed.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100">
            {data.items.map((run) => (
              <li key={run.id} className="p-4">
                <details>
                  <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                    <span className="font-medium text-slate-900">
                      <time dateTime={run.started_at}>{formatDateTime(run.started_at)}</time>
                    </span>
                    <Badge tone={run.trigger === 'schedule' ? 'info' : 'neutral'}>
                      {run.trigger === 'schedule' ? 'Daily cleanup' : `By @${run.user?.username ?? 'deleted user'}`}
                    </Badge>
                    {run.dry_run && <Badge tone="neutral">Dry run</Badge>}
                    {!run.finished_at && <Badge tone="warning">Unfinished</Badge>}
                    <span className="text-slate-700">
                      {run.dry_run ? `${run.matched_count} would be deleted` : `${run.deleted_count} deleted`}
                      {run.skipped_count ? `, ${run.skipped_count} skipped` : ''}
                      {run.failed_count ? `, ${run.failed_count} failed` : ''}
                    </span>
                    <span className="text-xs text-indigo-700 underline">Show results</span>
                  </summary>
                  <div className="mt-3 flex flex-col gap-2">
                    <p className="text-xs text-slate-600">
                      Rule:{' '}
                      {describeRule({
                        days: run.rule.stale_days,
                        type: run.rule.runner_type,
                        group: run.rule.owner_group_id,
                        project: run.rule.owner_project_id,
                      })}
                      .
                    </p>
                    <CleanupResults results={run.results} label={`Results of the cleanup of ${formatDateTime(run.started_at)}`} />
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
        {data && (data.prevPage || data.nextPage) && (
          <nav aria-label="Cleanups pagination" className="flex items-center justify-between border-t border-slate-200 px-4 py-2.5">
            <p className="text-xs text-slate-500">
              Page {page}
              {data.totalPages !== undefined && ` of ${data.totalPages}`}
            </p>
            <div className="flex gap-2">
              <Button variant="secondary" size="sm" disabled={!data.prevPage} onClick={() => onPageChange(page - 1)}>
                Previous
              </Button>
              <Button variant="secondary" size="sm" disabled={!data.nextPage} onClick={() => onPageChange(page + 1)}>
                Next
              </Button>
            </div>
          </nav>
        )}
      </div>
    </section>
  );
}
