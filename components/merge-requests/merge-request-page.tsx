'use client';
// A merge request (/<full_path>/-/merge_requests/<iid>[/commits]): title, state, author, branches and
// description, with the Overview and Commits tabs at addresses of their own. A project or MR the viewer
// cannot see is the layout's not-found page, as the API answers 404.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { useCurrentUser } from '../dashboard/session-provider';
import { isNotFound, useProject } from '../namespaces/use-namespaces';
import { formatDateTime } from '../tokens/format';
import { cn } from '../ui/cn';
import { ErrorState, LoadingState } from '../ui/states';
import { effectiveLevel } from '@/lib/client/access-levels';
import { canUpdateMergeRequest } from '@/lib/client/merge-request-abilities';
import { projectHref } from '@/lib/client/paths';
import { MergeRequestCommits } from './merge-request-commits';
import { ProjectCrumbs } from './project-crumbs';
import { MergeRequestStateBadge } from './state-badge';
import { useMergeRequest } from './use-merge-requests';

export function MergeRequestPage({ fullPath, iid, tab }: { fullPath: string; iid: number; tab: 'overview' | 'commits' }) {
  const user = useCurrentUser();
  const project = useProject(fullPath);
  const mr = useMergeRequest(fullPath, iid);
  if (project.isPending || mr.isPending) return <LoadingState />;
  for (const q of [project, mr]) {
    if (q.error) {
      if (isNotFound(q.error)) notFound();
      return <ErrorState title="Could not load the merge request" error={q.error} onRetry={() => q.refetch()} />;
    }
  }
  const p = project.data!;
  const m = mr.data!;
  const canUpdate = canUpdateMergeRequest({ id: user.id, admin: user.admin, level: effectiveLevel(p.permissions) }, m);
  const base = projectHref(p.path_with_namespace, `merge_requests/${iid}`);
  const tabs = [
    { id: 'overview', label: 'Overview', href: base },
    { id: 'commits', label: 'Commits', href: `${base}/commits` },
  ];
  return (
    <div className="flex flex-col gap-5">
      <ProjectCrumbs
        fullPath={p.path_with_namespace}
        trail={[{ label: 'Merge requests', href: projectHref(p.path_with_namespace, 'merge_requests') }, { label: `!${iid}` }]}
      />
      <header className="flex flex-col gap-2">
        <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">{m.title}</h1>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
          <MergeRequestStateBadge state={m.state} />
          <span>
            <span className="font-medium text-slate-900">{m.author?.name ?? 'A deleted user'}</span>
            {m.author && <span className="text-slate-500"> @{m.author.username}</span>} requested to merge{' '}
            <code className="rounded bg-indigo-50 px-1 py-0.5 text-xs text-indigo-800">{m.source_branch}</code> into{' '}
            <code className="rounded bg-indigo-50 px-1 py-0.5 text-xs text-indigo-800">{m.target_branch}</code>
          </span>
          <span className="text-slate-500">
            · opened <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
          </span>
        </p>
      </header>
      <nav aria-label="Merge request tabs" className="flex gap-1 overflow-x-auto border-b border-slate-200">
        {tabs.map((t) => (
          <Link
            key={t.id}
            href={t.href}
            aria-current={tab === t.id ? 'page' : undefined}
            className={cn(
              '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
              tab === t.id ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
            )}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'overview' ? (
        <Overview description={m.description} mergedAt={m.state === 'merged' ? m.merged_at : null} mergedBy={m.merged_by?.name ?? null} />
      ) : (
        <MergeRequestCommits fullPath={p.path_with_namespace} iid={iid} targetBranch={m.target_branch} canUpdate={canUpdate} />
      )}
    </div>
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
