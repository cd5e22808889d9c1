'use client';
// One runner's page (admin, group or project): header with badges and the actions the viewer may take
// (Edit, Pause/Resume, Delete), its details, managers, jobs (status filter, pages) and assigned projects or
// groups. Jobs and projects state lives in the URL.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Button, buttonClass } from '../ui/button';
import { EmptyState, ErrorState, InlineError, LoadingState } from '../ui/states';
import { formatDateTime } from '../shared/format';
import { ApiError } from '@/lib/client/api';
import { ADMIN_SCOPE, runnerHref, runnersListHref, type RunnerScope } from '@/lib/client/runner-paths';
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';
import type { RunnerDetails, RunnerDetailsWithPermissions } from '@/lib/client/types';
import { DeleteRunnerDialog } from './delete-runner-dialog';
import { TagList } from '../shared/tag-list';
import { RunnerHeader } from './runner-header';
import { UpgradeStatusBadge } from './runner-badges';
import { RunnerJobs } from './runner-jobs';
import { RunnerManagers } from './runner-managers';
import { RunnerProjects } from './runner-projects';
import { RunnerActivity } from './runner-activity';
import { cn } from '../ui/cn';
import { toast } from '../ui/toast';
import { useRunner, useUpdateRunner } from './use-runners';
import { muted } from '../ui/muted';
import { useRunnerEvents } from './use-runner-events';
import { LiveIndicator } from './live-indicator';
import { errorText } from '@/lib/client/error-text';
import { TabList, tabProps } from '../ui/tabs';
import { adminCrumbs, Breadcrumbs, settingsCrumbs, type Crumb } from '../ui/breadcrumbs';
import { GroupBreadcrumbs, ProjectBreadcrumbs } from '../namespaces/breadcrumbs';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:gap-4">
      <dt className="w-44 shrink-0 text-sm text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** GitLab's "Configuration" line: the options that are on. */
function configuration(runner: RunnerDetails): string[] {
  const on: string[] = [];
  if (runner.run_untagged) on.push('Runs untagged jobs');
  if (runner.access_level === 'ref_protected') on.push('Protected');
  if (runner.runner_type === 'project_type' && runner.locked) on.push('Locked to current projects');
  return on;
}

function RunnerFacts({ runner, canReadNote }: { runner: RunnerDetailsWithPermissions; canReadNote: boolean }) {
  const platform = [runner.platform, runner.architecture].filter(Boolean).join(' / ');
  const config = configuration(runner);
  return (
    <section aria-label="Runner details" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <dl className="flex flex-col gap-3">
        <Detail label="Description">{runner.description || muted('None')}</Detail>
        <Detail label="Last contact">{formatDateTime(runner.contacted_at) ?? muted('Never')}</Detail>
        <Detail label="Version">
          {runner.version ?? muted('—')}
          {runner.revision && <span className="ml-2 text-xs text-slate-500">({runner.revision})</span>}
          {runner.upgrade_status && (
            <span className="ml-2 inline-block align-middle">
              <UpgradeStatusBadge status={runner.upgrade_status} />
            </span>
          )}
        </Detail>
        <Detail label="Platform">{platform || muted('—')}</Detail>
        <Detail label="Configuration">{config.length ? config.join(', ') : muted('None')}</Detail>
        <Detail label="Maximum job timeout">{runner.maximum_timeout !== null ? `${runner.maximum_timeout} seconds` : muted('None')}</Detail>
        <Detail label="Token expiry">{formatDateTime(runner._runway_token_expires_at) ?? muted('Never expires')}</Detail>
        <Detail label="Tags">
          <TagList tags={runner.tag_list} />
        </Detail>
        {/* GitLab shows the note only to those who may update the runner (the API sends null to others). */}
        {canReadNote && (
          <Detail label="Maintenance note">
            {runner.maintenance_note ? <span className="whitespace-pre-wrap">{runner.maintenance_note}</span> : muted('None')}
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
          <InlineError>{errorText(update.error)}</InlineError>
        </div>
      )}
    </>
  );
}

/**
 * The trail above every runner page, in the dashboard's one breadcrumb style: where the runner is listed
 * (Admin area > Runners, the group's Runners, the project's Settings > CI/CD), then `trail` (#7, Edit).
 */
export function RunnerCrumbs({ scope, trail = [] }: { scope: RunnerScope; trail?: Crumb[] }) {
  if (scope.kind === 'project')
    return (
      <ProjectBreadcrumbs
        fullPath={scope.fullPath}
        trail={settingsCrumbs('project', scope.fullPath, [{ label: 'CI/CD', href: runnersListHref(scope) }, ...trail])}
      />
    );
  const list = { label: 'Runners', href: runnersListHref(scope) };
  if (scope.kind === 'group') return <GroupBreadcrumbs fullPath={scope.fullPath} trail={[list, ...trail]} />;
  return <Breadcrumbs items={adminCrumbs([list, ...trail])} />;
}

