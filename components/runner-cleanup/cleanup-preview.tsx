'use client';
// The runners the rule removes now (GET /runners/cleanup), with the count, pages, and "Delete N stale
// runners" behind a confirmation; the run's per-runner results replace nothing, they show under it. On a
// phone each runner is a card (DataTable `cards`), its facts under their column names.
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DataTable } from '../ui/data-table';
import { muted } from '../ui/muted';
import { formatDateTime } from '../shared/format';
import { RunnerStatusBadges, RunnerTypeBadge, runnerTypeLabel } from '../runners/runner-badges';
import { timeAgo } from '../shared/format';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { CleanupRuleState, CleanupRun } from '@/lib/client/runner-cleanup';
import type { RunnerListItem } from '@/lib/client/types';
import { CleanupResults } from './cleanup-results';
import { PREVIEW_PER_PAGE, useCleanupPreview, useRunCleanup } from './use-runner-cleanup';

const column = createColumnHelper<RunnerListItem>();
const when = (iso: string | null | undefined) =>
  iso ? (
    <time dateTime={iso} title={formatDateTime(iso) ?? undefined}>
      {timeAgo(iso)}
    </time>
  ) : (
    'Never'
  );
const plural = (n: number) => `${n.toLocaleString('en-US')} stale runner${n === 1 ? '' : 's'}`;

export function CleanupPreview({
  rule,
  preview,
  outdated,
  onPageChange,
  errorState,
}: {
  rule: CleanupRuleState;
  preview: ReturnType<typeof useCleanupPreview>;
  /** The form was edited since this preview: its runners are not what the new rule would delete. */
  outdated: boolean;
  onPageChange: (page: number) => void;
  errorState?: ReactNode;
}) {
  const [confirming, setConfirming] = useState<CleanupRuleState | null>(null);
  const [lastRun, setLastRun] = useState<CleanupRun | null>(null);
  const run = useRunCleanup(setLastRun);
  const total = preview.data?.total;
  // Rows kept on screen while another rule's preview loads belong to the old rule: no Delete from them.
  const current = !outdated && !preview.isPlaceholderData && !preview.isPending && !preview.error;
  const columns = useMemo(
    () => [
      column.display({
        id: 'runner',
        header: 'Runner',
        cell: (c) => (
          <div className="flex flex-col">
            <Link href={`/admin/runners/${c.row.original.id}`} className="font-medium text-indigo-700 hover:underline">
              #{c.row.original.id}
            </Link>
            <span className="text-slate-600 sm:max-w-56 sm:truncate">{c.row.original.description || muted('No description')}</span>
          </div>
        ),
      }),
      column.display({ id: 'type', header: 'Type', cell: (c) => <RunnerTypeBadge type={c.row.original.runner_type} /> }),
      column.display({ id: 'status', header: 'Status', cell: (c) => <RunnerStatusBadges runner={c.row.original} /> }),
      column.display({ id: 'contacted', header: 'Last contact', cell: (c) => when(c.row.original._runway?.contacted_at) }),
      column.display({ id: 'created', header: 'Created', cell: (c) => when(c.row.original.created_at) }),
      column.display({
        id: 'owner',
        header: 'Owner',
        cell: (c) => {
          const r = c.row.original;
          const owner = r._runway?.owner;
          if (r.runner_type === 'instance_type') return 'Administrator';
          if (!owner) return muted('Unknown');
          return (
            <Link href={owner.type === 'project' ? projectHref(owner.full_path) : groupHref(owner.full_path)} className="text-indigo-700 hover:underline">
              {owner.name}
            </Link>
          );
        },
      }),
    ],
    [],
  );

  return (
    <section aria-labelledby="cleanup-preview-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="cleanup-preview-heading" className="text-lg font-semibold text-slate-900">
            Preview
          </h2>
          <p className="text-sm text-slate-600" data-testid="cleanup-count" aria-live="polite">
            {outdated
              ? 'The rule has changed: select Preview to see the runners it deletes.'
              : preview.isPending || preview.isPlaceholderData
                ? 'Counting stale runners…'
                : preview.error
                  ? 'The rule could not be previewed.'
                  : total === undefined
                    ? 'More than 10,000 runners match this rule.'
                    : `${plural(total)} match${total === 1 ? 'es' : ''} this rule.`}
          </p>
        </div>
        {current && (total !== undefined ? total > 0 : !!preview.data?.items.length) && (
          <Button variant="danger" onClick={() => setConfirming(rule)}>
            {total !== undefined ? `Delete ${plural(total)}` : 'Delete more than 10,000 stale runners'}
          </Button>
        )}
      </div>

      {lastRun && (
        <div role="status" className="flex flex-col gap-2 rounded-md border border-emerald-200 bg-emerald-50 p-3">
          <p className="text-sm text-emerald-900">
            Deleted {lastRun.deleted_count} of {lastRun.matched_count} matched runners
            {lastRun.skipped_count ? `, ${lastRun.skipped_count} skipped` : ''}
            {lastRun.failed_count ? `, ${lastRun.failed_count} failed` : ''}.
          </p>
          <CleanupResults results={lastRun.results} label="Results of this cleanup" />
          <div>
            <Button variant="secondary" size="sm" onClick={() => setLastRun(null)}>
              Dismiss
            </Button>
          </div>
        </div>
      )}

      {outdated ? (
        // The old rows would read as what Delete removes: they go until the new rule is previewed.
        <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-600">
          Select <span className="font-medium text-slate-900">Preview</span> to list the runners the edited rule deletes.
        </div>
      ) : (
        <DataTable
          label="Stale runners"
          cards
          columns={columns}
          data={preview.data?.items}
          getRowId={(r) => String(r.id)}
          pagination={{
            page: rule.page,
            perPage: PREVIEW_PER_PAGE,
            total,
            totalPages: preview.data?.totalPages,
            hasNext: preview.data?.nextPage !== undefined,
          }}
          onPageChange={onPageChange}
          isLoading={preview.isPending}
          isFetching={preview.isPlaceholderData}
          error={preview.error}
          onRetry={() => preview.refetch()}
          errorState={errorState}
          empty={{ title: 'No stale runners', description: 'No runner matches this rule. Try fewer days, or another type or owner.' }}
        />
      )}

      <ConfirmDialog
        target={confirming}
        title={total !== undefined ? `Delete ${plural(total)}?` : 'Delete the stale runners?'}
        confirmLabel="Delete runners"
        pendingLabel="Deleting…"
        mutation={run}
        onClose={() => setConfirming(null)}
      >
        {/* The rule the preview was made with (kept when Delete was pressed), not whatever the form holds now. */}
        <p>
          Every runner that is still stale for at least {confirming?.staleDays} days
          {confirming?.type ? ` (${runnerTypeLabel(confirming.type).toLowerCase()} runners only)` : ''}
          {confirming?.ownerGroupId ? ` and owned by group ${confirming.ownerGroupId}` : ''}
          {confirming?.ownerProjectId ? ` and owned by project ${confirming.ownerProjectId}` : ''} is deleted, with its managers, tags and project assignments.
          A runner that contacts Runway again before its turn is kept. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
