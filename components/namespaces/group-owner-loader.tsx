'use client';
// A group's settings pages (General, CI/CD) are for Owners and administrators (GitLab's admin_group); everyone
// else gets the not-found page, as GitLab answers them. This loads the group and the viewer's access to it,
// with the loading state, an error with a retry, and the 404, and renders the page only for those who may.
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { useCurrentUser } from '../dashboard/session-provider';
import { ErrorState, LoadingState } from '../ui/states';
import { OWNER } from '@/lib/client/access-levels';
import type { Group } from '@/lib/client/types';
import { isNotFound, useGroup, useGroupAccessLevel } from './use-namespaces';

export function GroupOwnerLoader({ fullPath, children }: { fullPath: string; children: (group: Group) => ReactNode }) {
  const { admin } = useCurrentUser();
  const group = useGroup(fullPath);
  const access = useGroupAccessLevel(fullPath, group.isSuccess && !admin);
  if (group.error) {
    if (isNotFound(group.error)) notFound();
    return <ErrorState title="Could not load the group" error={group.error} onRetry={() => group.refetch()} />;
  }
  // The access query waits for the group (disabled until then, so pending): a missing group is answered first.
  if (group.isPending || (!admin && access.isPending)) return <LoadingState />;
  if (access.error) return <ErrorState title="Could not load your access to the group" error={access.error} onRetry={() => access.refetch()} />;
  if (!admin && (access.data ?? 0) < OWNER) notFound();
  return children(group.data);
}
