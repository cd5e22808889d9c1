// Not found outside the dashboard shell (the dashboard's catch-all route answers most unknown addresses).
import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/dashboard/not-found-page';

export const metadata: Metadata = { title: 'Page not found · Runway' };

export default function RootNotFound() {
  return (
    <main className="mx-auto max-w-3xl px-4">
      <NotFoundPage />
    </main>
  );
}
