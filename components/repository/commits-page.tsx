'use client';
// A ref's history (/<project>/-/commits/<ref>), as GitLab's commits page lays it out: a branch switcher, a
// search by message, the commits grouped by the day they were authored, newest first, then Previous/Next
// (GitLab's commits API counts no totals). The ref, search and page live in the URL.
import { GitCommitHorizontal, SearchX } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { CommitRow, commitsHref } from '../shared/commit-list';
import { ProjectLoader } from '../namespaces/project-loader';
import { formatDate } from '../shared/format';
import { Breadcrumbs, projectCrumbs, projectNamedPath } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { Pager } from '../ui/pager';
import { SearchBox } from '../ui/search-box';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import type { Commit, ProjectWithAccess } from '@/lib/client/types';
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';
import { RefSwitcher } from './ref-switcher';
import { useCommitPage } from './use-repository';

export function CommitsPage({ fullPath, gitRef }: { fullPath: string; gitRef: string | null }) {
  return <ProjectLoader fullPath={fullPath}>{(p) => <Commits project={p} gitRef={gitRef ?? p.default_branch} />}</ProjectLoader>;
}

/** Commits by the UTC day they were authored, in the order the API gave them. */
function byDay(commits: Commit[]): { day: string; commits: Commit[] }[] {
  const groups: { day: string; commits: Commit[] }[] = [];
  for (const c of commits) {
    const day = formatDate(c.authored_date) ?? '';
    const last = groups[groups.length - 1];
    if (last?.day === day) last.commits.push(c);
    else groups.push({ day, commits: [c] });
  }
  return groups;
}

function Commits({ project, gitRef }: { project: ProjectWithAccess; gitRef: string | null }) {
  const path = project.path_with_namespace;
  const router = useRouter();
  const { params, update } = useUrlState();
  const search = textParam(params, 'search');
  const page = pageParam(params);
  const crumbs = <Breadcrumbs items={projectCrumbs(projectNamedPath(project), [{ label: 'Commits' }])} />;
  if (!gitRef) {
    return (
      <div className="flex flex-col gap-5">
        {crumbs}
        <PageHeader title="Commits" />
        <EmptyState title="This repository is empty" icon={GitCommitHorizontal}>
          Its history appears here once the project is imported or receives its first push.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      {crumbs}
      <PageHeader title="Commits" description={`The history of ${gitRef}, newest first.`} />
      <div className="grid gap-2 sm:grid-cols-[minmax(0,16rem)_1fr]">
        <RefSwitcher fullPath={path} current={gitRef} onSelect={(name) => router.push(commitsHref(path, name))} />
        <SearchBox
          label="Search by message"
          placeholder="Search by message, author or SHA"
          value={search ?? ''}
          onSearch={(v) => update({ search: v }, { resetPages: ['page'], replace: true })}
        />
      </div>
      <CommitGroups fullPath={path} gitRef={gitRef} search={search} page={page} onPageChange={(p) => update({ page: p })} />
    </div>
  );
}

function CommitGroups(props: { fullPath: string; gitRef: string; search?: string; page: number; onPageChange: (page: number) => void }) {
  const list = useCommitPage(props.fullPath, { ref: props.gitRef, search: props.search, page: props.page });
  if (list.isPending) return <LoadingState label="Loading commits…" />;
  if (list.error) return <ErrorState title="Could not load the commits" error={list.error} onRetry={() => list.refetch()} />;
  const commits = list.data.items;
  if (!commits.length) {
    if (props.page > 1) {
      return (
        <EmptyState title={`There is no page ${props.page}`} icon={SearchX} action={<PagerFirst onPageChange={props.onPageChange} />}>
          This history has fewer pages.
        </EmptyState>
      );
    }
    return props.search ? (
      <EmptyState title="No commits match this search" icon={SearchX}>
        Nothing in {props.gitRef} has “{props.search}” in its message, author or SHA.
      </EmptyState>
    ) : (
      <EmptyState title={`No commits in ${props.gitRef}`} icon={GitCommitHorizontal}>
        The branch does not exist, or has no history yet.
      </EmptyState>
    );
  }
  return (
    <div className={`flex flex-col gap-4 ${list.isFetching ? 'opacity-60' : ''}`}>
      {byDay(commits).map((g) => (
        <section key={g.day} aria-label={`Commits on ${g.day}`} className="flex flex-col gap-2">
          <h2 className="flex items-center gap-2 text-sm font-semibold text-slate-700">
            {g.day}
            <span className="rounded-full bg-slate-100 px-2 text-xs font-medium text-slate-600">
              {g.commits.length} {g.commits.length === 1 ? 'commit' : 'commits'}
            </span>
          </h2>
          <ul aria-label={`Commits on ${g.day}`} className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
            {g.commits.map((c) => (
              <CommitRow key={c.id} fullPath={props.fullPath} commit={c} />
            ))}
          </ul>
        </section>
      ))}
      <Pager page={props.page} hasNext={Boolean(list.data.nextPage)} onPageChange={props.onPageChange} />
    </div>
  );
}

function PagerFirst({ onPageChange }: { onPageChange: (page: number) => void }) {
  return (
    <button type="button" onClick={() => onPageChange(1)} className="text-sm font-medium text-indigo-700 underline underline-offset-2">
      Go to the first page
    </button>
  );
}
