// /admin/runners: GitLab's path for the runner list. Admins see every runner; other users the runners
// they own (the client picks the endpoint from the session).
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { NewRunnerButton } from '@/components/runners/new-runner-button';
import { RunnersList } from '@/components/runners/runners-list';
import { ADMIN_SCOPE } from '@/lib/client/runner-paths';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Runners · Runway' };

export default function RunnersPage() {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex justify-end">
        <NewRunnerButton scope={ADMIN_SCOPE} />
      </div>
      <Suspense fallback={<LoadingState />}>
        <RunnersList />
      </Suspense>
    </div>
  );
}
