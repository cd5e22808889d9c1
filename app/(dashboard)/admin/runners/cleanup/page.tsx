// /admin/runners/cleanup: Runway's stale-runner cleanup (admins only; 404 for everyone else, as the Admin area).
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RunnerCleanupPage } from '@/components/runner-cleanup/cleanup-page';
import { requireAdmin } from '@/components/admin/require-admin';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Clean up stale runners · Runners · Runway' };

export default async function RunnerCleanupRoute() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <RunnerCleanupPage />
    </Suspense>
  );
}
