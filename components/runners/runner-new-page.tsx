'use client';
// .../runners/new for the admin area, a group or a project: the create form aimed at the right owner (a
// group's or project's id, looked up by its path).
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { PageHeader } from '../ui/page-header';
import { isNotFound, useGroup, useProject } from '../namespaces/use-namespaces';
import type { RunnerScope } from '@/lib/client/runner-paths';
import { RunnerCrumbs } from './runner-detail';
import { newRunnerTitle, RunnerCreateForm, type NewRunnerTarget } from './runner-create-form';

const INTRO: Record<RunnerScope['kind'], string> = {
  admin: 'Create an instance runner to generate a command that registers the runner with all its configurations.',
  group: 'Create a group runner to generate a command that registers the runner with all its configurations.',
  project: 'Create a project runner to generate a command that registers the runner with all its configurations.',
};

function NewRunner({ scope, target }: { scope: RunnerScope; target: NewRunnerTarget }) {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <RunnerCrumbs scope={scope} trail={[{ label: 'New runner' }]} />
        <PageHeader title={newRunnerTitle(target.runner_type)} description={INTRO[scope.kind]} />
      </div>
      <RunnerCreateForm scope={scope} target={target} />
    </div>
  );
}

function Owner({
  scope,
  query,
  toTarget,
}: {
  scope: RunnerScope;
  query: { isPending: boolean; error: Error | null; data?: { id: number }; refetch: () => unknown };
  toTarget: (id: number) => NewRunnerTarget;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.error || !query.data) {
    return (
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
        {isNotFound(query.error) ? (
          <EmptyState title="Page not found">The group or project does not exist, or you cannot see it.</EmptyState>
        ) : (
          <ErrorState error={query.error} onRetry={() => query.refetch()} />
        )}
      </div>
    );
  }
  return <NewRunner scope={scope} target={toTarget(query.data.id)} />;
}

function GroupNewRunner({ scope, fullPath }: { scope: RunnerScope; fullPath: string }) {
  const group = useGroup(fullPath);
  return <Owner scope={scope} query={group} toTarget={(group_id) => ({ runner_type: 'group_type', group_id })} />;
}

function ProjectNewRunner({ scope, fullPath }: { scope: RunnerScope; fullPath: string }) {
  const project = useProject(fullPath);
  return <Owner scope={scope} query={project} toTarget={(project_id) => ({ runner_type: 'project_type', project_id })} />;
}

export function RunnerNewPage({ scope }: { scope: RunnerScope }) {
  if (scope.kind === 'group') return <GroupNewRunner scope={scope} fullPath={scope.fullPath} />;
  if (scope.kind === 'project') return <ProjectNewRunner scope={scope} fullPath={scope.fullPath} />;
  return <NewRunner scope={scope} target={{ runner_type: 'instance_type' }} />;
}
