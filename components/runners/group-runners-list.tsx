'use client';
// /groups/<path>/-/runners: the group's runners (GET /groups/:id/runners with GitLab's `membership`), for
// group Maintainers and up; "New group runner" for Owners.
import Link from 'next/link';
import { NewRunnerButton } from './new-runner-button';
import { UsageExportButton } from '../runner-usage/usage-export';
import { GroupAccessLoader } from '../namespaces/group-owner-loader';
import { EmptyState } from '../ui/states';
import type { Group } from '@/lib/client/types';
import { MAINTAINER, OWNER } from '@/lib/client/access-levels';
import { groupHref } from '@/lib/client/paths';
import { RunnerListView } from './runners-list';
import { groupCrumbs, groupNamedPath } from '../ui/breadcrumbs';

export function GroupRunnersList({ fullPath }: { fullPath: string }) {
  return <GroupAccessLoader fullPath={fullPath}>{(g, level) => <GroupRunners g={g} level={level} />}</GroupAccessLoader>;
}

function GroupRunners({ g, level }: { g: Group; level: number }) {
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
      crumbs={groupCrumbs(groupNamedPath(g), [{ label: 'Runners' }])}
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
      actions={
        level >= OWNER ? (
          <>
            <UsageExportButton groupId={g.id} />
            <NewRunnerButton scope={{ kind: 'group', fullPath: g.full_path }} />
          </>
        ) : undefined
      }
      emptyDescription="Runners are the agents that run your CI/CD jobs. Create a group runner to get started."
    />
  );
}
