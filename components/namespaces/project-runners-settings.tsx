'use client';
// A project's CI/CD settings, section "Runners" (/<full_path>/-/settings/ci_cd), in GitLab's current layout:
// tabs with counts (assigned project runners, other available project runners, group, instance), each runner
// a full row with only the actions that will work for the viewer, and the project's switches for group and
// instance runners in their tabs. Maintainers and up only, as GitLab answers 404 to everyone else for this
// page (the runners APIs refuse them too).
import { Link2, Pause, Pencil, Play, Trash2, Unlink } from 'lucide-react';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../dashboard/session-provider';
import { ActionButton, ActionGroup } from '../ui/action-group';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DataTable, type Columns } from '../ui/data-table';
import { toast } from '../ui/toast';
import { Toggle } from '../ui/toggle';
import { MAINTAINER } from '@/lib/client/access-levels';
import { errorText } from '@/lib/client/error-text';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { ProjectWithAccess, RunnerListItem } from '@/lib/client/types';
import { pageParam, useUrlState } from '@/lib/client/url-state';
import { Breadcrumbs, projectCrumbs, projectNamedPath, settingsCrumbs } from '../ui/breadcrumbs';
import { ProjectLoader } from './project-loader';
import { ProjectRunnerRow } from './project-runner-row';
import { RunnerTabs, type RunnerTab } from './runner-tabs';
import { useGroup } from './use-namespaces';
import {
  RUNNERS_PER_PAGE,
  useDeleteProjectRunner,
  usePauseProjectRunner,
  useProjectRunners,
  useProjectRunnerSwitch,
  useToggleRunnerAssignment,
  type ProjectRunnerList,
  type RunnerSwitch,
} from './use-project-runners';

export function ProjectCiCdSettings({ fullPath }: { fullPath: string }) {
  return (
    <ProjectLoader fullPath={fullPath} access>
      {(p, level) => <CiCdSettings p={p} level={level} />}
    </ProjectLoader>
  );
}

/** `level`: the viewer's effective role, shares included (a Maintainer through a shared group manages runners). */
function CiCdSettings({ p, level }: { p: ProjectWithAccess; level: number }) {
  const { admin } = useCurrentUser();
  if (!admin && level < MAINTAINER) notFound();
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <Breadcrumbs items={projectCrumbs(projectNamedPath(p), settingsCrumbs('project', p.path_with_namespace, [{ label: 'CI/CD' }]))} />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">CI/CD Settings</h1>
      <RunnersSection project={p} />
    </div>
  );
}

const TABS: { id: ProjectRunnerList; title: string }[] = [
  { id: 'assigned', title: 'Assigned project runners' },
  { id: 'available', title: 'Other available project runners' },
  { id: 'group', title: 'Group' },
  { id: 'instance', title: 'Instance' },
];

// GitLab's empty-tab wording.
const PROJECT_EMPTY = {
  assigned: 'No project runners found, you can create one by selecting "New project runner".',
  available: 'No project runners are available to be assigned to this project.',
};

function RunnersSection({ project }: { project: ProjectWithAccess }) {
  const path = project.path_with_namespace;
  const { params, update } = useUrlState();
  const current = (TABS.find((t) => t.id === params.get('tab'))?.id ?? 'assigned') as ProjectRunnerList;
  // Page 1 of every list, for the counts on the tabs (the shown list shares its cache when on page 1).
  const counts = {
    assigned: useProjectRunners(path, 'assigned', 1).data?.total,
    available: useProjectRunners(path, 'available', 1).data?.total,
    group: useProjectRunners(path, 'group', 1).data?.total,
    instance: useProjectRunners(path, 'instance', 1).data?.total,
  };
  const inGroup = project.namespace.kind === 'group';
  const tabs: RunnerTab[] = TABS.map((t) => ({ ...t, count: t.id === 'group' && !inGroup ? undefined : counts[t.id] }));
  return (
    <section aria-labelledby="runners-heading" className="flex min-w-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div>
          <h2 id="runners-heading" className="text-lg font-semibold text-slate-900">
            Runners
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">Runners are processes that pick up and run CI/CD jobs for Runway.</p>
        </div>
        <Link
          href={projectHref(path, 'runners/new')}
          className="inline-flex h-9 shrink-0 items-center justify-center self-start rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          New project runner
        </Link>
      </div>
      <RunnerTabs label="Runners" tabs={tabs} current={current} onSelect={(id) => update({ tab: id === 'assigned' ? undefined : id }, { replace: true })}>
        <div className="flex flex-col gap-4 p-4 sm:px-6">
          {(current === 'assigned' || current === 'available') && (
            <RunnerList key={current} project={project} list={current} title={TABS.find((t) => t.id === current)!.title} empty={PROJECT_EMPTY[current]} />
          )}
          {current === 'group' && <GroupRunners project={project} />}
          {current === 'instance' && <InstanceRunners project={project} />}
        </div>
      </RunnerTabs>
    </section>
  );
}

