// /admin: the Admin area's overview. Like GitLab, it answers 404 to everyone but administrators.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AdminOverview } from '@/components/admin/admin-overview';
import { dashboardSession } from '@/lib/sessions/next-auth';

export const metadata: Metadata = { title: 'Admin area · Runway' };

export default async function AdminPage() {
  const session = await dashboardSession();
  if (!session?.user.admin) notFound();
  return <AdminOverview />;
}
