'use client';
// The runner's jobs, newest first (order_by=id&sort=desc), one page at a time; the page is ?jobs_page=.
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { DataTable } from '../ui/data-table';
import { formatDateTime } from '../tokens/format';
import type { RunnerJob } from '@/lib/client/types';
import { JobStatusBadge } from './runner-badges';
import { JOBS_PER_PAGE, useRunnerJobs } from './use-runners';
import { muted } from '../ui/muted';
import { projectHref } from '@/lib/client/paths';
import { timeAgo } from './runners-table';
import { inputClass } from '../ui/input';

const column = createColumnHelper<RunnerJob>();

/** 75.3 -> "1m 15s"; GitLab reports float seconds. */
export function formatDuration(seconds: number | null): string | null {
  if (seconds === null || seconds === undefined) return null;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${rest}s`;
  return `${rest}s`;
}

const when = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} title={formatDateTime(iso) ?? undefined}>
      {timeAgo(iso)}
    </time>
  ) : null;

// GitLab's runner jobs table: status (icon and word), the job, its project and commit (links), how long it
// queued, and when it finished and how long it ran.
const columns = [
  column.accessor('status', { header: 'Status', cell: (c) => <JobStatusBadge status={c.getValue()} /> }),
  column.display({
    id: 'job',
    header: 'Job',
    cell: (c) => (
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          #{c.row.original.id} <span className="font-normal break-words">{c.row.original.name}</span>
        </p>
        <p className="text-xs text-slate-500">{c.row.original.stage}</p>
      </div>
    ),
  }),
  column.display({
    id: 'project',
    header: 'Project',
    cell: (c) => {
      const p = c.row.original.project;
      return p ? (
        <Link href={projectHref(p.path_with_namespace)} className="break-words text-indigo-700 hover:underline">
          {p.path_with_namespace}
        </Link>
      ) : (
        muted('—')
      );
    },
  }),
  column.display({
    id: 'commit',
    header: 'Commit',
    cell: (c) => {
      const j = c.row.original;
      const sha = j.commit?.id ?? j.pipeline?.sha;
      return (
        <div className="flex min-w-0 flex-col">
          {sha && j.project ? (
            <Link href={projectHref(j.project.path_with_namespace, `commit/${sha}`)} className="font-mono text-xs text-indigo-700 hover:underline">
              {sha.slice(0, 8)}
            </Link>
          ) : (
            muted('—')
          )}
          <code className="truncate text-xs text-slate-500" title={j.ref}>
            {j.ref}
          </code>
        </div>
      );
    },
  }),
  column.accessor('queued_duration', { header: 'Queued', cell: (c) => formatDuration(c.getValue()) ?? muted('—') }),
  column.display({
    id: 'finished',
    header: 'Finished',
    cell: (c) => {
      const j = c.row.original;
      const ran = formatDuration(j.duration);
      return (
        <div className="flex flex-col text-sm">
          <span>{when(j.finished_at) ?? muted(j.started_at ? 'Running' : 'Not started')}</span>
          {ran && <span className="text-xs text-slate-500">{j.finished_at ? `in ${ran}` : `for ${ran}`}</span>}
        </div>
      );
    },
  }),
];

// The statuses GET /runners/:id/jobs filters by (GitLab's Ci::HasStatus::AVAILABLE_STATUSES).
const JOB_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
];

export function RunnerJobs({
  runnerId,
  page,
  onPageChange,
  status,
  onStatusChange,
}: {
  runnerId: number;
  page: number;
  onPageChange: (page: number) => void;
  status?: string;
  onStatusChange?: (status: string | undefined) => void;
}) {
  const jobs = useRunnerJobs(runnerId, page, status);
  const data = jobs.data;
  return (
    <div className="flex flex-col gap-3">
      {onStatusChange && (
        <div className="flex items-center gap-2">
          <label htmlFor="runner-jobs-status" className="shrink-0 text-sm font-medium text-slate-700">
            Job status
          </label>
          <select
            id="runner-jobs-status"
            value={status ?? ''}
            onChange={(e) => onStatusChange(e.target.value || undefined)}
            className={`${inputClass} max-w-56`}
          >
            <option value="">All statuses</option>
            {JOB_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
      )}
      <DataTable
        label="Runner jobs"
        columns={columns}
        data={data?.items}
        getRowId={(j) => String(j.id)}
        pagination={{ page, perPage: data?.perPage ?? JOBS_PER_PAGE, totalPages: data?.totalPages, total: data?.total, hasNext: data?.nextPage !== undefined }}
        onPageChange={onPageChange}
        isLoading={jobs.isPending}
        isFetching={jobs.isPlaceholderData}
        error={jobs.error}
        onRetry={() => jobs.refetch()}
        empty={
          status
            ? { title: 'No jobs with this status', description: 'Choose another status or all statuses.' }
            : { title: 'No jobs yet', description: 'Jobs this runner picks up are listed here.' }
        }
      />
    </div>
  );
}
