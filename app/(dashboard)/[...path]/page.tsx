// /<full_path>: a project's page (/acme/platform/ci/pipeline-tools), or a top-level group's (/acme), as
// GitLab serves both at the namespace's own path; and the pages inside a project that the dashboard has
// (/<full_path>/-/merge_requests[/<iid>[/commits]], /-/commits[/<ref>], /-/branches, /-/commit/<sha>,
// /-/settings/ci_cd, /-/edit). Other `/-/` pages, reserved prefixes
// and unknown paths are not found.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { CommitPage } from '@/components/merge-requests/commit-page';
import { MergeRequestPage } from '@/components/merge-requests/merge-request-page';
import { BranchesPage } from '@/components/repository/branches-page';
import { CommitsPage } from '@/components/repository/commits-page';
import { MergeRequestsList } from '@/components/merge-requests/merge-requests-list';
import { GroupOverview } from '@/components/namespaces/group-overview';
import { ProjectCiCdSettings } from '@/components/namespaces/project-runners-settings';
import { ProjectGeneralSettings } from '@/components/namespaces/project-general-settings';
import { ProjectOverview } from '@/components/namespaces/project-overview';
import { LoadingState } from '@/components/ui/states';
import { parseNamespacedRoute, parseProjectPage, type ProjectPage } from '@/lib/client/paths';
import { parseRunnerSubPage } from '@/lib/client/runner-paths';
import { RunnerRoute, runnerPageTitle } from '@/components/runners/runner-route';
import { externalUrl } from '@/lib/config/env';
import { dashboardSession } from '@/lib/sessions/next-auth';
import { refResolves } from '@/lib/repositories/handlers';
import { requirePageAccess } from '@/lib/server/page-access';
import { prefetchMergeRequests, prefetchProjectCiCd } from '../namespace-prefetch';
import type { SearchParams } from '../page-prefetch';

type Props = { params: Promise<{ path: string[] }>; searchParams: Promise<SearchParams> };

const route = async ({ params }: Props) => parseNamespacedRoute((await params).path, { reservedFirst: true });

function pageTitle(fullPath: string, page: ProjectPage | null): string {
  if (page?.kind === 'merge_requests') return `Merge requests · ${fullPath}`;
  if (page?.kind === 'merge_request') return `!${page.iid}${page.tab === 'commits' ? ' · Commits' : ''} · ${fullPath}`;
  if (page?.kind === 'commit') return `Commit ${page.sha.slice(0, 8)} · ${fullPath}`;
  if (page?.kind === 'commits') return `Commits${page.ref ? ` · ${page.ref}` : ''} · ${fullPath}`;
  if (page?.kind === 'branches') return `Branches · ${fullPath}`;
  if (page?.kind === 'ci_cd_settings') return `CI/CD Settings · ${fullPath}`;
  if (page?.kind === 'general_settings') return `General Settings · ${fullPath}`;
  return fullPath;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const r = await route(props);
  if (!r) return { title: 'Page not found · Runway' };
  const runnerPage = r.depth > 1 ? parseRunnerSubPage(r.page) : null;
  if (runnerPage) return { title: `${runnerPageTitle(runnerPage)} · ${r.fullPath} · Runway` };
  return { title: `${pageTitle(r.fullPath, r.page.length ? parseProjectPage(r.page) : null)} · Runway` };
}

export default async function NamespacedPage(props: Props) {
  const r = await route(props);
  if (!r) notFound();
  // The object the page shows must be one the viewer may read, as the API decides: else a real 404.
  const namespace = { kind: r.depth === 1 ? ('group' as const) : ('project' as const), fullPath: r.fullPath };
  if (!r.page.length) {
    await requirePageAccess(namespace);
    return (
      <Suspense fallback={<LoadingState />}>
        {r.depth === 1 ? <GroupOverview key={r.fullPath} fullPath={r.fullPath} /> : <ProjectOverview key={r.fullPath} fullPath={r.fullPath} />}
      </Suspense>
    );
  }
  // Projects live under a namespace: a one-segment path is a group, which has no such pages.
  // A project's runner pages: /<project path>/-/runners/:id[/edit|/register], /-/runners/new.
  const runnerPage = r.depth > 1 ? parseRunnerSubPage(r.page) : null;
  if (runnerPage) {
    await requirePageAccess(runnerPage.page === 'new' ? namespace : { kind: 'runner', id: runnerPage.id, scope: { kind: 'project', fullPath: r.fullPath } });
  }
  if (runnerPage) return <RunnerRoute sub={runnerPage} scope={{ kind: 'project', fullPath: r.fullPath }} externalUrl={externalUrl()} />;
  const page = r.depth > 1 ? parseProjectPage(r.page) : null;
  if (!page) notFound();
  await requirePageAccess(page.kind === 'merge_request' ? { kind: 'merge_request', fullPath: r.fullPath, iid: page.iid } : namespace);
  // GitLab answers 404 for the history of a ref that does not exist (the page would show an empty one).
  if (page.kind === 'commits' && page.ref) {
    const session = await dashboardSession();
    if ((await refResolves(session?.actor ?? null, r.fullPath, page.ref)) === false) notFound();
  }
  // The lists' first page is in the first HTML (issue 31), read as the viewer through the API.
  const sp = await props.searchParams;
  const prefetched =
    page.kind === 'merge_requests'
      ? (await prefetchMergeRequests(r.fullPath, sp)).state()
      : page.kind === 'ci_cd_settings'
        ? (await prefetchProjectCiCd(r.fullPath, sp)).state()
        : dehydrate(new QueryClient());
  return (
    <HydrationBoundary state={prefetched}>
      <Suspense fallback={<LoadingState />}>
        {page.kind === 'merge_requests' && <MergeRequestsList key={r.fullPath} fullPath={r.fullPath} />}
        {page.kind === 'merge_request' && <MergeRequestPage key={`${r.fullPath}!${page.iid}`} fullPath={r.fullPath} iid={page.iid} tab={page.tab} />}
        {page.kind === 'ci_cd_settings' && <ProjectCiCdSettings key={r.fullPath} fullPath={r.fullPath} />}
        {page.kind === 'general_settings' && <ProjectGeneralSettings key={r.fullPath} fullPath={r.fullPath} />}
        {page.kind === 'commits' && <CommitsPage key={`${r.fullPath}@${page.ref}`} fullPath={r.fullPath} gitRef={page.ref} />}
        {page.kind === 'branches' && <BranchesPage key={r.fullPath} fullPath={r.fullPath} />}
        {page.kind === 'commit' && <CommitPage key={`${r.fullPath}@${page.sha}`} fullPath={r.fullPath} sha={page.sha} />}
      </Suspense>
    </HydrationBoundary>
  );
}
