'use client';
// Loads a project by full path for a page inside it: a spinner meanwhile, the not-found page when the API
// says 404 (missing or not visible), an error with "Try again" otherwise. Pages that decide from the
// viewer's role ask for `access`: they also wait for the viewer's effective level, which counts the groups
// the project is shared with (use-namespaces.ts, useProjectAccessLevel).
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { ErrorState, LoadingState } from '../ui/states';
import type { ProjectWithAccess } from '@/lib/client/types';
import { isNotFound, useProject, useProjectAccessLevel } from './use-namespaces';

export function ProjectLoader({
  fullPath,
  access = false,
  children,
}: {
  fullPath: string;
  access?: boolean;
  children: (project: ProjectWithAccess, level: number) => ReactNode;
}) {
  const project = useProject(fullPath);
  const level = useProjectAccessLevel(fullPath, project.data, access);
  if (project.isPending || level.isPending) return <LoadingState />;
  if (project.error) {
    if (isNotFound(project.error)) notFound();
    return <ErrorState title="Could not load the project" error={project.error} onRetry={() => project.refetch()} />;
  }
  if (level.error) return <ErrorState title="Could not load your role in the project" error={level.error} onRetry={() => level.refetch()} />;
  return <>{children(project.data, level.level)}</>;
}
