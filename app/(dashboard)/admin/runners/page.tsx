// /admin/runners: GitLab's path for the runner list of every runner (the admin layout keeps others out).
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RunnersList } from '@/components/runners/runners-list';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Runners · Runway' };

export default function RunnersPage() {
  return (
    <Suspense fallback={<LoadingState />}>
      <RunnersList />
    </Suspense>
  );
}
