'use client';
// The runner list's table, GitLab's columns: a checkbox (for runners the viewer may change), status,
// the runner's summary (id, description, version, last contact, IP, jobs, creator), owner, tags and the
// row actions the viewer may use. Everything comes from one page request (`with_details`).
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { Activity, Lock, Pause, Pencil, Play, Trash2 } from 'lucide-react';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { ActionButton, ActionGroup } from '../ui/action-group';
import { Badge } from '../ui/badge';
import { toast } from '../ui/toast';
import type { ConfirmDialog as ConfirmDialogType } from '../ui/confirm-dialog';
import { DataTable, type ServerPage } from '../ui/data-table';
import { RelativeTime } from '../shared/relative-time';
import { muted } from '../ui/muted';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { RunnerListItem } from '@/lib/client/types';
import { IconBadge, RunnerStatusBadges, RunnerTypeBadge, UpgradeStatusBadge } from './runner-badges';
import { TagList } from '../shared/tag-list';
import { useDeleteRunner, useSetRunnerPaused } from './use-runners';
import { errorText } from '@/lib/client/error-text';

const column = createColumnHelper<RunnerListItem>();

/** Runway counts jobs up to 1,001, as GitLab's GraphQL does: more than 1,000 shows as "1,000+". */
// Loaded with the first Delete click: the dialog is off the list's first-load JavaScript (issue 23). React's
// `lazy`, not next/dynamic, whose loader alone is ~1.3 kB gzip of the first load.
const ConfirmDialog = lazy(() => import('../ui/confirm-dialog').then((m) => ({ default: m.ConfirmDialog }))) as unknown as typeof ConfirmDialogType;

export const JOB_COUNT_LIMIT = 1000;
export const formatJobCount = (n: number) => (n > JOB_COUNT_LIMIT ? `${JOB_COUNT_LIMIT.toLocaleString('en-US')}+` : n.toLocaleString('en-US'));

export const mayChange = (r: RunnerListItem) => r._runway_permissions.update_runner || r._runway_permissions.delete_runner;

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="inline-flex min-w-0 max-w-full gap-1 whitespace-nowrap [&>span:last-child]:truncate">
      <span className="text-slate-500">{label}</span>
      <span className="text-slate-800">{children}</span>
    </span>
  );
}

function RunnerSummary({ runner: r, href }: { runner: RunnerListItem; href: string }) {
  const d = r._runway;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <Link href={href} className="font-medium text-indigo-700 hover:underline">
          #{r.id}
        </Link>
        <RunnerTypeBadge type={r.runner_type} />
        {d?.locked && (
          <IconBadge tone="neutral" icon={Lock} hint="Locked to its assigned projects">
            Locked
          </IconBadge>
        )}
        {d && d.managers_count > 1 && <Badge tone="neutral">{d.managers_count} managers</Badge>}
        <UpgradeStatusBadge status={d?.upgrade_status} />
      </div>
      <p
        className="line-clamp-2 max-w-md whitespace-normal text-slate-900 [overflow-wrap:anywhere]"
        title={r.description && r.description.length > 80 ? r.description : undefined}
      >
        {r.description || muted('No description')}
      </p>
      {d && (
        // Width 0 with a minimum of the whole cell: the details take the column's width instead of setting it,
        // so a long version or creator username truncates inside the row rather than pushing the actions out.
        <p className="flex w-0 min-w-full max-w-md flex-wrap gap-x-3 gap-y-0.5 text-xs">
          {d.version && <Detail label="Version">{d.version}</Detail>}
          <Detail label="Last contact">{d.contacted_at ? <RelativeTime iso={d.contacted_at} /> : 'Never'}</Detail>
          {d.ip_address && <Detail label="IP">{d.ip_address}</Detail>}
          <Detail label="Jobs">{formatJobCount(d.job_count)}</Detail>
          <Detail label="Created">
            <RelativeTime iso={r.created_at} />
            {r.created_by && <> by @{r.created_by.username}</>}
          </Detail>
        </p>
      )}
    </div>
  );
}

function Owner({ runner: r }: { runner: RunnerListItem }) {
  const owner = r._runway?.owner;
  if (r.runner_type === 'instance_type') return <span className="text-slate-700">Administrator</span>;
  if (!owner) return muted('Unknown');
  const href = owner.type === 'project' ? projectHref(owner.full_path) : groupHref(owner.full_path);
  return (
    <Link href={href} className="block max-w-40 truncate text-indigo-700 hover:underline" title={owner.full_name}>
      {owner.name}
    </Link>
  );
}

function RowActions({ runner: r, editHref, onDelete }: { runner: RunnerListItem; editHref: string; onDelete: (r: RunnerListItem) => void }) {
  const can = r._runway_permissions;
  const setPaused = useSetRunnerPaused();
  if (!can.update_runner && !can.delete_runner) return null;
  const name = `runner #${r.id}`;
  // The promise, not mutate's callbacks: the row's cells may remount while the list refreshes.
  const togglePaused = () => {
    const paused = !r.paused;
    setPaused.mutateAsync({ id: r.id, paused }).then(
      () => toast(`Runner #${r.id} ${paused ? 'paused: it no longer accepts jobs' : 'resumed: it accepts jobs again'}`),
      () => undefined, // shown by the row (setPaused.error)
    );
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <ActionGroup label={`Actions for ${name}`}>
        {can.update_runner && (
          <>
            <ActionButton href={editHref} label={`Edit ${name}`} tooltip="Edit" icon={Pencil} />
            <ActionButton
              label={`${r.paused ? 'Resume' : 'Pause'} ${name}`}
              tooltip={r.paused ? 'Resume accepting jobs' : 'Pause from accepting jobs'}
              icon={r.paused ? Play : Pause}
              disabled={setPaused.isPending}
              onClick={togglePaused}
            />
          </>
        )}
        {can.delete_runner && <ActionButton label={`Delete ${name}`} tooltip="Delete runner" icon={Trash2} danger onClick={() => onDelete(r)} />}
      </ActionGroup>
      {setPaused.error && (
        <p role="alert" className="max-w-48 whitespace-normal text-right text-xs text-red-700">
          {errorText(setPaused.error)}
        </p>
      )}
    </div>
  );
}

