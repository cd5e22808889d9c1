// The Admin area's pages answer 404 to everyone but administrators, as GitLab's do.
import { notFound } from 'next/navigation';
import { dashboardSession } from '@/lib/sessions/next-auth';

export async function requireAdmin(): Promise<void> {
  const session = await dashboardSession();
  if (!session?.user.admin) notFound();
}
