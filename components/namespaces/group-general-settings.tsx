'use client';
// A group's General Settings (/groups/<full_path>/-/edit), GitLab's first two sections: "Naming, visibility"
// and "Permissions and group features". Each section saves its own fields with PUT /groups/:id (what API
// clients send) and shows GitLab's validation messages under the fields they concern. Owners and
// administrators only (admin_group, group-owner-loader.tsx).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useApi, useCurrentUser } from '../dashboard/session-provider';
import { toast } from '../ui/toast';
import { groupHref } from '@/lib/client/paths';
import { queryKeys } from '@/lib/client/query-keys';
import type { Group, GroupSettingsFields, GroupWithSettings, Visibility } from '@/lib/client/types';
import { validationMessages } from '@/lib/client/validation';
import { Breadcrumbs, groupCrumbs, groupNamedPath, settingsCrumbs } from '../ui/breadcrumbs';
import { GroupOwnerLoader } from './group-owner-loader';
import { Check, Radios, Select, SettingsSection, TextField } from './settings-form';
import { useGroup } from './use-namespaces';

export function GroupGeneralSettings({ fullPath }: { fullPath: string }) {
  return (
    <GroupOwnerLoader fullPath={fullPath}>
      {(g) => (
        <div className="flex min-w-0 flex-col gap-6">
          <Breadcrumbs items={groupCrumbs(groupNamedPath(g), settingsCrumbs('group', g.full_path, [{ label: 'General' }]))} />
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">General Settings</h1>
          <NamingSection group={g} />
          <PermissionsSection group={g} />
        </div>
      )}
    </GroupOwnerLoader>
  );
}

type Fields = Partial<GroupSettingsFields> & { name?: string; description?: string; visibility?: Visibility };

/** PUT /groups/:id with the fields that differ from the group as loaded; the cached group is read again after. */
function useSaveGroup(group: Group) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Fields) => api.put<GroupWithSettings>(`/groups/${group.id}`, changes),
    onSuccess: (saved) => {
      // GitLab's notice after saving a group's settings.
      toast.success(`Group '${saved.name}' was successfully updated.`);
      return client.invalidateQueries({ queryKey: queryKeys.groups.all });
    },
  });
}

function changedFields(group: GroupWithSettings, form: Fields): Fields {
  const was = group as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(form).filter(([k, v]) => was[k] !== v)) as Fields;
}

/**
 * GitLab's refusal split for a section: the model's messages per field (as Rails' full messages, "Name can't be
 * blank"), the rest (a parameter error, a 403, a network failure) for the section's banner.
 */
function problemsFrom(error: Error | null, labels: Record<string, string>) {
  const { byAttribute, general } = validationMessages(error);
  const fields: Record<string, string[]> = {};
  const rest = [...general];
  for (const [attr, messages] of Object.entries(byAttribute)) {
    // The visibility check is GitLab's visibility_level; its messages are whole sentences already.
    if (attr === 'visibility_level') fields.visibility = messages;
    else if (labels[attr]) fields[attr] = messages.map((m) => `${labels[attr]} ${m}`);
    else rest.push(...messages.map((m) => `${attr.replace(/_/g, ' ')} ${m}`));
  }
  return { fields, general: rest };
}

const VISIBILITY_OPTIONS: [Visibility, string, string][] = [
  ['private', 'Private', 'The group and its projects can only be viewed by members.'],
  ['internal', 'Internal', 'The group and any internal projects can be viewed by any signed-in user except external users.'],
  ['public', 'Public', 'The group and any public projects can be viewed without any authentication.'],
];

