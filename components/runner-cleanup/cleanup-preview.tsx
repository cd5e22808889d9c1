'use client';
// The runners the rule removes now (GET /runners/cleanup), with the count, pages, and "Delete N stale
// runners" behind a confirmation; the run's per-runner results replace nothing, they show under it.
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DataTable } from '../ui/data-table';
import { muted } from '../ui/muted';
import { formatDateTime } from '../tokens/format';
import { RunnerStatusBadges, RunnerTypeBadge } from '../runners/runner-badges';
import { timeAgo } from '../runners/runners-table';
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
  onPageChange,
  errorState,
}: {
  rule: CleanupRuleState;
  preview: ReturnType<typeof useCleanupPreview>;
  onPageChange: (page: number) => void;
  errorState?: ReactNode;
}) {
  const [confirming, setConfirming] = useState<CleanupRuleState | null>(null);
  const [lastRun, setLastRun] = useState<CleanupRun | null>(null);
  const run = useRunCleanup(setLastRun);
  const total = preview.data?.total;
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
            <span className="max-w-56 truncate text-slate-600">{c.row.original.description || muted('No description')}</span>
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
            {preview.isPending
              ? 'Counting stale runners…'
              : preview.error
                ? 'The rule could not be previewed.'
                : total === undefined
                  ? 'More than 10,000 runners match this rule.'
                  : `${plural(total)} match${total === 1 ? 'es' : ''} this rule.`}
          </p>
        </div>
        {(total !== undefined ? total > 0 : !!preview.data?.items.length) && (
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

      <DataTable
        label="Stale runners"
        columns={columns}
        data={preview.data?.items}
        getRowId={(r) => String(r.id)}
        pagination={{ page: rule.page, perPage: PREVIEW_PER_PAGE, total, totalPages: preview.data?.totalPages, hasNext: preview.data?.nextPage !== undefined }}
        onPageChange={onPageChange}
        isLoading={preview.isPending}
        isFetching={preview.isPlaceholderData}
        error={preview.error}
        onRetry={() => preview.refetch()}
        errorState={errorState}
        empty={{ title: 'No stale runners', description: 'No runner matches this rule. Try fewer days, or another type or owner.' }}
      />

      <ConfirmDialog
        target={confirming}
        title={total !== undefined ? `Delete ${plural(total)}?` : 'Delete the stale runners?'}
        confirmLabel="Delete runners"
        pendingLabel="Deleting…"
        mutation={run}
        onClose={() => setConfirming(null)}
      >
        <p>
          Every runner that is still stale for at least {rule.staleDays} days
          {rule.type ? `, of this type,` : ''}
          {rule.ownerGroupId ? ` and owned by group ${rule.ownerGroupId}` : ''}
          {rule.ownerProjectId ? ` and owned by project ${rule.ownerProjectId}` : ''} is deleted, with its managers, tags and project assignments. A runner that
          contacts Runway again before its turn is kept. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
