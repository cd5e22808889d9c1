// /<full_path>: a project's page (/acme/platform/ci/pipeline-tools), or a top-level group's (/acme), as
// GitLab serves both at the namespace's own path. Pages inside a project (/<full_path>/-/settings/ci_cd,
// /-/merge_requests, ...) come later; until then they, reserved prefixes and unknown paths are not found.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { GroupOverview } from '@/components/namespaces/group-overview';
import { ProjectOverview } from '@/components/namespaces/project-overview';
import { LoadingState } from '@/components/ui/states';
import { parseNamespacedRoute } from '@/lib/client/paths';
import { parseRunnerSubPage } from '@/lib/client/runner-paths';
import { RunnerRoute, runnerPageTitle } from '@/components/runners/runner-route';
import { externalUrl } from '@/lib/config/env';

type Props = { params: Promise<{ path: string[] }> };

const route = async ({ params }: Props) => parseNamespacedRoute((await params).path, { reservedFirst: true });

export async function generateMetadata(props: Props): Promise<Metadata> {
  const r = await route(props);
  const runnerPage = r && r.depth > 1 ? parseRunnerSubPage(r.page) : null;
  if (r && runnerPage) return { title: `${runnerPageTitle(runnerPage)} · ${r.fullPath} · Runway` };
  return { title: r ? `${r.fullPath} · Runway` : 'Page not found · Runway' };
}

export default async function NamespacedPage(props: Props) {
  const r = await route(props);
  // A project's runner pages: /<project path>/-/runners/:id[/edit|/register], /-/runners/new.
  const runnerPage = r && r.depth > 1 ? parseRunnerSubPage(r.page) : null;
  if (r && runnerPage) return <RunnerRoute sub={runnerPage} scope={{ kind: 'project', fullPath: r.fullPath }} externalUrl={externalUrl()} />;
  if (!r || r.page.length) notFound();
  return (
    <Suspense fallback={<LoadingState />}>
      {r.depth === 1 ? <GroupOverview key={r.fullPath} fullPath={r.fullPath} /> : <ProjectOverview key={r.fullPath} fullPath={r.fullPath} />}
    </Suspense>
  );
}
