// /admin/audit_logs (GitLab's path for the Admin area's audit events). Like GitLab, 404 to everyone but administrators.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AdminAuditEvents } from '@/components/audit/admin-audit-events';
import { LoadingState } from '@/components/ui/states';
import { requireAdmin } from '@/components/admin/require-admin';

export const metadata: Metadata = { title: 'Audit events · Admin area · Runway' };

export default async function AdminAuditLogsPage() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <AdminAuditEvents />
    </Suspense>
  );
}
