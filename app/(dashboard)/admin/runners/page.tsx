// /admin/runners: GitLab's path for the runner list. Admins see every runner; other users the runners
// they own (the client picks the endpoint from the session).
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
