'use client';
// "New instance runner" / "New group runner" / "New project runner": a link to the create form, shown to
// those GitLab shows it to (instance runners: administrators; the caller decides for groups and projects).
import Link from 'next/link';
import { buttonClass } from '../ui/button';
import { useCurrentUser } from '../dashboard/session-provider';
import { newRunnerHref, type RunnerScope } from '@/lib/client/runner-paths';

const LABEL: Record<RunnerScope['kind'], string> = { admin: 'New instance runner', group: 'New group runner', project: 'New project runner' };

export function NewRunnerButton({ scope }: { scope: RunnerScope }) {
  const { admin } = useCurrentUser();
  if (scope.kind === 'admin' && !admin) return null;
  return (
    // Not prefetched on sight, as the menu's links (side-nav.tsx): it would compete with the page's data.
    <Link href={newRunnerHref(scope)} prefetch={false} className={buttonClass('primary')}>
      {LABEL[scope.kind]}
    </Link>
  );
}
