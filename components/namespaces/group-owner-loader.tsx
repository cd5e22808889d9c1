'use client';
// A group page that depends on the viewer's access: the group and the viewer's level (an admin counts as an
// Owner), with the loading state, an error with a retry, and GitLab's 404 for a missing group.
// GroupOwnerLoader: the settings pages (General, CI/CD) are for Owners and administrators (GitLab's
// admin_group); everyone else gets the not-found page, as GitLab answers them.
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { useCurrentUser } from '../dashboard/session-provider';
import { ErrorState, LoadingState } from '../ui/states';
import { OWNER } from '@/lib/client/access-levels';
import type { Group } from '@/lib/client/types';
import { isNotFound, useGroup, useGroupAccessLevel } from './use-namespaces';

export function GroupAccessLoader({ fullPath, children }: { fullPath: string; children: (group: Group, level: number) => ReactNode }) {
  const { admin } = useCurrentUser();
  const group = useGroup(fullPath);
  const access = useGroupAccessLevel(fullPath, group.isSuccess && !admin);
  if (group.error) {
    if (isNotFound(group.error)) notFound();
    return <ErrorState title="Could not load the group" error={group.error} onRetry={() => group.refetch()} />;
  }
  // The access query waits for the group (disabled until then, so pending): a missing group is answered first.
  if (group.isPending || (!admin && access.isPending)) return <LoadingState />;
  if (!admin && access.error) return <ErrorState title="Could not load your access to the group" error={access.error} onRetry={() => access.refetch()} />;
  return children(group.data, admin ? OWNER : (access.data ?? 0));
}

export function GroupOwnerLoader({ fullPath, children }: { fullPath: string; children: (group: Group) => ReactNode }) {
  return (
    <GroupAccessLoader fullPath={fullPath}>
      {(group, level) => {
        if (level < OWNER) notFound();
        return children(group);
      }}
    </GroupAccessLoader>
  );
}