/**
 * Whether "Disable for this project" will work: never on the runner's owner project (GitLab hides it there;
 * the runner is removed instead), and for non-admins never on a locked runner (the API refuses both).
 */
export function canDisableHere(r: RunnerListItem, projectId: number, admin: boolean): boolean {
  const owner = r._runway?.owner;
  if (!owner || owner.type !== 'project' || owner.id === projectId) return false;
  return admin || !r._runway?.locked;
}

const runnerName = (r: RunnerListItem) => `runner #${r.id}${r.description ? ` (${r.description})` : ''}`;

/** What every row of one list shares: the page's state lives here, above the table's cells. */
interface RowContextValue {
  project: ProjectWithAccess;
  list: ProjectRunnerList;
  admin: boolean;
  busy: Set<number>;
  refusals: Partial<Record<number, string>>;
  assign: (r: RunnerListItem, enable: boolean) => void;
  pause: (r: RunnerListItem) => void;
  remove: (r: RunnerListItem) => void;
}

const RowContext = createContext<RowContextValue | null>(null);

/**
 * The table cell: a component of its own (not a closure made each render) so a re-render keeps the row's
 * elements, and keyboard focus stays on the button that was pressed.
 */
function RunnerCell({ row: { original: r } }: { row: { original: RunnerListItem } }) {
  const ctx = useContext(RowContext)!;
  return <ProjectRunnerRow runner={r} href={projectHref(ctx.project.path_with_namespace, `runners/${r.id}`)} actions={<RowActions ctx={ctx} runner={r} />} />;
}

const COLUMNS: Columns<RunnerListItem> = [{ id: 'runner', header: 'Runner', cell: RunnerCell }];

/** The actions a row offers, each shown only when the API will accept it; a refusal shows under them. */
function RowActions({ ctx, runner: r }: { ctx: RowContextValue; runner: RunnerListItem }) {
  const path = ctx.project.path_with_namespace;
  const can = r._runway_permissions;
  const name = runnerName(r);
  const busy = ctx.busy.has(r.id);
  const enable = ctx.list === 'available' && can.assign_runner;
  const disable = ctx.list === 'assigned' && canDisableHere(r, ctx.project.id, ctx.admin);
  const refusal = ctx.refusals[r.id];
  const offered = enable || disable || can.update_runner || can.delete_runner;
  if (!offered && !refusal) return null;
  return (
    <>
      {offered && (
        <ActionGroup label={`Actions for ${name}`}>
          {(enable || disable) && (
            <ActionButton
              label={`${enable ? 'Enable' : 'Disable'} ${name} for this project`}
              tooltip={enable ? 'Enable for this project' : 'Disable for this project'}
              icon={enable ? Link2 : Unlink}
              disabled={busy}
              onClick={() => ctx.assign(r, enable)}
            />
          )}
          {can.update_runner && (
            <>
              <ActionButton href={projectHref(path, `runners/${r.id}/edit`)} label={`Edit ${name}`} tooltip="Edit" icon={Pencil} />
              <ActionButton
                label={`${r.paused ? 'Resume' : 'Pause'} ${name}`}
                tooltip={r.paused ? 'Resume accepting jobs' : 'Pause from accepting jobs'}
                icon={r.paused ? Play : Pause}
                disabled={busy}
                onClick={() => ctx.pause(r)}
              />
            </>
          )}
          {can.delete_runner && <ActionButton label={`Remove ${name}`} tooltip="Remove runner" icon={Trash2} danger onClick={() => ctx.remove(r)} />}
        </ActionGroup>
      )}
      {refusal && (
        <p role="alert" className="max-w-sm text-xs text-red-700 sm:text-right">
          {refusal}
        </p>
      )}
    </>
  );
}

