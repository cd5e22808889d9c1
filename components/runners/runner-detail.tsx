'use client';
// One runner: its details, pause/resume, edit, delete (after confirmation), its managers and recent jobs.
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { EmptyState, ErrorState, InlineError, LoadingState } from '../ui/states';
import { formatDateTime } from '../tokens/format';
import { ApiError } from '@/lib/client/api';
import type { RunnerDetails } from '@/lib/client/types';
import { DeleteRunnerDialog } from './delete-runner-dialog';
import { RunnerStatusBadges, RunnerTypeBadge, TagList, runnerTypeLabel } from './runner-badges';
import { RunnerEditForm } from './runner-edit-form';
import { RunnerJobs } from './runner-jobs';
import { RunnerManagers } from './runner-managers';
import { useRunner, useUpdateRunner } from './use-runners';
import { muted } from '../ui/muted';

export const RUNNERS_PATH = '/admin/runners';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:gap-4">
      <dt className="w-44 shrink-0 text-sm text-slate-500">{label}</dt>
      <dd className="min-w-0 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function RunnerFacts({ runner }: { runner: RunnerDetails }) {
  const platform = [runner.platform, runner.architecture].filter(Boolean).join(' / ');
  return (
    <section aria-label="Runner details" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <dl className="flex flex-col gap-3">
        <Detail label="Status">
          <RunnerStatusBadges runner={runner} />
        </Detail>
        <Detail label="Type">{runnerTypeLabel(runner.runner_type)}</Detail>
        <Detail label="Tags">
          <TagList tags={runner.tag_list} />
        </Detail>
        <Detail label="Runs untagged jobs">{runner.run_untagged ? 'Yes' : 'No'}</Detail>
        {runner.runner_type === 'project_type' && <Detail label="Locked to current projects">{runner.locked ? 'Yes' : 'No'}</Detail>}
        <Detail label="Protected">{runner.access_level === 'ref_protected' ? 'Protected branches and tags only' : 'Any branch or tag'}</Detail>
        <Detail label="Maximum job timeout">{runner.maximum_timeout !== null ? `${runner.maximum_timeout} seconds` : muted('None')}</Detail>
        <Detail label="Version">
          {runner.version ?? muted('—')}
          {runner.revision && <span className="ml-2 text-xs text-slate-500">({runner.revision})</span>}
        </Detail>
        <Detail label="Platform">{platform || muted('—')}</Detail>
        <Detail label="Last contact">{formatDateTime(runner.contacted_at) ?? muted('Never')}</Detail>
        <Detail label="Created">
          {formatDateTime(runner.created_at)}
          {runner.created_by && <span className="text-slate-500"> by @{runner.created_by.username}</span>}
        </Detail>
        <Detail label="Maintenance note">
          {runner.maintenance_note ? <span className="whitespace-pre-wrap">{runner.maintenance_note}</span> : muted('None')}
        </Detail>
        {runner.projects && runner.projects.length > 0 && (
          <Detail label="Projects">
            <ul className="flex flex-col gap-0.5">
              {runner.projects.map((p) => (
                <li key={p.id}>{p.path_with_namespace}</li>
              ))}
            </ul>
          </Detail>
        )}
        {runner.groups.length > 0 && (
          <Detail label="Groups">
            <ul className="flex flex-col gap-0.5">
              {runner.groups.map((g) => (
                <li key={g.id}>{g.name}</li>
              ))}
            </ul>
          </Detail>
        )}
      </dl>
    </section>
  );
}

function PauseButton({ runner }: { runner: RunnerDetails }) {
  const update = useUpdateRunner(runner.id);
  return (
    <>
      <Button variant="secondary" disabled={update.isPending} onClick={() => update.mutate({ paused: !runner.paused })}>
        {update.isPending ? (runner.paused ? 'Resuming…' : 'Pausing…') : runner.paused ? 'Resume' : 'Pause'}
      </Button>
      {update.error && (
        <div className="basis-full">
          <InlineError>{update.error.message}</InlineError>
        </div>
      )}
    </>
  );
}

function BackLink() {
  return (
    <Link href={RUNNERS_PATH} className="text-sm font-medium text-indigo-700 hover:underline">
      ← Runners
    </Link>
  );
}

export function RunnerDetail({ id }: { id: number }) {
  const runner = useRunner(id);
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const jobsPage = Math.max(1, Number.parseInt(params.get('jobs_page') ?? '1', 10) || 1);

  const setJobsPage = (page: number) => {
    const next = new URLSearchParams(params.toString());
    if (page <= 1) next.delete('jobs_page');
    else next.set('jobs_page', String(page));
    const qs = next.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  if (runner.isPending) return <LoadingState />;
  if (runner.error) {
    const status = runner.error instanceof ApiError ? runner.error.status : undefined;
    return (
      <div className="flex flex-col gap-4">
        <BackLink />
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
          {status === 404 ? (
            <EmptyState title="Runner not found">It may have been deleted.</EmptyState>
          ) : status === 403 ? (
            // A retry cannot help: say whose runner it is to see.
            <EmptyState title="You cannot view this runner">
              Group runners are visible to the group&apos;s maintainers and project runners to the maintainers of their projects.
            </EmptyState>
          ) : (
            <ErrorState title="Could not load the runner" error={runner.error} onRetry={() => runner.refetch()} />
          )}
        </div>
      </div>
    );
  }
  const r = runner.data;
  const can = r._runway_permissions;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <BackLink />
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight text-slate-900">
              <span>
                #{r.id}
                {r.description && <span className="ml-2 font-normal text-slate-700">{r.description}</span>}
              </span>
            </h1>
            <div className="mt-2 flex flex-wrap items-center gap-2" data-testid="runner-header-badges">
              <RunnerStatusBadges runner={r} />
              <RunnerTypeBadge type={r.runner_type} />
            </div>
          </div>
          {/* Only the actions the viewer may take: GitLab hides the others rather than answer 403. */}
          {(can.update_runner || can.delete_runner) && (
            <div className="flex flex-wrap items-center gap-2">
              {can.update_runner && <PauseButton runner={r} />}
              {can.update_runner && !editing && (
                <Button variant="secondary" onClick={() => setEditing(true)}>
                  Edit
                </Button>
              )}
              {can.delete_runner && (
                <Button variant="danger" onClick={() => setDeleting(true)}>
                  Delete
                </Button>
              )}
            </div>
          )}
        </div>
      </div>

      {editing && can.update_runner && <RunnerEditForm runner={r} onDone={() => setEditing(false)} />}
      <RunnerFacts runner={r} />

      <section aria-labelledby="runner-managers-heading" className="flex flex-col gap-3">
        <h2 id="runner-managers-heading" className="text-lg font-semibold text-slate-900">
          Managers
        </h2>
        <RunnerManagers runnerId={r.id} />
      </section>

      {can.read_jobs && (
        <section aria-labelledby="runner-jobs-heading" className="flex flex-col gap-3">
          <h2 id="runner-jobs-heading" className="text-lg font-semibold text-slate-900">
            Jobs
          </h2>
          <RunnerJobs runnerId={r.id} page={jobsPage} onPageChange={setJobsPage} />
        </section>
      )}

      {can.delete_runner && (
        <DeleteRunnerDialog
          runner={r}
          open={deleting}
          onClose={() => setDeleting(false)}
          onDeleted={() => {
            setDeleting(false);
            router.push(RUNNERS_PATH);
          }}
        />
      )}
    </div>
  );
}
