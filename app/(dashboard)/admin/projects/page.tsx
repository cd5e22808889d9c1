// /admin/projects: the Admin area's projects. Like GitLab, it answers 404 to everyone but administrators.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AdminProjects } from '@/components/admin/admin-namespaces';
import { LoadingState } from '@/components/ui/states';
import { requireAdmin } from '@/components/admin/require-admin';

export const metadata: Metadata = { title: 'Projects · Admin area · Runway' };

export default async function AdminProjectsPage() {
  await requireAdmin();
  return (
    <Suspense fallback={<LoadingState />}>
      <AdminProjects />
    </Suspense>
  );
}
