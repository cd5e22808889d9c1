'use client';
// A project's general settings (/<full_path>/-/edit), two of GitLab's sections: "Visibility, project
// features, permissions" and "Merge requests". Each saves its own fields with PUT /projects/:id, the same
// parameters API clients send. Maintainers and up (visibility: Owners), as GitLab answers 404 to others.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notFound } from 'next/navigation';
import { useState } from 'react';
import { useApi, useCurrentUser } from '../dashboard/session-provider';
import { toast } from '../ui/toast';
import { MAINTAINER, OWNER } from '@/lib/client/access-levels';
import { queryKeys } from '@/lib/client/query-keys';
import type { FeatureAccessLevel, ProjectSettingsFields, ProjectWithAccess, Visibility } from '@/lib/client/types';
import { Breadcrumbs, projectCrumbs, projectNamedPath, settingsCrumbs } from '../ui/breadcrumbs';
import { ProjectLoader } from './project-loader';
import { ProjectShares } from './project-shares';
import { Check, Radios, Select, SettingsSection } from './settings-form';

export function ProjectGeneralSettings({ fullPath }: { fullPath: string }) {
  return (
    <ProjectLoader fullPath={fullPath} access>
      {(p, level) => <GeneralSettings p={p} level={level} />}
    </ProjectLoader>
  );
}

/** `level`: the viewer's effective role, shares included (a Maintainer through a shared group may edit). */
function GeneralSettings({ p, level }: { p: ProjectWithAccess; level: number }) {
  const { admin } = useCurrentUser();
  if (!admin && level < MAINTAINER) notFound();
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={projectCrumbs(projectNamedPath(p), settingsCrumbs('project', p.path_with_namespace, [{ label: 'General' }]))} />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">General Settings</h1>
      <VisibilitySection project={p} canChangeVisibility={admin || level >= OWNER} />
      <MergeRequestsSection project={p} />
      <ProjectShares shares={p.shared_with_groups ?? []} />
    </div>
  );
}

type Fields = Partial<ProjectSettingsFields> & { visibility?: Visibility };

/** Saves the fields that differ from the project as loaded; the cached project is read again after. */
function useSaveSettings(project: ProjectWithAccess) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Fields) => api.put(`/projects/${project.id}`, changes),
    onSuccess: () => {
      toast.success(`Project '${project.name}' was successfully updated.`);
      return client.invalidateQueries({ queryKey: queryKeys.projects.detail(project.path_with_namespace) });
    },
  });
}

function changedFields(project: ProjectWithAccess, form: Fields): Fields {
  const was = project as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.entries(form).filter(([k, v]) => was[k] !== v)) as Fields;
}

// GitLab's wording for the feature levels: "private" is "Only Project Members".
const LEVEL_LABELS: Record<Exclude<FeatureAccessLevel, 'public'>, string> = {
  disabled: 'Disabled',
  private: 'Only Project Members',
  enabled: 'Everyone With Access',
};

const FEATURES: { key: keyof ProjectSettingsFields; label: string; help: string }[] = [
  { key: 'issues_access_level', label: 'Issues', help: 'Flexible tool to collaboratively develop ideas and plan work in this project.' },
  { key: 'repository_access_level', label: 'Repository', help: 'View and edit files in this project.' },
  { key: 'merge_requests_access_level', label: 'Merge requests', help: 'Submit changes to be merged upstream.' },
  { key: 'forking_access_level', label: 'Forks', help: 'Users can copy the repository to a new project.' },
  { key: 'builds_access_level', label: 'CI/CD', help: 'Build, test, and deploy your changes.' },
  { key: 'container_registry_access_level', label: 'Container registry', help: 'Every project can have its own space to store its Docker images.' },
  { key: 'wiki_access_level', label: 'Wiki', help: 'Pages for project documentation.' },
  { key: 'snippets_access_level', label: 'Snippets', help: 'Share code with others outside the project.' },
];

