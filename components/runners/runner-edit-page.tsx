'use client';
// .../runners/:id/edit: GitLab's edit page (the form, then back to the runner) and the token reset.
import { useRouter } from 'next/navigation';
import { LoadingState, EmptyState } from '../ui/states';
import { runnerHref, type RunnerScope } from '@/lib/client/runner-paths';
import { RunnerCrumbs, RunnerLoadError } from './runner-detail';
import { RunnerEditForm } from './runner-edit-form';
import { RunnerHeader } from './runner-header';
import { ResetRunnerToken } from './reset-runner-token';
import { useRunner } from './use-runners';

export function RunnerEditPage({ id, scope }: { id: number; scope: RunnerScope }) {
  const runner = useRunner(id);
  const router = useRouter();
  if (runner.isPending) return <LoadingState />;
  if (runner.error) return <RunnerLoadError scope={scope} error={runner.error} onRetry={() => runner.refetch()} />;
  const r = runner.data;
  const back = () => router.push(runnerHref(scope, r.id));
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <RunnerCrumbs scope={scope} trail={[{ label: `#${r.id}`, href: runnerHref(scope, r.id) }, { label: 'Edit' }]} />
        <RunnerHeader runner={r} title={`Runner #${r.id}`} />
      </div>
      {r._runway_permissions.update_runner ? (
        <>
          <RunnerEditForm runner={r} onSaved={back} onCancel={back} />
          <ResetRunnerToken runnerId={r.id} />
        </>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <EmptyState title="You cannot edit this runner">
            Runners can be changed by administrators, the owners of their group or the maintainers of their projects.
          </EmptyState>
        </div>
      )}
    </div>
  );
}
