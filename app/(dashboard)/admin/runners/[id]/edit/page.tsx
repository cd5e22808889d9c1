// /admin/runners/:id/edit: a runner's edit page.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RunnerRoute, runnerPageTitle } from '@/components/runners/runner-route';
import { externalUrl } from '@/lib/config/env';
import { ADMIN_SCOPE, parseRunnerSubPage } from '@/lib/client/runner-paths';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const sub = parseRunnerSubPage(['runners', (await params).id, 'edit']);
  return { title: sub ? `${runnerPageTitle(sub)} · Runway` : 'Page not found · Runway' };
}

export default async function RunnerPage({ params }: Props) {
  // Only positive integers are runner ids; anything else is not a page.
  const sub = parseRunnerSubPage(['runners', (await params).id, 'edit']);
  if (!sub) notFound();
  return <RunnerRoute sub={sub} scope={ADMIN_SCOPE} externalUrl={externalUrl()} />;
}
