'use client';
// A group's CI/CD settings, section "Runners" (/groups/<full_path>/-/settings/ci_cd), as GitLab's: the two
// switches of the group's instance-runner setting (shared_runners_setting) and the way to the group's runners.
// Owners and admins only (admin_group); everyone else gets the not-found page, as GitLab answers them.
import Link from 'next/link';
import { useState } from 'react';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { InlineError } from '../ui/states';
import { Toggle } from '../ui/toggle';
import { groupHref } from '@/lib/client/paths';
import type { Group, SharedRunnersSetting } from '@/lib/client/types';
import { Breadcrumbs, groupCrumbs, groupNamedPath, settingsCrumbs } from '../ui/breadcrumbs';
import { GroupOwnerLoader } from './group-owner-loader';
import { useGroup, useGroupProjects, useSubgroups } from './use-namespaces';
import { settingErrorText, useGroupRunnerSetting } from './use-group-runner-setting';

const parentOf = (fullPath: string) => (fullPath.includes('/') ? fullPath.slice(0, fullPath.lastIndexOf('/')) : null);

export function GroupCiCdSettings({ fullPath }: { fullPath: string }) {
  return (
    <GroupOwnerLoader fullPath={fullPath}>
      {(g) => (
        <div className="flex flex-col gap-6">
          <Breadcrumbs items={groupCrumbs(groupNamedPath(g), settingsCrumbs('group', g.full_path, [{ label: 'CI/CD' }]))} />
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">CI/CD Settings</h1>
          <RunnersSection group={g} />
        </div>
      )}
    </GroupOwnerLoader>
  );
}

function RunnersSection({ group }: { group: Group }) {
  const path = group.full_path;
  return (
    <section aria-labelledby="runners-heading" className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="runners-heading" className="text-lg font-semibold text-slate-900">
            Runners
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">Runners are processes that pick up and run CI/CD jobs for Runway.</p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Link
            href={groupHref(path, 'runners')}
            className="inline-flex h-9 items-center justify-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50"
          >
            View group runners
          </Link>
          <Link
            href={groupHref(path, 'runners/new')}
            className="inline-flex h-9 items-center justify-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
          >
            New group runner
          </Link>
        </div>
      </div>
      <InstanceRunnersSetting group={group} />
    </section>
  );
}

function InstanceRunnersSetting({ group }: { group: Group }) {
  const path = group.full_path;
  const parentPath = parentOf(path);
  const parent = useGroup(parentPath ?? '', parentPath !== null).data;
  const subgroups = useSubgroups(path, 1, true);
  const projects = useGroupProjects(path, 1, true);
  const change = useGroupRunnerSetting(path);
  const [confirming, setConfirming] = useState<SharedRunnersSetting | null>(null);

  const saved = group.shared_runners_setting ?? 'enabled';
  const value = change.isPending && change.variables ? change.variables : saved;
  // Under a parent that is "disabled and unoverridable" neither switch may change (GitLab disables both).
  const lockedByParent = parent?.shared_runners_setting === 'disabled_and_unoverridable';
  const empty = subgroups.data?.total === 0 && projects.data?.total === 0;
  const save = (setting: SharedRunnersSetting) => {
    if (!change.isPending) change.mutate(setting);
  };
  const parentHelp = lockedByParent ? (
    <>
      {' '}
      Instance runners are disabled. Go to{' '}
      <Link href={groupHref(parentPath!, 'settings/ci_cd')} className="text-indigo-700 underline">
        {parent?.name}
      </Link>{' '}
      to enable them.
    </>
  ) : null;

  return (
    <div className="flex flex-col gap-5">
      <h3 className="text-base font-semibold text-slate-900">Instance runners</h3>
      {change.error && !confirming && <InlineError>{settingErrorText(change.error)} Refresh the page and try again.</InlineError>}
      <Toggle
        label="Enable instance runners for this group"
        checked={value === 'enabled'}
        busy={change.isPending}
        disabled={lockedByParent}
        help={<>Enable instance runners for all projects and subgroups in this group.{parentHelp}</>}
        onChange={(on) => {
          if (on) save('enabled');
          // Turning them off switches them off for everything inside: asked first unless the group is empty.
          else if (empty) save('disabled_and_unoverridable');
          else setConfirming('disabled_and_unoverridable');
        }}
      />
      <Toggle
        label="Allow projects and subgroups to override the group setting"
        checked={value === 'disabled_and_overridable'}
        busy={change.isPending}
        // Overriding means something only while instance runners are off here.
        disabled={lockedByParent || value === 'enabled'}
        help={<>Allows projects or subgroups in this group to override the global setting.{parentHelp}</>}
        onChange={(on) => save(on ? 'disabled_and_overridable' : 'disabled_and_unoverridable')}
      />
      <ConfirmDialog
        target={confirming}
        title={`Are you sure you want to disable instance runners for ${group.name}?`}
        confirmLabel="Yes, disable instance runners"
        pendingLabel="Disabling…"
        mutation={change}
        onClose={() => setConfirming(null)}
      >
        <p className="text-sm text-slate-700">Instance runners will be disabled for all projects and subgroups in this group.</p>
      </ConfirmDialog>
    </div>
  );
}
