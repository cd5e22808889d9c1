// /dashboard/groups: GitLab's "Your groups".
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { GroupsList } from '@/components/namespaces/groups-list';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Groups · Runway' };

export default function GroupsPage() {
  return (
    <Suspense fallback={<LoadingState />}>
      <GroupsList />
    </Suspense>
  );
}
