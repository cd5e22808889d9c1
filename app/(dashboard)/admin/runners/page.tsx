// /admin/runners: GitLab's path for the runner list of every runner (the admin layout keeps others out).
// The first page (rows and counts) is in the first HTML: read on the server, handed to the browser's cache.
import type { Metadata } from 'next';
import { HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { RunnersList } from '@/components/runners/runners-list';
import { LoadingState } from '@/components/ui/states';
import { GET as listAllRunners } from '@/app/api/v4/runners/all/route';
import { GET as countAllRunners } from '@/app/api/v4/runners/all/counts/route';
import { prefetchRunnerList, type SearchParams } from '../../runner-list-prefetch';

export const metadata: Metadata = { title: 'Runners · Runway' };

export default async function RunnersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const state = (await prefetchRunnerList({ kind: 'all' }, await searchParams, { list: listAllRunners, counts: countAllRunners })).state();
  return (
    <HydrationBoundary state={state}>
      <Suspense fallback={<LoadingState />}>
        <RunnersList />
      </Suspense>
    </HydrationBoundary>
  );
}