/** A runner that could not be read: not found, not theirs (no retry), or a failure to retry. */
export function RunnerLoadError({ scope, error, onRetry }: { scope: RunnerScope; error: Error; onRetry: () => void }) {
  const status = error instanceof ApiError ? error.status : undefined;
  return (
    <div className="flex flex-col gap-4">
      <RunnerCrumbs scope={scope} />
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
        {status === 404 ? (
          <EmptyState title="Runner not found">It may have been deleted.</EmptyState>
        ) : status === 403 ? (
          <EmptyState title="You cannot view this runner">
            Group runners are visible to the group&apos;s maintainers and project runners to the maintainers of their projects.
          </EmptyState>
        ) : (
          <ErrorState title="Could not load the runner" error={error} onRetry={onRetry} />
        )}
      </div>
    </div>
  );
}

type Update = ReturnType<typeof useUrlState>['update'];

function RunnerTabs({ tab, onSelect }: { tab: 'details' | 'activity'; onSelect: (tab: 'details' | 'activity') => void }) {
  const item = (value: 'details' | 'activity', label: string) => (
    <button
      type="button"
      {...tabProps(tab === value)}
      aria-controls="runner-tab-panel"
      onClick={() => onSelect(value)}
      className={cn(
        '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
        tab === value ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
      )}
    >
      {label}
    </button>
  );
  return (
    <TabList label="Runner" className="flex gap-2 border-b border-slate-200">
      {item('details', 'Details')}
      {item('activity', 'Activity')}
    </TabList>
  );
}

function RunnerDetailsTab({
  runner: r,
  jobsPage,
  jobsStatus,
  update,
}: {
  runner: RunnerDetailsWithPermissions;
  jobsPage: number;
  jobsStatus?: string;
  update: Update;
}) {
  const can = r._runway_permissions;
  return (
    <div id="runner-tab-panel" className="flex flex-col gap-6">
      <RunnerFacts runner={r} canReadNote={can.update_runner} />

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
          <RunnerJobs
            runnerId={r.id}
            page={jobsPage}
            onPageChange={(page) => update({ jobs_page: page })}
            status={jobsStatus}
            onStatusChange={(status) => update({ jobs_status: status }, { resetPages: ['jobs_page'] })}
          />
        </section>
      )}

      {r.runner_type === 'project_type' && <RunnerProjects runnerId={r.id} ownerProjectId={r._runway_owner_project_id ?? null} />}
    </div>
  );
}

export function RunnerDetail({ id, scope = ADMIN_SCOPE }: { id: number; scope?: RunnerScope }) {
  const runner = useRunner(id);
  const live = useRunnerEvents();
  const router = useRouter();
  const { params, update } = useUrlState();
  const [deleting, setDeleting] = useState(false);
  const jobsPage = pageParam(params, 'jobs_page');
  const jobsStatus = textParam(params, 'jobs_status');
  const tab = textParam(params, 'tab') === 'activity' ? 'activity' : 'details';

  if (runner.isPending) return <LoadingState />;
  if (runner.error) return <RunnerLoadError scope={scope} error={runner.error} onRetry={() => runner.refetch()} />;
  const r = runner.data;
  const can = r._runway_permissions;
  // Only the actions the viewer may take: GitLab hides the others rather than answer 403.
  const actions =
    can.update_runner || can.delete_runner ? (
      <>
        {can.update_runner && (
          <Link href={runnerHref(scope, r.id, 'edit')} className={buttonClass('secondary')}>
            Edit
          </Link>
        )}
        {can.update_runner && <PauseButton runner={r} />}
        {can.delete_runner && (
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        )}
      </>
    ) : undefined;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <RunnerCrumbs scope={scope} trail={[{ label: `#${r.id}` }]} />
        <RunnerHeader runner={r} actions={actions} live={<LiveIndicator state={live} />} />
      </div>

      {/* The Activity tab (the runner's audit events) is for those who may edit the runner, as the API is. */}
      {can.update_runner && <RunnerTabs tab={tab} onSelect={(t) => update({ tab: t === 'details' ? null : t, activity_page: null })} />}

      {tab === 'activity' && can.update_runner ? (
        <section id="runner-tab-panel" aria-label="Activity" className="flex flex-col gap-3">
          <RunnerActivity runnerId={r.id} page={pageParam(params, 'activity_page')} onPageChange={(page) => update({ activity_page: page })} />
        </section>
      ) : (
        <RunnerDetailsTab runner={r} jobsPage={jobsPage} jobsStatus={jobsStatus} update={update} />
      )}

      {can.delete_runner && (
        <DeleteRunnerDialog
          runner={r}
          open={deleting}
          onClose={() => setDeleting(false)}
          onDeleted={() => {
            setDeleting(false);
            // As GitLab: the list opens and a toast confirms (the Toaster outlives the navigation).
            toast.success(`Runner #${r.id} was deleted`);
            router.push(runnersListHref(scope));
          }}
        />
      )}
    </div>
  );
}
