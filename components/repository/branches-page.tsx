'use client';
// A repository's branches (/<project>/-/branches), as GitLab's branches page lists them: a filter by name,
// then each branch with its badges (default, protected, merged) and its last commit; the name leads to the
// branch's commits. Search and page live in the URL. As GitLab's page, the default branch comes first (the
// API lists by name, so the page reads it apart and leaves it out of the pages by name).
import { GitBranch, SearchX } from 'lucide-react';
import Link from 'next/link';
import { commitHref, commitsHref } from '../shared/commit-list';
import { ProjectLoader } from '../namespaces/project-loader';
import { formatDateTime } from '../shared/format';
import { Badge } from '../ui/badge';
import { Breadcrumbs, projectCrumbs, projectNamedPath } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { Pager } from '../ui/pager';
import { SearchBox } from '../ui/search-box';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import type { Branch, ProjectWithAccess } from '@/lib/client/types';
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';
import { useBranch, useBranchPage } from './use-repository';

export function BranchesPage({ fullPath }: { fullPath: string }) {
  return <ProjectLoader fullPath={fullPath}>{(p) => <Branches project={p} />}</ProjectLoader>;
}

function Branches({ project }: { project: ProjectWithAccess }) {
  const path = project.path_with_namespace;
  const { params, update } = useUrlState();
  const search = textParam(params, 'search');
  const page = pageParam(params);
  const list = useBranchPage(path, { search, page });
  const wantsDefault = !!project.default_branch && page === 1 && (!search || project.default_branch.toLowerCase().includes(search.toLowerCase()));
  const defaultBranch = useBranch(path, wantsDefault ? project.default_branch : null);
  const items = list.data ? [...(defaultBranch.data ? [defaultBranch.data] : []), ...list.data.items.filter((b) => !b.default)] : [];
  let body;
  if (list.isPending || (wantsDefault && defaultBranch.isPending)) body = <LoadingState label="Loading branches…" />;
  else if (list.error) body = <ErrorState title="Could not load the branches" error={list.error} onRetry={() => list.refetch()} />;
  else if (!items.length)
    body = search ? (
      <EmptyState title="No branches match this search" icon={SearchX}>
        No branch name contains “{search}”.
      </EmptyState>
    ) : page > 1 ? (
      <EmptyState title={`There is no page ${page}`} icon={SearchX} />
    ) : (
      <EmptyState title="There are no branches" icon={GitBranch}>
        The repository is empty: branches appear once it is imported or receives its first push.
      </EmptyState>
    );
  else
    body = (
      <div className="flex flex-col gap-4">
        <ul
          aria-label="Branches"
          className={`divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm ${list.isFetching ? 'opacity-60' : ''}`}
        >
          {items.map((b) => (
            <BranchRow key={b.name} fullPath={path} branch={b} />
          ))}
        </ul>
        <Pager page={page} totalPages={list.data.totalPages} hasNext={Boolean(list.data.nextPage)} onPageChange={(p) => update({ page: p })} />
      </div>
    );
  return (
    <div className="flex flex-col gap-5">
      <Breadcrumbs items={projectCrumbs(projectNamedPath(project), [{ label: 'Branches' }])} />
      <PageHeader
        title="Branches"
        description={
          list.data?.total !== undefined ? `${list.data.total} ${list.data.total === 1 ? 'branch' : 'branches'}${search ? ' match' : ''}` : undefined
        }
      />
      <SearchBox
        label="Filter by branch name"
        placeholder="Filter by branch name"
        value={search ?? ''}
        onSearch={(v) => update({ search: v }, { resetPages: ['page'], replace: true })}
      />
      {body}
    </div>
  );
}

function BranchRow({ fullPath, branch: b }: { fullPath: string; branch: Branch }) {
  return (
    <li className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="flex min-w-0 flex-wrap items-center gap-2">
          <GitBranch aria-hidden className="size-4 shrink-0 text-slate-500" />
          <Link href={commitsHref(fullPath, b.name)} className="break-all font-mono text-sm font-medium text-indigo-700 hover:underline">
            {b.name}
          </Link>
          {b.default && <Badge tone="info">default</Badge>}
          {b.protected && <Badge tone="success">protected</Badge>}
          {b.merged && <Badge tone="neutral">merged</Badge>}
        </p>
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-xs text-slate-600">
          <Link
            href={commitHref(fullPath, b.commit.id)}
            className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-700 hover:underline"
            aria-label={`Commit ${b.commit.short_id}`}
          >
            {b.commit.short_id}
          </Link>
          <span className="min-w-0 break-words text-slate-700">{b.commit.title}</span>
          <span>
            updated <time dateTime={b.commit.committed_date}>{formatDateTime(b.commit.committed_date)}</time>
          </span>
        </p>
      </div>
      <Link
        href={commitsHref(fullPath, b.name)}
        className="shrink-0 self-start rounded-md px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 sm:self-center"
        aria-label={`Commits of ${b.name}`}
      >
        Commits
      </Link>
    </li>
  );
}
