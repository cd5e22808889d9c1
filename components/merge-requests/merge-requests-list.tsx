'use client';
// Merge requests (/<full_path>/-/merge_requests): Open / Merged / Closed / All tabs with counts, GitLab's
// filtered search (Author, Assignee, Reviewer, Source and Target branch, free text in titles and
// descriptions), sort and page; every choice lives in the URL in GitLab's parameter names.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import { isNotFound, useProject } from '../namespaces/use-namespaces';
import { formatDateTime } from '../shared/format';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { DataTable, type Columns } from '../ui/data-table';
import { SortAndClear } from '../ui/filtered-search';
import { ErrorState, LoadingState } from '../ui/states';
import { TabList, tabProps } from '../ui/tabs';
import { canonicalMrQuery, hasMrFilters, MR_SORTS, MR_STATES, mrFiltersQuery, NO_MR_FILTERS, parseMrFilters } from '@/lib/client/merge-request-filters';
import { projectHref } from '@/lib/client/paths';
import type { MergeRequest } from '@/lib/client/types';
import { useCanonicalFilters } from '@/lib/client/url-state';
import { MergeRequestFilterBar } from './merge-request-filter-bar';
import { ProjectBreadcrumbs } from '../namespaces/breadcrumbs';
import { MergeRequestStateBadge } from './state-badge';
import { MR_PER_PAGE, useMergeRequestCounts, useMergeRequestList } from './use-merge-requests';

export function MergeRequestsList({ fullPath }: { fullPath: string }) {
  const project = useProject(fullPath);
  const { filters, asked, update } = useCanonicalFilters(parseMrFilters, canonicalMrQuery, mrFiltersQuery);
  const list = useMergeRequestList(fullPath, filters);
  const counts = useMergeRequestCounts(
    fullPath,
    MR_STATES.map((s) => s.value),
    filters,
  );
  const [filtersOpen, setFiltersOpen] = useState(false);

  if (project.isPending) return <LoadingState />;
  if (project.error) {
    if (isNotFound(project.error)) notFound();
    return <ErrorState title="Could not load the project" error={project.error} onRetry={() => project.refetch()} />;
  }
  const path = project.data.path_with_namespace;
  const columns: Columns<MergeRequest> = [
    {
      id: 'title',
      header: 'Merge request',
      cell: ({ row: { original: mr } }) => (
        <div className="flex min-w-0 flex-col gap-0.5">
          <Link href={projectHref(path, `merge_requests/${mr.iid}`)} className="break-words font-medium text-slate-900 hover:text-indigo-700 hover:underline">
            {mr.title}
          </Link>
          <span className="text-xs text-slate-500">
            !{mr.iid} · opened <time dateTime={mr.created_at}>{formatDateTime(mr.created_at)}</time> by {mr.author?.name ?? 'a deleted user'}
          </span>
        </div>
      ),
    },
    {
      id: 'branches',
      header: 'Branches',
      cell: ({ row: { original: mr } }) => (
        <span className="text-xs text-slate-600">
          <code>{mr.source_branch}</code> → <code>{mr.target_branch}</code>
        </span>
      ),
    },
    { id: 'state', header: 'Status', cell: ({ row: { original: mr } }) => <MergeRequestStateBadge state={mr.state} /> },
  ];
  const filtered = hasMrFilters(filters);
  const activeFilters = Object.keys(NO_MR_FILTERS).filter((k) => filters[k as keyof typeof filters] !== undefined).length;
  const { state, page } = filters;
  const clear = (
    <Button variant="secondary" size="sm" onClick={() => update(NO_MR_FILTERS)}>
      Clear filters
    </Button>
  );
  return (
    <div className="flex flex-col gap-5">
      <ProjectBreadcrumbs fullPath={path} trail={[{ label: 'Merge requests' }]} />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Merge requests</h1>
      <div className="flex flex-col gap-3">
        <TabList label="Merge request state" className="flex gap-1 overflow-x-auto border-b border-slate-200">
          {MR_STATES.map((t, i) => (
            <button
              key={t.value}
              type="button"
              {...tabProps(asked.state === t.value)}
              onClick={() => update({ state: t.value })}
              className={cn(
                '-mb-px flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
                asked.state === t.value ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
              )}
            >
              {t.label}
              <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-700">{counts[i]?.data ?? '…'}</span>
            </button>
          ))}
        </TabList>

        {/* On a phone the filters wait behind a toggle, so the first screen shows merge requests. */}
        <div className="sm:hidden">
          <Button variant="secondary" size="sm" aria-expanded={filtersOpen} aria-controls="merge-request-filters" onClick={() => setFiltersOpen((o) => !o)}>
            <SlidersHorizontal aria-hidden className="size-4" />
            Filter{activeFilters ? ` (${activeFilters})` : ''}
          </Button>
        </div>

        <div
          id="merge-request-filters"
          role="search"
          aria-label="Filter merge requests"
          className={cn('flex-col gap-2 sm:flex-row sm:items-start', filtersOpen ? 'flex' : 'hidden sm:flex')}
        >
          <MergeRequestFilterBar fullPath={path} filters={asked} onChange={update} />
          <SortAndClear
            id="merge-request-sort"
            value={asked.sort}
            sorts={MR_SORTS}
            onSort={(sort) => update({ sort })}
            onClear={filtered ? () => update(NO_MR_FILTERS) : undefined}
          />
        </div>
      </div>
      <DataTable
        label="Merge requests"
        // A phone shows each merge request as a card (title, branches, status), not a table scrolled sideways.
        cards
        columns={columns}
        data={list.data?.items}
        getRowId={(mr) => String(mr.id)}
        pagination={{ page, perPage: MR_PER_PAGE, total: list.data?.total, totalPages: list.data?.totalPages, hasNext: Boolean(list.data?.nextPage) }}
        onPageChange={(p) => update({ page: p })}
        isLoading={list.isPending}
        isFetching={list.isFetching}
        error={list.error}
        onRetry={() => list.refetch()}
        empty={
          filtered
            ? {
                title: 'No merge requests match these filters',
                description: (
                  <div className="flex flex-col items-center gap-3">
                    <p>Change or remove a filter, or look in another tab.</p>
                    {clear}
                  </div>
                ),
              }
            : {
                title:
                  page > 1
                    ? `There is no page ${page}`
                    : `No ${state === 'all' ? '' : `${MR_STATES.find((t) => t.value === state)!.label.toLowerCase()} `}merge requests`,
              }
        }
      />
    </div>
  );
}
