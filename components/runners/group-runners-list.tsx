'use client';
// /groups/<path>/-/runners: the group's runners (GET /groups/:id/runners with GitLab's `membership`), for
// group Maintainers and up; "New group runner" for Owners.
import Link from 'next/link';
import { NewRunnerButton } from './new-runner-button';
import { notFound } from 'next/navigation';
import { useCurrentUser } from '../dashboard/session-provider';
import { isNotFound, useGroup, useGroupAccessLevel } from '../namespaces/use-namespaces';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { MAINTAINER, OWNER } from '@/lib/client/access-levels';
import { groupHref } from '@/lib/client/paths';
import { RunnerListView } from './runners-list';

export function GroupRunnersList({ fullPath }: { fullPath: string }) {
  const { admin } = useCurrentUser();
  const group = useGroup(fullPath);
  const access = useGroupAccessLevel(fullPath, group.isSuccess && !admin);

  if (group.error) {
    if (isNotFound(group.error)) notFound();
    return <ErrorState title="Could not load the group" error={group.error} onRetry={() => group.refetch()} />;
  }
  // The access query waits for the group (disabled until then, so pending): a missing group is answered first.
  if (group.isPending || (!admin && access.isPending)) return <LoadingState />;
  const g = group.data;
  const level = admin ? OWNER : (access.data ?? 0);
  if (level < MAINTAINER) {
    return (
      <EmptyState title="You cannot see this group's runners">
        Group runners are shown to the group&apos;s Maintainers and Owners.{' '}
        <Link href={groupHref(g.full_path)} className="text-indigo-700 hover:underline">
          Back to {g.name}
        </Link>
      </EmptyState>
    );
  }
  return (
    <RunnerListView
      source={{ kind: 'group', groupId: g.id }}
      group
      title="Runners"
      description={
        <>
          Runners of{' '}
          <Link href={groupHref(g.full_path)} className="text-indigo-700 underline hover:text-indigo-900">
            {g.full_name ?? g.name}
          </Link>
          , its subgroups and projects.
        </>
      }
      runnerHref={(id) => groupHref(g.full_path, `runners/${id}`)}
      actions={level >= OWNER ? <NewRunnerButton scope={{ kind: 'group', fullPath: g.full_path }} /> : undefined}
      emptyDescription="Runners are the agents that run your CI/CD jobs. Create a group runner to get started."
    />
  );
}