function NamingSection({ group }: { group: GroupWithSettings }) {
  const save = useSaveGroup(group);
  const [form, setForm] = useState<Fields>(() => ({ name: group.name, description: group.description ?? '', visibility: group.visibility }));
  const set = (k: keyof Fields, v: unknown) => setForm((f) => ({ ...f, [k]: v }));
  const problems = problemsFrom(save.error, { name: 'Name', description: 'Description' });
  const was = { ...group, description: group.description ?? '' };
  return (
    <SettingsSection
      id="naming"
      title="Naming, visibility"
      description="Update your group name, description, and visibility."
      busy={save.isPending}
      error={save.error}
      messages={problems.general}
      onSubmit={() => save.mutate(changedFields(was, form))}
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <TextField
          label="Group name"
          value={form.name ?? ''}
          onChange={(v) => set('name', v)}
          errors={problems.fields.name}
          help="Must start with a letter, digit, emoji, or underscore. May also hold periods, dashes, spaces, and parentheses."
        />
        <TextField label="Group ID" value={String(group.id)} onChange={() => {}} readOnly />
      </div>
      <TextField
        label="Group description (optional)"
        value={form.description ?? ''}
        onChange={(v) => set('description', v)}
        errors={problems.fields.description}
        multiline
      />
      <Radios
        legend="Visibility level"
        name="visibility"
        help="Who can see this group."
        value={form.visibility ?? 'private'}
        options={VISIBILITY_OPTIONS}
        onChange={(v) => set('visibility', v)}
        errors={problems.fields.visibility}
      />
    </SettingsSection>
  );
}

// Gitlab::Access.project_creation_options and subgroup_creation_options, in GitLab's order and words.
const PROJECT_CREATION: [GroupSettingsFields['project_creation_level'], string][] = [
  ['noone', 'No one'],
  ['owner', 'Owners'],
  ['maintainer', 'Maintainers'],
  ['developer', 'Developers + Maintainers'],
  ['administrator', 'Administrators'],
];
const SUBGROUP_CREATION: [GroupSettingsFields['subgroup_creation_level'], string][] = [
  ['owner', 'Owners'],
  ['maintainer', 'Maintainers'],
];

// Gitlab::Access::BranchProtection's levels (default_branch_protection), as GitLab names them.
const PROTECTION: [string, string, string][] = [
  ['0', 'Not protected', 'Both developers and maintainers can push new commits, force push, or delete the branch.'],
  ['1', 'Partially protected', 'Both developers and maintainers can push new commits, but cannot force push.'],
  ['3', 'Protected against pushes', 'Developers cannot push new commits, but may accept merge requests to the branch. Maintainers can push.'],
  ['2', 'Fully protected', 'Developers cannot push new commits, but maintainers can. No one can force push.'],
  [
    '4',
    'Fully protected after initial push',
    'Developers can push the initial commit to a repository, but none afterward. Maintainers can push. No one can force push.',
  ],
];

