// The Admin area (/admin and every page under it): like GitLab, it answers 404 to everyone but administrators,
// so a non-admin never sees an admin page, even for the moment before a client-side check would run.
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { dashboardSession } from '@/lib/sessions/next-auth';

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await dashboardSession();
  if (!session?.user.admin) notFound();
  return children;
}
