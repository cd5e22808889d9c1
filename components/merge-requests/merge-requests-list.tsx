'use client';
// Merge requests (/<full_path>/-/merge_requests): Open / Merged / Closed / All tabs with counts, search by
// title, an author filter and sort, paged; every choice lives in the URL.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { isNotFound, useProject } from '../namespaces/use-namespaces';
import { formatDateTime } from '../tokens/format';
import { cn } from '../ui/cn';
import { DataTable, type Columns } from '../ui/data-table';
import { SearchBox } from '../ui/search-box';
import { ErrorState, LoadingState } from '../ui/states';
import { projectHref } from '@/lib/client/paths';
import type { MergeRequest } from '@/lib/client/types';
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';
import { ProjectCrumbs } from './project-crumbs';
import { MergeRequestStateBadge } from './state-badge';
import { MR_PER_PAGE, useMergeRequestCounts, useMergeRequestList, type MrListFilters, type MrStateFilter } from './use-merge-requests';

const TABS: { state: MrStateFilter; label: string }[] = [
  { state: 'opened', label: 'Open' },
  { state: 'merged', label: 'Merged' },
  { state: 'closed', label: 'Closed' },
  { state: 'all', label: 'All' },
];

const SORTS = [
  { value: 'created_desc', label: 'Created date, newest first' },
  { value: 'created_asc', label: 'Created date, oldest first' },
  { value: 'updated_desc', label: 'Updated date, newest first' },
  { value: 'title_asc', label: 'Title, A to Z' },
] as const;

function parseSort(value: string | null): { key: string; orderBy: MrListFilters['orderBy']; sort: MrListFilters['sort'] } {
  const key = SORTS.some((s) => s.value === value) ? value! : 'created_desc';
  const [field, sort] = key.split('_') as [string, 'asc' | 'desc'];
  return { key, orderBy: field === 'created' ? 'created_at' : field === 'updated' ? 'updated_at' : 'title', sort };
}

export function MergeRequestsList({ fullPath }: { fullPath: string }) {
  const project = useProject(fullPath);
  const { params, update } = useUrlState();
  const stateParam = params.get('state');
  const state: MrStateFilter = TABS.some((t) => t.state === stateParam) ? (stateParam as MrStateFilter) : 'opened';
  const search = textParam(params, 'search');
  const author = textParam(params, 'author_username');
  const sort = parseSort(params.get('sort'));
  const page = pageParam(params);
  const filters: MrListFilters = { state, search, author, orderBy: sort.orderBy, sort: sort.sort, page };
  const list = useMergeRequestList(fullPath, filters);
  const counts = useMergeRequestCounts(
    fullPath,
    TABS.map((t) => t.state),
    { search, author },
  );

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
  const filtered = Boolean(search || author);
  return (
    <div className="flex flex-col gap-5">
      <ProjectCrumbs fullPath={path} trail={[{ label: 'Merge requests' }]} />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Merge requests</h1>
      <div role="tablist" aria-label="Merge request state" className="flex gap-1 overflow-x-auto border-b border-slate-200">
        {TABS.map((t, i) => (
          <button
            key={t.state}
            type="button"
            role="tab"
            aria-selected={state === t.state}
            onClick={() => update({ state: t.state === 'opened' ? undefined : t.state }, { resetPages: ['page'] })}
            className={cn(
              '-mb-px flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
              state === t.state ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {t.label}
            <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-700">{counts[i]?.data ?? '…'}</span>
          </button>
        ))}
      </div>
      <div className="grid gap-2 sm:grid-cols-[1fr_14rem_14rem]">
        <SearchBox
          label="Search merge requests"
          placeholder="Search by title"
          value={search ?? ''}
          onSearch={(v) => update({ search: v }, { resetPages: ['page'], replace: true })}
        />
        <SearchBox
          label="Author username"
          placeholder="Author username"
          value={author ?? ''}
          onSearch={(v) => update({ author_username: v }, { resetPages: ['page'], replace: true })}
        />
        <label className="flex flex-col">
          <span className="sr-only">Sort by</span>
          <select
            aria-label="Sort by"
            value={sort.key}
            onChange={(e) => update({ sort: e.target.value === 'created_desc' ? undefined : e.target.value }, { resetPages: ['page'] })}
            className="h-9 rounded-md border-0 px-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600"
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable
        label="Merge requests"
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
            ? { title: 'No merge requests match these filters', description: 'Change the search or the author, or look in another tab.' }
            : {
                title:
                  page > 1
                    ? `There is no page ${page}`
                    : `No ${state === 'all' ? '' : `${TABS.find((t) => t.state === state)!.label.toLowerCase()} `}merge requests`,
              }
        }
      />
    </div>
  );
}