export interface RunnersTableProps {
  data: RunnerListItem[] | undefined;
  pagination: ServerPage;
  onPageChange: (page: number) => void;
  isLoading: boolean;
  isFetching: boolean;
  error: unknown;
  onRetry: () => void;
  errorState?: ReactNode;
  empty: { title: string; description?: ReactNode };
  /** The runner's page, e.g. `/admin/runners/7`. */
  runnerHref: (id: number) => string;
  selected: Set<number>;
  onSelect: (runners: RunnerListItem[], on: boolean) => void;
}

export function RunnersTable(p: RunnersTableProps) {
  const { runnerHref, selected, onSelect, data } = p;
  const [deleting, setDeleting] = useState<RunnerListItem | null>(null);
  const remove = useDeleteRunner();
  const selectable = (data ?? []).filter(mayChange);
  const allOnPage = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  const someOnPage = selectable.some((r) => selected.has(r.id));

  const columns = useMemo(
    () => [
      column.display({
        id: 'select',
        meta: { keepHeader: true },
        header: () =>
          selectable.length ? (
            <label className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                aria-label="Select all runners on this page"
                className="size-4"
                checked={allOnPage}
                ref={(el) => {
                  if (el) el.indeterminate = someOnPage && !allOnPage;
                }}
                onChange={(e) => onSelect(selectable, e.target.checked)}
              />
              <span aria-hidden className="text-xs font-medium normal-case tracking-normal text-slate-600 md:hidden">
                Select all
              </span>
            </label>
          ) : null,
        cell: (c) =>
          mayChange(c.row.original) ? (
            <input
              type="checkbox"
              className="size-4"
              aria-label={`Select runner #${c.row.original.id}`}
              checked={selected.has(c.row.original.id)}
              onChange={(e) => onSelect([c.row.original], e.target.checked)}
            />
          ) : null,
      }),
      column.display({
        id: 'status',
        header: 'Status',
        cell: (c) => (
          <div className="flex flex-row flex-wrap items-start gap-1 md:flex-col">
            <RunnerStatusBadges runner={c.row.original} contactedAt={c.row.original._runway?.contacted_at} />
            {c.row.original.job_execution_status === 'active' ? (
              <IconBadge tone="info" icon={Activity} hint="Running jobs">
                Active
              </IconBadge>
            ) : (
              <IconBadge tone="neutral" hint="Not running jobs">
                Idle
              </IconBadge>
            )}
          </div>
        ),
      }),
      column.display({
        id: 'runner',
        header: 'Runner',
        meta: { className: 'w-full whitespace-normal md:min-w-64' },
        cell: (c) => <RunnerSummary runner={c.row.original} href={runnerHref(c.row.original.id)} />,
      }),
      column.display({ id: 'owner', header: 'Owner', meta: { cardLabel: true }, cell: (c) => <Owner runner={c.row.original} /> }),
      column.display({
        id: 'tags',
        header: 'Tags',
        meta: { className: 'whitespace-normal', cardLabel: true },
        // A block of fixed width: a table cell's own max-width does not bound its content.
        cell: (c) => (
          <div className="w-full md:w-44">
            <TagList tags={c.row.original._runway?.tag_list ?? []} />
          </div>
        ),
      }),
      column.display({
        id: 'actions',
        meta: { className: 'text-right max-md:ml-auto max-md:self-end' },
        // `relative`: the absolutely placed sr-only text stays inside the table's scroll box at 390 px.
        header: () => (
          <span className="relative block">
            <span className="sr-only">Actions</span>
          </span>
        ),
        cell: (c) => <RowActions runner={c.row.original} editHref={`${runnerHref(c.row.original.id)}/edit`} onDelete={setDeleting} />,
      }),
    ],
    [selectable, allOnPage, someOnPage, selected, onSelect, runnerHref],
  );

  return (
    <>
      <DataTable
        label="Runners"
        stacked
        columns={columns}
        data={data}
        getRowId={(r) => String(r.id)}
        pagination={p.pagination}
        onPageChange={p.onPageChange}
        isLoading={p.isLoading}
        isFetching={p.isFetching}
        error={p.error}
        onRetry={p.onRetry}
        errorState={p.errorState}
        empty={p.empty}
      />
      {deleting && (
        // Its own boundary: while the dialog's code loads, the table stays as it is (no page-wide fallback).
        <Suspense fallback={null}>
          <ConfirmDialog
            target={deleting ? deleting.id : null}
            title={deleting ? `Delete runner #${deleting.id}?` : ''}
            confirmLabel="Permanently delete runner"
            pendingLabel="Deleting…"
            mutation={remove}
            onClose={() => setDeleting(null)}
            onDone={() => {
              if (deleting) toast(`Runner #${deleting.id} was deleted`);
              setDeleting(null);
            }}
          >
            <p>
              {deleting?.description ? `“${deleting.description}” ` : 'The runner '}stops picking up jobs and its token stops working at once. This cannot be
              undone.
            </p>
          </ConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
