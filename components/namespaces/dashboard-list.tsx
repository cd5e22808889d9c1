'use client';
// The body of /dashboard/projects and /dashboard/groups: a title, a server-side search and one page of
// rows, with search and page in the URL (useListSearch) and the list's own empty, filtered-empty,
// loading and error states.
import type { UseQueryResult } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Page } from '@/lib/client/api';
import { Breadcrumbs, type Crumb } from '../ui/breadcrumbs';
import { DataTable, type Columns } from '../ui/data-table';
import { PageHeader } from '../ui/page-header';
import { SearchBox } from '../ui/search-box';
import { listEmpty } from './list-empty';
import { useListSearch } from './list-search';
import { PER_PAGE } from './use-namespaces';

export interface DashboardListProps<T extends { id: number }> {
  title: string;
  description: string;
  /** Plural, lower case: "projects". */
  noun: string;
  /** What the user can do about an empty list. */
  none: string;
  columns: Columns<T>;
  /** Buttons beside the title ("New user"). */
  actions?: ReactNode;
  /** A module-level hook (the same one on every render). */
  useList: (filters: { search?: string; page: number }) => UseQueryResult<Page<T>>;
  /** The trail above the title (Your work / Projects, Admin area / Users). */
  crumbs?: Crumb[];
  /** The empty list's illustration. */
  icon?: LucideIcon;
}

export function DashboardList<T extends { id: number }>({ title, description, noun, none, columns, actions, useList, crumbs, icon }: DashboardListProps<T>) {
  const { search, page, setSearch, setPage } = useListSearch();
  const list = useList({ search, page });
  const data = list.data;
  return (
    <div className="flex flex-col gap-6">
      {crumbs && <Breadcrumbs items={crumbs} />}
      <PageHeader title={title} description={description} actions={actions} />
      <div className="flex flex-col gap-3">
        <SearchBox label={`Search ${noun}`} placeholder="Filter by name" value={search ?? ''} onSearch={setSearch} className="sm:max-w-sm" />
        <DataTable
          label={title}
          cards
          columns={columns}
          data={data?.items}
          getRowId={(row) => String(row.id)}
          pagination={{ page, perPage: PER_PAGE, totalPages: data?.totalPages, total: data?.total, hasNext: data?.nextPage !== undefined }}
          onPageChange={setPage}
          isLoading={list.isPending}
          isFetching={list.isFetching && !list.isPending}
          error={list.error}
          onRetry={() => list.refetch()}
          empty={listEmpty({ noun, search, none, icon })}
        />
      </div>
    </div>
  );
}
