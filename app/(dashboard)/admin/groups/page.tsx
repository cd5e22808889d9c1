// /admin/groups: the Admin area's groups. Like GitLab, it answers 404 to everyone but administrators.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AdminGroups } from '@/components/admin/admin-namespaces';
import { LoadingState } from '@/components/ui/states';
import { requireAdmin } from '@/components/admin/require-admin';

export const metadata: Metadata = { title: 'Groups · Admin area · Runway' };

export default async function AdminGroupsPage() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <AdminGroups />
    </Suspense>
  );
}
