'use client';
// A project's CI/CD settings, section "Runners" (/<full_path>/-/settings/ci_cd), as GitLab's: the project
// runners assigned to it (each can be disabled here), the other project runners the viewer may enable, and
// the group and instance runners with the project's switches for them. Maintainers and up only, as GitLab
// answers 404 to everyone else for this page (the runners APIs refuse them too).
import type { ColumnDef } from '@tanstack/react-table';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { useCurrentUser } from '../dashboard/session-provider';
import { RunnerStatusBadges } from '../runners/runner-badges';
import { Button } from '../ui/button';
import { DataTable } from '../ui/data-table';
import { Toggle } from '../ui/toggle';
import { effectiveLevel, MAINTAINER } from '@/lib/client/access-levels';
import { groupHref, projectHref } from '@/lib/client/paths';
import type { ProjectWithAccess, Runner } from '@/lib/client/types';
import { pageParam, useUrlState } from '@/lib/client/url-state';
import { NamespaceBreadcrumbs } from './breadcrumbs';
import { ProjectLoader } from './project-loader';
import { useGroup } from './use-namespaces';
import {
  RUNNERS_PER_PAGE,
  useProjectRunners,
  useProjectRunnerSwitch,
  useToggleRunnerAssignment,
  type ProjectRunnerList,
  type RunnerSwitch,
} from './use-project-runners';

export function ProjectCiCdSettings({ fullPath }: { fullPath: string }) {
  return <ProjectLoader fullPath={fullPath}>{(p) => <CiCdSettings p={p} />}</ProjectLoader>;
}

function CiCdSettings({ p }: { p: ProjectWithAccess }) {
  const { admin } = useCurrentUser();
  if (!admin && effectiveLevel(p.permissions) < MAINTAINER) notFound();
  return (
    <div className="flex flex-col gap-6">
      <NamespaceBreadcrumbs
        namespacePath={p.namespace.full_path}
        personal={p.namespace.kind === 'user'}
        project={{ name: p.name, fullPath: p.path_with_namespace }}
        current="CI/CD Settings"
      />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">CI/CD Settings</h1>
      <RunnersSection project={p} />
    </div>
  );
}

function RunnersSection({ project }: { project: ProjectWithAccess }) {
  const path = project.path_with_namespace;
  return (
    <section aria-labelledby="runners-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="runners-heading" className="text-lg font-semibold text-slate-900">
            Runners
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">Runners are processes that pick up and run CI/CD jobs for Runway.</p>
        </div>
        <Link
          href={projectHref(path, 'runners/new')}
          className="inline-flex h-9 shrink-0 items-center justify-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
        >
          New project runner
        </Link>
      </div>
      <div className="grid gap-8 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-6">
          <h3 className="text-base font-semibold text-slate-900">Project runners</h3>
          <p className="-mt-4 text-sm text-slate-600">These runners are assigned to this project.</p>
          <RunnerList project={project} list="assigned" title="Assigned project runners" empty="This project has no project runners." />
          <RunnerList
            project={project}
            list="available"
            title="Other available runners"
            empty="No other project runners of your projects can be enabled here."
          />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <GroupRunners project={project} />
          <InstanceRunners project={project} />
        </div>
      </div>
    </section>
  );
}

function RunnerCell({ runner, projectPath }: { runner: Runner; projectPath: string }) {
  return (
    <div className="flex min-w-[10rem] max-w-[18rem] flex-col gap-1 whitespace-normal">
      <Link href={projectHref(projectPath, `runners/${runner.id}`)} className="font-medium text-indigo-700 hover:underline">
        #{runner.id}
        {runner.description ? ` (${runner.description})` : ''}
      </Link>
      <RunnerStatusBadges runner={runner} />
    </div>
  );
}

const ACTIONS: Partial<Record<ProjectRunnerList, { label: string; enable: boolean }>> = {
  assigned: { label: 'Disable for this project', enable: false },
  available: { label: 'Enable for this project', enable: true },
};