/** One list of runners, a full row each, with the writes its rows offer. */
function RunnerList(props: { project: ProjectWithAccess; list: ProjectRunnerList; title: string; empty: string }) {
  const { project, list } = props;
  const { admin } = useCurrentUser();
  const path = project.path_with_namespace;
  const pageKey = `${list}_page`;
  const { params, update } = useUrlState();
  const page = pageParam(params, pageKey);
  const query = useProjectRunners(path, list, page);
  const assignment = useToggleRunnerAssignment(path);
  const pausing = usePauseProjectRunner(path);
  const removal = useDeleteProjectRunner(path);
  const [removing, setRemoving] = useState<RunnerListItem | null>(null);
  const [busy, setBusy] = useState<Set<number>>(() => new Set());
  const [refusals, setRefusals] = useState<Partial<Record<number, string>>>({});

  /** Runs one row's write: busy meanwhile, a toast when done, GitLab's failure wording on the row if refused. */
  function run(r: RunnerListItem, write: () => Promise<unknown>, done: string, failed: string) {
    setRefusals(({ [r.id]: _dropped, ...rest }) => rest);
    setBusy((b) => new Set(b).add(r.id));
    write()
      .then(() => toast.success(done))
      .catch((e: unknown) => setRefusals((all) => ({ ...all, [r.id]: errorText(e, failed) })))
      .finally(() =>
        setBusy((b) => {
          const next = new Set(b);
          next.delete(r.id);
          return next;
        }),
      );
  }
  const ctx: RowContextValue = {
    project,
    list,
    admin,
    busy,
    refusals,
    assign: (r, enable) =>
      run(
        r,
        () => assignment.mutateAsync({ runnerId: r.id, enable }),
        `Runner #${r.id} was ${enable ? 'enabled' : 'disabled'} for this project.`,
        enable ? 'Failed to assign runner to project.' : 'Failed to unassign runner from project.',
      ),
    pause: (r) =>
      run(
        r,
        () => pausing.mutateAsync({ runnerId: r.id, paused: !r.paused }),
        `Runner #${r.id} ${r.paused ? 'resumed' : 'paused'}.`,
        r.paused ? 'Failed to resume runner.' : 'Failed to pause runner.',
      ),
    remove: setRemoving,
  };
  return (
    <RowContext.Provider value={ctx}>
      <DataTable
        label={props.title}
        columns={COLUMNS}
        data={query.data?.items}
        getRowId={(r) => String(r.id)}
        pagination={{ page, perPage: RUNNERS_PER_PAGE, totalPages: query.data?.totalPages, total: query.data?.total, hasNext: !!query.data?.nextPage }}
        onPageChange={(next) => update({ [pageKey]: next })}
        isLoading={query.isPending}
        isFetching={query.isFetching && !query.isPending}
        error={query.error}
        onRetry={() => query.refetch()}
        empty={{ title: props.empty }}
      />
      <ConfirmDialog
        target={removing}
        title={removing ? `Delete runner #${removing.id}?` : ''}
        confirmLabel="Delete runner"
        pendingLabel="Deleting…"
        mutation={removal}
        onClose={() => setRemoving(null)}
        onDone={() => {
          if (removing) toast.success(`Runner #${removing.id} deleted.`);
          setRemoving(null);
        }}
      >
        <p>
          {removing?.description ? `“${removing.description}” ` : 'The runner '}stops picking up jobs and its token stops working at once, for every project it
          is enabled in. This cannot be undone.
        </p>
      </ConfirmDialog>
    </RowContext.Provider>
  );
}

/** A project switch saved through PUT /projects/:id; a refusal shows under it, in plain words. */
function RunnerSwitchControl(props: { project: ProjectWithAccess; field: RunnerSwitch; label: string; disabled?: boolean; help?: ReactNode }) {
  const change = useProjectRunnerSwitch(props.project.path_with_namespace, props.field);
  const checked = change.isPending ? (change.variables as boolean) : props.project[props.field] !== false;
  return (
    <div className="flex flex-col gap-1">
      <Toggle label={props.label} checked={checked} busy={change.isPending} disabled={props.disabled} help={props.help} onChange={(v) => change.mutate(v)} />
      {change.error && (
        <p role="alert" className="text-xs text-red-700">
          {errorText(change.error, 'An error occurred while updating the configuration.')}
        </p>
      )}
    </div>
  );
}

function Off({ children }: { children: ReactNode }) {
  return <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600">{children}</p>;
}

function GroupRunners({ project }: { project: ProjectWithAccess }) {
  if (project.namespace.kind !== 'group') return <Off>This project does not belong to a group and cannot make use of group runners.</Off>;
  return (
    <>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">These runners are shared across projects in this group.</p>
        <RunnerSwitchControl project={project} field="group_runners_enabled" label="Turn on group runners for this project" />
      </div>
      {project.group_runners_enabled === false ? (
        <Off>Group runners are turned off for this project.</Off>
      ) : (
        <RunnerList project={project} list="group" title="Group runners" empty="No group runners found." />
      )}
    </>
  );
}

function InstanceRunners({ project }: { project: ProjectWithAccess }) {
  const inGroup = project.namespace.kind === 'group';
  const group = useGroup(project.namespace.full_path, inGroup).data;
  const locked = group?.shared_runners_setting === 'disabled_and_unoverridable';
  const help = locked ? (
    <>
      Instance runners are disabled in the group settings. Go to{' '}
      <Link href={groupHref(project.namespace.full_path, 'settings/ci_cd')} className="text-indigo-700 underline">
        {group?.full_name ?? project.namespace.full_path}
      </Link>{' '}
      to enable them.
    </>
  ) : undefined;
  return (
    <>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <p className="text-sm text-slate-600">These runners are available to all groups and projects.</p>
        <RunnerSwitchControl project={project} field="shared_runners_enabled" label="Turn on instance runners for this project" disabled={locked} help={help} />
      </div>
      {project.shared_runners_enabled === false ? (
        <Off>Instance runners are turned off for this project.</Off>
      ) : (
        <RunnerList project={project} list="instance" title="Instance runners" empty="No instance runners found." />
      )}
    </>
  );
}
