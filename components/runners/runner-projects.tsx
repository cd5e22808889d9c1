'use client';
// The projects a project runner is assigned to: searchable, five a page (GitLab's runner page), the owner
// project (the first assignment, the one that created it) flagged. Search and page live in the URL.
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Badge } from '../ui/badge';
import { SearchBox } from '../ui/search-box';
import { Button } from '../ui/button';
import Link from 'next/link';
import { projectHref } from '@/lib/client/paths';
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';
import { useRunnerProjects } from './use-runners';

export function RunnerProjects({ runnerId, ownerProjectId }: { runnerId: number; ownerProjectId: number | null }) {
  const { params, update } = useUrlState();
  const page = pageParam(params, 'projects_page');
  const search = textParam(params, 'projects_search') ?? '';
  const projects = useRunnerProjects(runnerId, page, search, true);
  const data = projects.data;
  return (
    <section aria-labelledby="runner-projects-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="runner-projects-heading" className="text-lg font-semibold text-slate-900">
          Assigned projects {data?.total !== undefined && <span className="font-normal text-slate-500">({data.total})</span>}
        </h2>
        <SearchBox
          label="Search projects"
          placeholder="Search projects"
          value={search}
          onSearch={(v) => update({ projects_search: v }, { resetPages: ['projects_page'], replace: true })}
          className="sm:w-64"
        />
      </div>
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={projects.isFetching}>
        {projects.isPending ? (
          <LoadingState />
        ) : projects.error ? (
          <ErrorState title="Could not load the projects" error={projects.error} onRetry={() => projects.refetch()} />
        ) : !data?.items.length ? (
          <EmptyState title={search ? 'No projects match this search' : 'No projects'}>
            {search ? 'Try another name or path.' : 'This runner is not assigned to any project you can see.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Assigned projects">
            {data.items.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <Link href={projectHref(p.path_with_namespace)} className="min-w-0 break-words text-sm font-medium text-indigo-700 hover:underline">
                  {p.name_with_namespace}
                </Link>
                {p.id === ownerProjectId && (
                  <span title="The project that created this runner">
                    <Badge tone="info">Owner</Badge>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {data && (data.totalPages ?? 1) > 1 && (
        <nav aria-label="Projects pagination" className="flex items-center justify-between gap-2 text-sm text-slate-600">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => update({ projects_page: page - 1 })}>
            Previous
          </Button>
          <span>
            Page {page} of {data.totalPages}
          </span>
          <Button variant="secondary" size="sm" disabled={data.nextPage === undefined} onClick={() => update({ projects_page: page + 1 })}>
            Next
          </Button>
        </nav>
      )}
    </section>
  );
}
