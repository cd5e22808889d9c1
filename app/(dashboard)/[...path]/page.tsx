// /<full_path>: a project's page (/acme/platform/ci/pipeline-tools), or a top-level group's (/acme), as
// GitLab serves both at the namespace's own path. Pages inside a project (/<full_path>/-/settings/ci_cd,
// /-/merge_requests, ...) come later, apart from the CI/CD settings; reserved prefixes and unknown paths are
// not found.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { GroupOverview } from '@/components/namespaces/group-overview';
import { ProjectCiCdSettings } from '@/components/namespaces/project-runners-settings';
import { ProjectOverview } from '@/components/namespaces/project-overview';
import { LoadingState } from '@/components/ui/states';
import { parseNamespacedRoute } from '@/lib/client/paths';

type Props = { params: Promise<{ path: string[] }> };

const route = async ({ params }: Props) => parseNamespacedRoute((await params).path, { reservedFirst: true });

export async function generateMetadata(props: Props): Promise<Metadata> {
  const r = await route(props);
  if (!r) return { title: 'Page not found · Runway' };
  return { title: r.page.length ? `CI/CD Settings · ${r.fullPath} · Runway` : `${r.fullPath} · Runway` };
}

export default async function NamespacedPage(props: Props) {
  const r = await route(props);
  if (!r) notFound();
  if (r.page.length) {
    // Pages inside a project; groups have theirs under /groups/.
    if (r.depth < 2 || r.page.join('/') !== 'settings/ci_cd') notFound();
    return (
      <Suspense fallback={<LoadingState />}>
        <ProjectCiCdSettings key={r.fullPath} fullPath={r.fullPath} />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<LoadingState />}>
      {r.depth === 1 ? <GroupOverview key={r.fullPath} fullPath={r.fullPath} /> : <ProjectOverview key={r.fullPath} fullPath={r.fullPath} />}
    </Suspense>
  );
}