function PermissionsSection({ group }: { group: GroupWithSettings }) {
  const { admin } = useCurrentUser();
  const save = useSaveGroup(group);
  const parentPath = group.full_path.includes('/') ? group.full_path.slice(0, group.full_path.lastIndexOf('/')) : null;
  const parent = useGroup(parentPath ?? '', parentPath !== null).data as GroupWithSettings | undefined;
  const topLevel = group.parent_id === null;
  const [form, setForm] = useState<Fields>(() => ({
    request_access_enabled: group.request_access_enabled,
    share_with_group_lock: group.share_with_group_lock,
    ...(topLevel ? { prevent_sharing_groups_outside_hierarchy: group.prevent_sharing_groups_outside_hierarchy } : {}),
    emails_enabled: group.emails_enabled,
    show_diff_preview_in_email: group.show_diff_preview_in_email,
    mentions_disabled: group.mentions_disabled ?? false,
    lfs_enabled: group.lfs_enabled,
    project_creation_level: group.project_creation_level,
    subgroup_creation_level: group.subgroup_creation_level,
    require_two_factor_authentication: group.require_two_factor_authentication,
    two_factor_grace_period: group.two_factor_grace_period,
    default_branch: group.default_branch ?? '',
    default_branch_protection: group.default_branch_protection,
  }));
  const set = (k: keyof Fields, v: unknown) => setForm((f) => ({ ...f, [k]: v }));
  const problems = problemsFrom(save.error, { two_factor_grace_period: 'Two-factor grace period', default_branch: 'Default branch' });
  const was = { ...group, mentions_disabled: group.mentions_disabled ?? false, default_branch: group.default_branch ?? '' };
  // A parent's lock binds its subgroups: only an administrator (or the parent's Owner, through the parent) lifts it.
  const lockedByParent = !!parent?.share_with_group_lock && !admin;
  const grace = form.two_factor_grace_period;
  return (
    <SettingsSection
      id="permissions"
      title="Permissions and group features"
      description="Configure permissions, Large File Storage, two-factor authentication, and the default branch of new projects."
      busy={save.isPending}
      error={save.error}
      messages={problems.general}
      onSubmit={() => save.mutate(changedFields(was, form))}
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Permissions</legend>
        <Check
          label="Users can request access (if visibility is public or internal)"
          checked={!!form.request_access_enabled}
          onChange={(v) => set('request_access_enabled', v)}
        />
        <Check
          label={<>Prevent sharing a project within {group.name} with other groups</>}
          checked={!!form.share_with_group_lock}
          disabled={lockedByParent}
          onChange={(v) => set('share_with_group_lock', v)}
          help={
            lockedByParent && parentPath ? (
              <>
                This setting is applied on{' '}
                <Link href={groupHref(parentPath, 'edit')} className="text-indigo-700 underline">
                  {parent?.name}
                </Link>
                . Ask an Owner there to lift it.
              </>
            ) : (
              'Applies to every subgroup; groups already invited to a project lose their access.'
            )
          }
        />
        {topLevel && (
          <Check
            label={<>Prevent members from sending invitations to groups outside of {group.name} and its subgroups</>}
            checked={!!form.prevent_sharing_groups_outside_hierarchy}
            onChange={(v) => set('prevent_sharing_groups_outside_hierarchy', v)}
          />
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Notifications</legend>
        <Check
          label="Enable email notifications"
          checked={!!form.emails_enabled}
          onChange={(v) => set('emails_enabled', v)}
          help="Members of the group, its subgroups and projects receive email notifications."
        />
        <Check
          label="Include diff previews"
          checked={!!form.show_diff_preview_in_email}
          onChange={(v) => set('show_diff_preview_in_email', v)}
          help="Emails are not encrypted: turn this off to keep code out of notification emails."
        />
        <Check
          label="Group mentions are disabled"
          checked={!!form.mentions_disabled}
          onChange={(v) => set('mentions_disabled', v)}
          help="Group members are not notified when the group is mentioned."
        />
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Large File Storage</legend>
        <Check
          label="Allow projects within this group to use Git LFS"
          checked={!!form.lfs_enabled}
          onChange={(v) => set('lfs_enabled', v)}
          help="Each project can override this setting."
        />
      </fieldset>
      <div className="flex flex-col gap-4 border-t border-slate-200 pt-4">
        <Select
          label="Roles allowed to create projects"
          value={form.project_creation_level ?? 'developer'}
          options={PROJECT_CREATION}
          onChange={(v) => set('project_creation_level', v)}
        />
        <Select
          label="Roles allowed to create subgroups"
          value={form.subgroup_creation_level ?? 'maintainer'}
          options={SUBGROUP_CREATION}
          onChange={(v) => set('subgroup_creation_level', v)}
        />
      </div>
      <fieldset className="flex flex-col gap-3 border-t border-slate-200 pt-4">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Two-factor authentication</legend>
        <Check
          label="Require all users in this group to set up two-factor authentication"
          checked={!!form.require_two_factor_authentication}
          onChange={(v) => set('require_two_factor_authentication', v)}
        />
        <TextField
          label="Time before enforced"
          type="number"
          inputMode="numeric"
          min={0}
          className="sm:max-w-60"
          value={grace === undefined ? '' : String(grace)}
          // A number when it reads as one; anything else is sent as typed and answered by the API.
          onChange={(v) => set('two_factor_grace_period', v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v)}
          errors={problems.fields.two_factor_grace_period}
          help="Time (in hours) that users are allowed to skip forced configuration of two-factor authentication."
        />
      </fieldset>
      <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-4">
        <legend className="mb-1 text-sm font-semibold text-slate-900">Default branch</legend>
        <TextField
          label="Initial default branch name"
          className="sm:max-w-sm"
          value={form.default_branch ?? ''}
          onChange={(v) => set('default_branch', v)}
          errors={problems.fields.default_branch}
          help="The default branch of new projects in this group. Leave it empty to use the instance's."
        />
        <Radios
          legend="Initial default branch protection"
          name="default_branch_protection"
          value={String(form.default_branch_protection ?? 2)}
          options={PROTECTION}
          onChange={(v) => set('default_branch_protection', Number(v))}
        />
      </fieldset>
    </SettingsSection>
  );
}
