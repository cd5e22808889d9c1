// /dashboard/projects: GitLab's "Your projects", where signed-in users land.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ProjectsList } from '@/components/namespaces/projects-list';
import { LoadingState } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Projects · Runway' };

export default function ProjectsPage() {
  return (
    <Suspense fallback={<LoadingState />}>
      <ProjectsList />
    </Suspense>
  );
}
