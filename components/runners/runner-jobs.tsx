'use client';
// The runner's jobs, newest first (order_by=id&sort=desc), one page at a time; the page is ?jobs_page=.
// On a phone each job is a card (DataTable `cards`): the table's seven columns would scroll sideways.
// The job itself is text, not a link: Runway has no job page (GitLab links it to /-/jobs/:id).
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { useState } from 'react';
import { DataTable } from '../ui/data-table';
import { formatDateTime } from '../shared/format';
import type { RunnerJob } from '@/lib/client/types';
import { JobStatusBadge } from './runner-badges';
import { JOBS_PER_PAGE, useRunnerJobs } from './use-runners';
import { muted } from '../ui/muted';
import { projectHref } from '@/lib/client/paths';
import { timeAgo } from '../shared/format';

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
        // Wraps (the cell is nowrap) so a long path does not push the table wider than the page.
        <Link href={projectHref(p.path_with_namespace)} className="block max-w-60 whitespace-normal break-words text-indigo-700 hover:underline">
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
      // Only a commit the repository has is linked (the API's `commit`); a pipeline's SHA alone is shown as text.
      const sha = j.commit?.id ?? j.pipeline?.sha;
      return (
        <div className="flex min-w-0 flex-col">
          {j.commit && j.project ? (
            <Link href={projectHref(j.project.path_with_namespace, `commit/${j.commit.id}`)} className="font-mono text-xs text-indigo-700 hover:underline">
              {j.commit.id.slice(0, 8)}
            </Link>
          ) : sha ? (
            <span className="font-mono text-xs text-slate-600">{sha.slice(0, 8)}</span>
          ) : (
            muted('—')
          )}
          {/* A long ref is cut with its full name in the title, so it never pushes Finished out of the table. */}
          <code className="max-w-56 truncate text-xs text-slate-500" title={j.ref}>
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

// The statuses offered as filters (GET /runners/:id/jobs takes every one of GitLab's; these are the ones a
// runner's jobs end in or wait in). Another status in the URL still filters, shown as its own choice.
const JOB_FILTERS = [
  { value: '', label: 'All' },
  { value: 'running', label: 'Running' },
  { value: 'pending', label: 'Pending' },
  { value: 'success', label: 'Passed' },
  { value: 'failed', label: 'Failed' },
  { value: 'canceled', label: 'Canceled' },
  { value: 'skipped', label: 'Skipped' },
  { value: 'manual', label: 'Manual' },
];

/** A row of radio buttons (one tab stop, arrow keys move), every choice visible, wrapping on a phone. */
function StatusFilter({ status, onChange }: { status?: string; onChange: (status: string | undefined) => void }) {
  // The choice shows at once; the URL (and so `status`) follows a moment later.
  const [chosen, setChosen] = useState(status ?? '');
  const [seen, setSeen] = useState(status);
  if (seen !== status) {
    setSeen(status);
    setChosen(status ?? '');
  }
  const options =
    status && !JOB_FILTERS.some((f) => f.value === status) ? [...JOB_FILTERS, { value: status, label: status.replaceAll('_', ' ') }] : JOB_FILTERS;
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Job status</legend>
      <span aria-hidden className="text-sm font-medium text-slate-700">
        Status
      </span>
      {options.map((o) => (
        <label
          key={o.value}
          className="relative cursor-pointer rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-700 has-[:checked]:border-indigo-600 has-[:checked]:bg-indigo-600 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600"
        >
          <input
            type="radio"
            name="runner-jobs-status"
            value={o.value}
            checked={chosen === o.value}
            onChange={() => {
              setChosen(o.value);
              onChange(o.value || undefined);
            }}
            className="absolute inset-0 cursor-pointer appearance-none opacity-0"
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

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
      {onStatusChange && <StatusFilter status={status} onChange={onStatusChange} />}
      <DataTable
        label="Runner jobs"
        cards
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
