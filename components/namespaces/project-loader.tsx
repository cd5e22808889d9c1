'use client';
// Loads a project by full path for a page inside it: a spinner meanwhile, the not-found page when the API
// says 404 (missing or not visible), an error with "Try again" otherwise.
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { ErrorState, LoadingState } from '../ui/states';
import type { ProjectWithAccess } from '@/lib/client/types';
import { isNotFound, useProject } from './use-namespaces';

export function ProjectLoader({ fullPath, children }: { fullPath: string; children: (project: ProjectWithAccess) => ReactNode }) {
  const project = useProject(fullPath);
  if (project.isPending) return <LoadingState />;
  if (project.error) {
    if (isNotFound(project.error)) notFound();
    return <ErrorState title="Could not load the project" error={project.error} onRetry={() => project.refetch()} />;
  }
  return <>{children(project.data)}</>;
}
