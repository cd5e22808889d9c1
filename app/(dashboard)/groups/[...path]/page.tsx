// /groups/<full_path>: a group's page (nested groups have nested paths). Pages inside a group
// (/groups/<full_path>/-/runners, ...) come later; until then they are not found.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { GroupOverview } from '@/components/namespaces/group-overview';
import { LoadingState } from '@/components/ui/states';
import { parseNamespacedRoute } from '@/lib/client/paths';

type Props = { params: Promise<{ path: string[] }> };

const route = async ({ params }: Props) => parseNamespacedRoute((await params).path);

export async function generateMetadata(props: Props): Promise<Metadata> {
  const r = await route(props);
  return { title: r ? `${r.fullPath} · Groups · Runway` : 'Page not found · Runway' };
}

export default async function GroupPage(props: Props) {
  const r = await route(props);
  if (!r || r.page.length) notFound();
  return (
    <Suspense fallback={<LoadingState />}>
      <GroupOverview key={r.fullPath} fullPath={r.fullPath} />
    </Suspense>
  );
}
