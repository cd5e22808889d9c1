'use client';
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, type ReactNode } from 'react';
import { DataTable } from '../ui/data-table';
import { formatDate } from '../tokens/format';
import type { Runner } from '@/lib/client/types';
import { hasFilters, type RunnerFilters } from '@/lib/client/runner-filters';
import { RunnerStatusBadges, RunnerTypeBadge } from './runner-badges';
import { PER_PAGE, useRunnerList } from './use-runners';
import { muted } from '../ui/muted';

const column = createColumnHelper<Runner>();

export const runnerPath = (id: number) => `/admin/runners/${id}`;

// No tags column: GitLab's list entry carries no tags, and one detail request per row would make every
// page load cost 20 extra requests. Tags show on the runner's page; the tag filter works on the list.

export function RunnersTable({ filters, onPageChange, errorState }: { filters: RunnerFilters; onPageChange: (page: number) => void; errorState?: ReactNode }) {
  const list = useRunnerList(filters);
  const columns = useMemo(
    () => [
      column.display({ id: 'status', header: 'Status', cell: (c) => <RunnerStatusBadges runner={c.row.original} /> }),
      column.display({
        id: 'runner',
        header: 'Runner',
        cell: (c) => {
          const r = c.row.original;
          return (
            <div className="min-w-0">
              <Link href={runnerPath(r.id)} className="font-medium text-indigo-700 hover:underline">
                #{r.id}
              </Link>
              <p className="max-w-xs truncate text-slate-900" title={r.description ?? undefined}>
                {r.description || muted('No description')}
              </p>
              {r.name && <p className="text-xs text-slate-500">{r.name}</p>}
            </div>
          );
        },
      }),
      column.accessor('runner_type', { header: 'Type', cell: (c) => <RunnerTypeBadge type={c.getValue()} /> }),
      column.accessor('created_at', {
        header: 'Created',
        cell: (c) => (
          <div>
            <span title={c.getValue()}>{formatDate(c.getValue())}</span>
            {c.row.original.created_by && <p className="text-xs text-slate-500">by @{c.row.original.created_by.username}</p>}
          </div>
        ),
      }),
    ],
    [],
  );

  const data = list.data;
  const filtered = hasFilters(filters);
  return (
    <DataTable
      label="Runners"
      columns={columns}
      data={data?.items}
      getRowId={(r) => String(r.id)}
      pagination={{
        page: filters.page,
        perPage: data?.perPage ?? PER_PAGE,
        totalPages: data?.totalPages,
        total: data?.total,
        hasNext: data?.nextPage !== undefined,
      }}
      onPageChange={onPageChange}
      isLoading={list.isPending}
      isFetching={list.isPlaceholderData}
      error={list.error}
      onRetry={() => list.refetch()}
      errorState={errorState}
      empty={{
        title: filtered ? 'No runners match these filters' : 'No runners',
        description: filtered ? 'Change or clear the filters to see more runners.' : 'Runners appear here once they are created or registered.',
      }}
    />
  );
}