function VisibilitySection({ project, canChangeVisibility }: { project: ProjectWithAccess; canChangeVisibility: boolean }) {
  const save = useSaveSettings(project);
  const [form, setForm] = useState<Fields>(() => ({
    visibility: project.visibility,
    ...Object.fromEntries(FEATURES.map((f) => [f.key, project[f.key]])),
    lfs_enabled: project.lfs_enabled,
    packages_enabled: project.packages_enabled,
    request_access_enabled: project.request_access_enabled,
    emails_enabled: project.emails_enabled,
  }));
  const set = (k: keyof Fields, v: unknown) => setForm((f) => ({ ...f, [k]: v }));
  const levelOptions = Object.entries(LEVEL_LABELS) as [FeatureAccessLevel, string][];
  return (
    <SettingsSection
      id="visibility"
      title="Visibility, project features, permissions"
      description="Choose visibility level, enable or disable project features, and set permissions."
      busy={save.isPending}
      error={save.error}
      onSubmit={() => save.mutate(changedFields(project, form))}
    >
      <Select<Visibility>
        label="Project visibility"
        help={canChangeVisibility ? 'Manage who can see the project in the public access directory.' : 'Only Owners can change the visibility.'}
        value={form.visibility ?? 'private'}
        disabled={!canChangeVisibility}
        options={[
          ['private', 'Private'],
          ['internal', 'Internal'],
          ['public', 'Public'],
        ]}
        onChange={(v) => set('visibility', v)}
      />
      <Check
        label="Users can request access"
        checked={!!form.request_access_enabled}
        onChange={(v) => set('request_access_enabled', v)}
        help="Let users request access to this project."
      />
      <div className="flex flex-col gap-4 border-t border-slate-200 pt-4">
        {FEATURES.map((f) => (
          <Select
            key={f.key}
            label={f.label}
            help={f.help}
            value={(form[f.key] as FeatureAccessLevel) ?? 'enabled'}
            options={levelOptions}
            onChange={(v) => set(f.key, v)}
          />
        ))}
      </div>
      <Check
        label="Git Large File Storage (LFS)"
        checked={!!form.lfs_enabled}
        onChange={(v) => set('lfs_enabled', v)}
        help="Manages large files such as audio, video, and graphics files."
      />
      <Check
        label="Packages"
        checked={!!form.packages_enabled}
        onChange={(v) => set('packages_enabled', v)}
        help="Every project can have its own space to store its packages."
      />
      <Check label="Enable email notifications" checked={!!form.emails_enabled} onChange={(v) => set('emails_enabled', v)} />
    </SettingsSection>
  );
}

type BooleanKey = { [K in keyof ProjectSettingsFields]: ProjectSettingsFields[K] extends boolean | null ? K : never }[keyof ProjectSettingsFields];

const MERGE_OPTIONS: [BooleanKey, string][] = [
  ['resolve_outdated_diff_discussions', 'Automatically resolve merge request diff threads when they become outdated'],
  ['printing_merge_request_link_enabled', 'Show link to create or view a merge request when pushing from the command line'],
  ['remove_source_branch_after_merge', 'Enable "Delete source branch" option by default'],
];
const MERGE_CHECKS: [BooleanKey, string][] = [
  ['only_allow_merge_if_pipeline_succeeds', 'Pipelines must succeed'],
  ['allow_merge_on_skipped_pipeline', 'Skipped pipelines are considered successful'],
  ['only_allow_merge_if_all_discussions_are_resolved', 'All threads must be resolved'],
];

function Checks(props: { legend: string; items: [BooleanKey, string][]; form: Fields; set: (k: keyof Fields, v: unknown) => void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">{props.legend}</legend>
      {props.items.map(([key, label]) => (
        <Check key={key} label={label} checked={!!props.form[key]} onChange={(v) => props.set(key, v)} />
      ))}
    </fieldset>
  );
}

function MergeRequestsSection({ project }: { project: ProjectWithAccess }) {
  const save = useSaveSettings(project);
  const [form, setForm] = useState<Fields>(() => ({
    merge_method: project.merge_method,
    squash_option: project.squash_option,
    ...Object.fromEntries([...MERGE_OPTIONS, ...MERGE_CHECKS].map(([k]) => [k, project[k]])),
  }));
  const set = (k: keyof Fields, v: unknown) => setForm((f) => ({ ...f, [k]: v }));
  return (
    <SettingsSection
      id="merge-requests"
      title="Merge requests"
      description="Choose the merge method, merge options, merge checks and squash options."
      busy={save.isPending}
      error={save.error}
      onSubmit={() => save.mutate(changedFields(project, form))}
    >
      <Radios
        legend="Merge method"
        name="merge_method"
        value={form.merge_method ?? 'merge'}
        onChange={(v) => set('merge_method', v)}
        options={[
          ['merge', 'Merge commit', 'Every merge creates a merge commit.'],
          [
            'rebase_merge',
            'Merge commit with semi-linear history',
            'Every merge creates a merge commit; merging is allowed only if fast-forward merge is possible.',
          ],
          ['ff', 'Fast-forward merge', 'No merge commits are created; merging is allowed only if the branch could be fast-forwarded.'],
        ]}
      />
      <Checks legend="Merge options" items={MERGE_OPTIONS} form={form} set={set} />
      <Radios
        legend="Squash commits when merging"
        name="squash_option"
        value={form.squash_option ?? 'default_off'}
        onChange={(v) => set('squash_option', v)}
        options={[
          ['never', 'Do not allow', 'Squashing is never performed and the checkbox is hidden.'],
          ['default_off', 'Allow', 'Checkbox is visible and unselected by default.'],
          ['default_on', 'Encourage', 'Checkbox is visible and selected by default.'],
          ['always', 'Require', 'Squashing is always performed. Checkbox is visible and selected, and users cannot change it.'],
        ]}
      />
      <Checks legend="Merge checks" items={MERGE_CHECKS} form={form} set={set} />
    </SettingsSection>
  );
}
