// /admin/runners/dashboard: the runner fleet overview (GitLab EE's fleet dashboard path). Administrators only;
// everyone else gets the not-found page, as GitLab answers.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FleetDashboard } from '@/components/fleet/fleet-dashboard';
import { requireAdmin } from '@/components/admin/require-admin';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Fleet dashboard · Runners · Runway' };

export default async function FleetDashboardPage() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <FleetDashboard />
    </Suspense>
  );
}
