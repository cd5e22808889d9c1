// /admin/runners/alerts: fleet alerts, their rules and history (Runway extension; admins only, 404 for everyone
// else, as the Admin area).
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FleetAlertsPage } from '@/components/fleet-alerts/alerts-page';
import { requireAdmin } from '@/components/admin/require-admin';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Fleet alerts · Runners · Runway' };

export default async function FleetAlertsRoute() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <FleetAlertsPage />
    </Suspense>
  );
}
