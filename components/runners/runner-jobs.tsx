'use client';
// The runner's jobs, newest first (order_by=id&sort=desc), one page at a time; the page is ?jobs_page=.
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../ui/data-table';
import { formatDateTime } from '../tokens/format';
import type { RunnerJob } from '@/lib/client/types';
import { JobStatusBadge } from './runner-badges';
import { JOBS_PER_PAGE, useRunnerJobs } from './use-runners';
import { muted } from '../ui/muted';
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

const columns = [
  column.accessor('id', { header: 'Job', cell: (c) => <span className="font-medium text-slate-900">#{c.getValue()}</span> }),
  column.accessor('status', { header: 'Status', cell: (c) => <JobStatusBadge status={c.getValue()} /> }),
  column.display({
    id: 'name',
    header: 'Name',
    cell: (c) => (
      <div>
        <p className="text-slate-900">{c.row.original.name}</p>
        <p className="text-xs text-slate-500">{c.row.original.stage}</p>
      </div>
    ),
  }),
  column.accessor('ref', { header: 'Ref', cell: (c) => <code className="text-xs">{c.getValue()}</code> }),
  column.display({ id: 'project', header: 'Project', cell: (c) => c.row.original.project?.path_with_namespace ?? '' }),
  column.accessor('duration', { header: 'Duration', cell: (c) => formatDuration(c.getValue()) ?? muted('—') }),
  column.accessor('created_at', { header: 'Created', cell: (c) => <span title={c.getValue()}>{formatDateTime(c.getValue())}</span> }),
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
