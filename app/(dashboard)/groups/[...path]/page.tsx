// /groups/<full_path>: a group's page (nested groups have nested paths), and the pages inside a group
// (/groups/<full_path>/-/runners, /-/settings/ci_cd, /-/edit: GitLab's Settings > General); other pages inside a
// group are not found.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { GroupCiCdSettings } from '@/components/namespaces/group-ci-cd-settings';
import { GroupGeneralSettings } from '@/components/namespaces/group-general-settings';
import { GroupOverview } from '@/components/namespaces/group-overview';
import { GroupRunnersList } from '@/components/runners/group-runners-list';
import { LoadingState } from '@/components/ui/states';
import { parseNamespacedRoute } from '@/lib/client/paths';
import { parseRunnerSubPage } from '@/lib/client/runner-paths';
import { RunnerRoute, runnerPageTitle } from '@/components/runners/runner-route';
import { externalUrl } from '@/lib/config/env';
import { requirePageAccess } from '@/lib/server/page-access';
import { prefetchGroupRunners } from '../../namespace-prefetch';
import type { SearchParams } from '../../page-prefetch';

type Props = { params: Promise<{ path: string[] }>; searchParams: Promise<SearchParams> };

const route = async ({ params }: Props) => parseNamespacedRoute((await params).path);

export async function generateMetadata(props: Props): Promise<Metadata> {
  const r = await route(props);
  if (r?.page.join('/') === 'runners') return { title: `Runners · ${r.fullPath} · Runway` };
  if (r?.page.join('/') === 'settings/ci_cd') return { title: `CI/CD Settings · ${r.fullPath} · Runway` };
  if (r?.page.join('/') === 'edit') return { title: `General Settings · ${r.fullPath} · Runway` };
  const runnerPage = r ? parseRunnerSubPage(r.page) : null;
  if (r && runnerPage) return { title: `${runnerPageTitle(runnerPage)} · ${r.fullPath} · Runway` };
  return { title: r ? `${r.fullPath} · Groups · Runway` : 'Page not found · Runway' };
}

export default async function GroupPage(props: Props) {
  const r = await route(props);
  // The group (and the runner) must be one the viewer may read, as the API decides: else a real 404.
  if (r?.page.join('/') === 'runners') {
    await requirePageAccess({ kind: 'group_runners', fullPath: r.fullPath });
    // The first page of the list is in the first HTML (issue 31), read as the viewer through the API.
    const prefetched = await prefetchGroupRunners(r.fullPath, await props.searchParams);
    return (
      <HydrationBoundary state={prefetched.state()}>
        <Suspense fallback={<LoadingState />}>
          <GroupRunnersList key={r.fullPath} fullPath={r.fullPath} />
        </Suspense>
      </HydrationBoundary>
    );
  }
  if (r?.page.join('/') === 'settings/ci_cd') {
    await requirePageAccess({ kind: 'group', fullPath: r.fullPath });
    return (
      <Suspense fallback={<LoadingState />}>
        <GroupCiCdSettings key={r.fullPath} fullPath={r.fullPath} />
      </Suspense>
    );
  }
  if (r?.page.join('/') === 'edit') {
    await requirePageAccess({ kind: 'group', fullPath: r.fullPath });
    return (
      <Suspense fallback={<LoadingState />}>
        <GroupGeneralSettings key={r.fullPath} fullPath={r.fullPath} />
      </Suspense>
    );
  }
  // A group's runner pages: /groups/<path>/-/runners/:id[/edit|/register], /-/runners/new.
  const runnerPage = r ? parseRunnerSubPage(r.page) : null;
  if (r && runnerPage) {
    await requirePageAccess(
      runnerPage.page === 'new'
        ? { kind: 'group', fullPath: r.fullPath }
        : { kind: 'runner', id: runnerPage.id, scope: { kind: 'group', fullPath: r.fullPath } },
    );
  }
  if (r && runnerPage) return <RunnerRoute sub={runnerPage} scope={{ kind: 'group', fullPath: r.fullPath }} externalUrl={externalUrl()} />;
  if (!r || r.page.length) notFound();
  await requirePageAccess({ kind: 'group', fullPath: r.fullPath });
  return (
    <Suspense fallback={<LoadingState />}>
      <GroupOverview key={r.fullPath} fullPath={r.fullPath} />
    </Suspense>
  );
}
