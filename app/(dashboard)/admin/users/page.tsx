// /admin/users: the Admin area's users. Like GitLab, it answers 404 to everyone but administrators.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AdminUsers } from '@/components/admin/admin-users';
import { LoadingState } from '@/components/ui/states';
import { requireAdmin } from '@/components/admin/require-admin';

export const metadata: Metadata = { title: 'Users · Admin area · Runway' };

export default async function AdminUsersPage() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <AdminUsers />
    </Suspense>
  );
}
