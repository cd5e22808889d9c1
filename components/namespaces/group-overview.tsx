'use client';
// A group's page (/groups/<full_path>): its subgroups and projects, one page each (pages in the URL), and
// its runners for Maintainers and up (read_group_runners) and administrators, its General and CI/CD settings
// for Owners.
import { notFound } from 'next/navigation';
import type { ColumnDef } from '@tanstack/react-table';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '@/lib/client/api';
import { useCurrentUser } from '../dashboard/session-provider';
import { DataTable, type Columns } from '../ui/data-table';
import { ErrorState, LoadingState } from '../ui/states';
import { MAINTAINER, OWNER } from '@/lib/client/access-levels';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { Group, Project } from '@/lib/client/types';
import { pageParam, useUrlState } from '@/lib/client/url-state';
import { groupColumns } from './groups-list';
import { LinkCards } from './link-cards';
import { Server, ServerCog, Settings } from 'lucide-react';
import { NameCell } from './name-cell';
import { isNotFound, PER_PAGE, useGroup, useGroupAccessLevel, useGroupProjects, useSubgroups } from './use-namespaces';
import { NamespaceHeader } from './namespace-header';
import { groupCrumbs, groupNamedPath } from '../ui/breadcrumbs';
import { VisibilityBadge } from './visibility-badge';

const projectColumns: ColumnDef<Project>[] = [
  {
    id: 'name',
    header: 'Project',
    cell: ({ row: { original: p } }) => <NameCell href={projectHref(p.path_with_namespace)} name={p.name} description={p.description} />,
  },
  { id: 'visibility', header: 'Visibility', cell: ({ row }) => <VisibilityBadge visibility={row.original.visibility} /> },
  { id: 'branch', header: 'Default branch', cell: ({ row }) => row.original.default_branch ?? <span className="text-slate-400">—</span> },
];

// Inside a group its subgroups go by their own names (the group is in the breadcrumbs already).
const subgroupColumns: ColumnDef<Group>[] = [
  { id: 'name', header: 'Subgroup', cell: ({ row: { original: g } }) => <NameCell href={groupHref(g.full_path)} name={g.name} description={g.description} /> },
  ...groupColumns.slice(1),
];

export function GroupOverview({ fullPath }: { fullPath: string }) {
  const { admin } = useCurrentUser();
  const { params, update } = useUrlState();
  const subgroupsPage = pageParam(params, 'subgroups_page');
  const projectsPage = pageParam(params, 'projects_page');
  const group = useGroup(fullPath);
  const found = group.isSuccess;
  const subgroups = useSubgroups(fullPath, subgroupsPage, found);
  const projects = useGroupProjects(fullPath, projectsPage, found);
  const access = useGroupAccessLevel(fullPath, found && !admin);

  if (group.isPending) return <LoadingState />;
  if (group.error) {
    if (isNotFound(group.error)) notFound();
    return <ErrorState title="Could not load the group" error={group.error} onRetry={() => group.refetch()} />;
  }
  const g = group.data;
  const mayReadRunners = admin || (access.data ?? 0) >= MAINTAINER;
  const mayAdminister = admin || (access.data ?? 0) >= OWNER;
  return (
    <div className="flex flex-col gap-6">
      <NamespaceHeader kind="Group" id={g.id} name={g.name} description={g.description} visibility={g.visibility} crumbs={groupCrumbs(groupNamedPath(g))} />
      {mayReadRunners && (
        <LinkCards
          label="Group pages"
          links={[
            {
              href: groupHref(g.full_path, 'runners'),
              label: 'Runners',
              hint: 'Group runners, shared with every project in this group and its subgroups.',
              icon: Server,
            },
            // The settings pages are for Owners (admin_group), as GitLab's.
            ...(mayAdminister
              ? [
                  {
                    href: groupHref(g.full_path, 'edit'),
                    label: 'General settings',
                    hint: 'Name, description and visibility; permissions and group features.',
                    icon: Settings,
                  },
                  {
                    href: groupHref(g.full_path, 'settings/ci_cd'),
                    label: 'CI/CD settings',
                    hint: 'Instance runners for the projects and subgroups of this group.',
                    icon: ServerCog,
                  },
                ]
              : []),
          ]}
        />
      )}
      <ListSection
        title="Subgroups"
        query={subgroups}
        columns={subgroupColumns}
        page={subgroupsPage}
        onPageChange={(page) => update({ subgroups_page: page })}
      />
      <ListSection title="Projects" query={projects} columns={projectColumns} page={projectsPage} onPageChange={(page) => update({ projects_page: page })} />
    </div>
  );
}

/** One of the group's lists under its heading (with the total), paged through its own URL key. */
function ListSection<T extends { id: number }>(props: {
  title: string;
  query: UseQueryResult<Page<T>>;
  columns: Columns<T>;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const { title, query, page } = props;
  const headingId = `${title.toLowerCase()}-heading`;
  const noun = title.toLowerCase();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {title}
        {query.data?.total !== undefined && <span className="ml-2 text-sm font-normal text-slate-500">{query.data.total}</span>}
      </h2>
      <DataTable
        label={title}
        columns={props.columns}
        data={query.data?.items}
        getRowId={(row) => String(row.id)}
        pagination={{ page, perPage: PER_PAGE, totalPages: query.data?.totalPages, total: query.data?.total }}
        onPageChange={props.onPageChange}
        isLoading={query.isPending}
        isFetching={query.isFetching && !query.isPending}
        error={query.error}
        onRetry={() => query.refetch()}
        empty={{ title: `No ${noun}`, description: `This group has no ${noun} you can see.` }}
      />
    </section>
  );
}
