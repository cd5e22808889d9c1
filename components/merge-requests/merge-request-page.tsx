'use client';
// A merge request (/<full_path>/-/merge_requests/<iid>[/commits]) laid out like GitLab's: the title, the
// state badge, who requested to merge which branch into which, the Overview and Commits tabs (with the
// commit count) at addresses of their own, and a side panel with the assignees and reviewers, so who may
// act on the MR is visible. A project or MR the viewer cannot see is the layout's not-found page, as the
// API answers 404.
import { GitMerge, GitPullRequest, GitPullRequestClosed } from 'lucide-react';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { useCurrentUser } from '../dashboard/session-provider';
import { isNotFound, useProject, useProjectAccessLevel } from '../namespaces/use-namespaces';
import { formatDateTime } from '../shared/format';
import { cn } from '../ui/cn';
import { ErrorState, LoadingState } from '../ui/states';
import { canUpdateMergeRequest } from '@/lib/client/merge-request-abilities';
import { projectHref } from '@/lib/client/paths';
import type { MergeRequest, UserBasic } from '@/lib/client/types';
import { MergeRequestCommits } from './merge-request-commits';
import { ProjectBreadcrumbs } from '../namespaces/breadcrumbs';
import { MergeRequestStateBadge } from './state-badge';
import { useMergeRequest, useMergeRequestCommits } from './use-merge-requests';

export function MergeRequestPage({ fullPath, iid, tab }: { fullPath: string; iid: number; tab: 'overview' | 'commits' }) {
  const user = useCurrentUser();
  const project = useProject(fullPath);
  const mr = useMergeRequest(fullPath, iid);
  // The viewer's role with shares counted (a share-only Developer may add context commits); until it is
  // known the page decides from the project's `permissions`.
  const access = useProjectAccessLevel(fullPath, project.data);
  // Page 1 of the MR's commits, for the count on the Commits tab (the Commits tab shares it on page 1).
  const commitCount = useMergeRequestCommits(fullPath, iid, 1).data?.total;
  if (project.isPending || mr.isPending) return <LoadingState />;
  for (const q of [project, mr]) {
    if (q.error) {
      if (isNotFound(q.error)) notFound();
      return <ErrorState title="Could not load the merge request" error={q.error} onRetry={() => q.refetch()} />;
    }
  }
  const p = project.data!;
  const m = mr.data!;
  const canUpdate = canUpdateMergeRequest({ id: user.id, admin: user.admin, level: access.level }, m);
  const base = projectHref(p.path_with_namespace, `merge_requests/${iid}`);
  const tabs = [
    { id: 'overview', label: 'Overview', href: base, count: undefined },
    { id: 'commits', label: 'Commits', href: `${base}/commits`, count: commitCount },
  ];
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <ProjectBreadcrumbs
        fullPath={p.path_with_namespace}
        trail={[{ label: 'Merge requests', href: projectHref(p.path_with_namespace, 'merge_requests') }, { label: `!${iid}` }]}
      />
      <Header mr={m} />
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
        <div className="flex min-w-0 flex-col gap-5">
          <nav aria-label="Merge request tabs" className="flex gap-1 overflow-x-auto border-b border-slate-200">
            {tabs.map((t) => (
              <Link
                key={t.id}
                href={t.href}
                aria-current={tab === t.id ? 'page' : undefined}
                className={cn(
                  '-mb-px inline-flex items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
                  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600',
                  tab === t.id ? 'border-indigo-600 text-slate-900' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
                )}
              >
                {t.label}
                {/* The tab keeps its name ("Commits"); the section heading below reads the count out. */}
                {t.count !== undefined && (
                  <span aria-hidden className="rounded-full bg-slate-100 px-2 py-0.5 text-xs tabular-nums text-slate-700">
                    {t.count}
                  </span>
                )}
              </Link>
            ))}
          </nav>
          {tab === 'overview' ? (
            <Overview description={m.description} mergedAt={m.state === 'merged' ? m.merged_at : null} mergedBy={m.merged_by?.name ?? null} />
          ) : (
            <MergeRequestCommits fullPath={p.path_with_namespace} iid={iid} targetBranch={m.target_branch} canUpdate={canUpdate} />
          )}
        </div>
        <Sidebar mr={m} />
      </div>
    </div>
  );
}

