// Not found inside the signed-in shell: unknown addresses, and projects, groups or admin pages the user may not see.
import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/dashboard/not-found-page';

export const metadata: Metadata = { title: 'Page not found · Runway' };

export default function DashboardNotFound() {
  return <NotFoundPage />;
}