/** One list of runners; assigned and available ones carry GitLab's enable/disable button per row. */
function RunnerList(props: {
  project: ProjectWithAccess;
  list: ProjectRunnerList;
  title: string;
  empty: string;
  emptyDescription?: ReactNode;
  heading?: 'h3' | 'h4';
}) {
  const { project, list } = props;
  const path = project.path_with_namespace;
  const pageKey = `${list}_page`;
  const { params, update } = useUrlState();
  const page = pageParam(params, pageKey);
  const query = useProjectRunners(path, list, page);
  const assignment = useToggleRunnerAssignment(path);
  // The API's refusal, shown on the row where the user clicked.
  const [refusal, setRefusal] = useState<{ runnerId: number; message: string } | null>(null);
  const action = ACTIONS[list];

  const columns: ColumnDef<Runner>[] = [{ id: 'runner', header: 'Runner', cell: ({ row }) => <RunnerCell runner={row.original} projectPath={path} /> }];
  if (action) {
    columns.push({
      id: 'action',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original: r } }) => {
        const busy = assignment.isPending && assignment.variables?.runnerId === r.id;
        return (
          <div className="flex max-w-[16rem] flex-col items-end gap-1 whitespace-normal">
            <Button
              variant={action.enable ? 'secondary' : 'dangerGhost'}
              size="sm"
              disabled={busy}
              aria-label={`${action.label}: runner #${r.id}`}
              onClick={() => {
                setRefusal(null);
                assignment.mutate({ runnerId: r.id, enable: action.enable }, { onError: (e) => setRefusal({ runnerId: r.id, message: e.message }) });
              }}
            >
              {busy ? 'Saving…' : action.label}
            </Button>
            {refusal?.runnerId === r.id && (
              <p role="alert" className="text-right text-xs text-red-700">
                {refusal.message}
              </p>
            )}
          </div>
        );
      },
    });
  }
  const Heading = props.heading ?? 'h4';
  return (
    <div className="flex flex-col gap-2">
      <Heading className="text-sm font-semibold text-slate-900">
        {props.title}
        {query.data?.total !== undefined && <span className="ml-2 font-normal text-slate-500">{query.data.total}</span>}
      </Heading>
      <DataTable
        label={props.title}
        columns={columns}
        data={query.data?.items}
        getRowId={(r) => String(r.id)}
        pagination={{ page, perPage: RUNNERS_PER_PAGE, totalPages: query.data?.totalPages, total: query.data?.total, hasNext: !!query.data?.nextPage }}
        onPageChange={(next) => update({ [pageKey]: next })}
        isLoading={query.isPending}
        isFetching={query.isFetching && !query.isPending}
        error={query.error}
        onRetry={() => query.refetch()}
        empty={{ title: props.empty, description: props.emptyDescription }}
      />
    </div>
  );
}

/** A project switch saved through PUT /projects/:id; a refusal shows the API's message under it. */
function RunnerSwitchControl(props: { project: ProjectWithAccess; field: RunnerSwitch; label: string; disabled?: boolean; help?: ReactNode }) {
  const change = useProjectRunnerSwitch(props.project.path_with_namespace, props.field);
  const checked = change.isPending ? (change.variables as boolean) : props.project[props.field] !== false;
  return (
    <div className="flex flex-col gap-1">
      <Toggle label={props.label} checked={checked} busy={change.isPending} disabled={props.disabled} help={props.help} onChange={(v) => change.mutate(v)} />
      {change.error && (
        <p role="alert" className="text-xs text-red-700">
          {change.error.message}
        </p>
      )}
    </div>
  );
}

function GroupRunners({ project }: { project: ProjectWithAccess }) {
  const inGroup = project.namespace.kind === 'group';
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-base font-semibold text-slate-900">Group runners</h3>
      {inGroup ? (
        <>
          <p className="text-sm text-slate-600">These runners are shared across projects in this group.</p>
          <RunnerSwitchControl project={project} field="group_runners_enabled" label="Turn on group runners for this project" />
          {project.group_runners_enabled === false ? (
            <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600">Group runners are turned off for this project.</p>
          ) : (
            <RunnerList project={project} list="group" title="Available group runners" empty="This group does not have any group runners yet." />
          )}
        </>
      ) : (
        <p className="text-sm text-slate-600">This project does not belong to a group and cannot make use of group runners.</p>
      )}
    </div>
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
        {project.namespace.full_path}
      </Link>{' '}
      to enable them.
    </>
  ) : undefined;
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-base font-semibold text-slate-900">Instance runners</h3>
      <p className="text-sm text-slate-600">These runners are available to all groups and projects.</p>
      <RunnerSwitchControl project={project} field="shared_runners_enabled" label="Turn on instance runners for this project" disabled={locked} help={help} />
      {project.shared_runners_enabled === false ? (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600">Instance runners are turned off for this project.</p>
      ) : (
        <RunnerList project={project} list="instance" title="Available instance runners" empty="There are no instance runners." />
      )}
    </div>
  );
}