const STATE_ICONS = { opened: GitPullRequest, locked: GitPullRequest, merged: GitMerge, closed: GitPullRequestClosed } as const;

function Branch({ name }: { name: string }) {
  return <code className="break-words rounded bg-indigo-50 px-1 py-0.5 text-xs text-indigo-800">{name}</code>;
}

function Header({ mr: m }: { mr: MergeRequest }) {
  const Icon = STATE_ICONS[m.state] ?? GitPullRequest;
  return (
    <header className="flex flex-col gap-2 border-b border-slate-200 pb-4">
      <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">{m.title}</h1>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
        <span className="inline-flex items-center gap-1">
          <Icon aria-hidden className="size-4 text-slate-500" />
          <MergeRequestStateBadge state={m.state} />
        </span>
        <span className="min-w-0 break-words">
          <span className="font-medium text-slate-900">{m.author?.name ?? 'A deleted user'}</span>
          {m.author && <span className="text-slate-500"> @{m.author.username}</span>} requested to merge <Branch name={m.source_branch} /> into{' '}
          <Branch name={m.target_branch} />
        </span>
        <span className="text-slate-500">
          · created <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
        </span>
      </div>
    </header>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

function People({ title, people }: { title: string; people: UserBasic[] }) {
  const id = `mr-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2 border-b border-slate-200 pb-4 last:border-b-0 last:pb-0">
      <h2 id={id} className="text-sm font-semibold text-slate-900">
        {title}
        {people.length > 1 && <span className="ml-1 font-normal text-slate-500">{people.length}</span>}
      </h2>
      {people.length ? (
        <ul aria-label={title} className="flex flex-col gap-2">
          {people.map((u) => (
            <li key={u.id} className="flex min-w-0 items-center gap-2 text-sm">
              <span
                aria-hidden
                className="inline-flex size-7 shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-700"
              >
                {initials(u.name)}
              </span>
              <span className="flex min-w-0 flex-col leading-tight">
                <span className="truncate font-medium text-slate-900">{u.name}</span>
                <span className="truncate text-xs text-slate-500">@{u.username}</span>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">None</p>
      )}
    </section>
  );
}

function Sidebar({ mr: m }: { mr: MergeRequest }) {
  return (
    <aside aria-label="Merge request details" className="flex h-fit flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 lg:order-none">
      <People title="Assignees" people={m.assignees} />
      <People title="Reviewers" people={m.reviewers ?? []} />
      <section aria-labelledby="mr-branches" className="flex flex-col gap-1 text-sm">
        <h2 id="mr-branches" className="text-sm font-semibold text-slate-900">
          Branches
        </h2>
        <p className="flex flex-wrap items-center gap-1 text-slate-600">
          <Branch name={m.source_branch} /> <span aria-hidden>→</span>
          <span className="sr-only">into</span> <Branch name={m.target_branch} />
        </p>
        <p className="text-xs text-slate-500">{m.reference}</p>
      </section>
    </aside>
  );
}

function Overview({ description, mergedAt, mergedBy }: { description: string | null; mergedAt: string | null; mergedBy: string | null }) {
  return (
    <section aria-label="Overview" className="flex flex-col gap-4">
      {description?.trim() ? (
        // Plain text with its line breaks: Runway renders no Markdown.
        <div className="whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800">{description}</div>
      ) : (
        <p className="text-sm text-slate-500">No description.</p>
      )}
      {mergedAt && (
        <p className="text-sm text-slate-600">
          Merged{mergedBy ? ` by ${mergedBy}` : ''} <time dateTime={mergedAt}>{formatDateTime(mergedAt)}</time>
        </p>
      )}
    </section>
  );
}
