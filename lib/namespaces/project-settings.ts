// The project settings GitLab's create and update parameters set and Entities::Project reports: one table
// drives the parameter declarations, their validation, the stored JSON (projects.settings) and the entity,
// so a setting cannot be reported without being settable (issue 24: infrastructure as code without drift).
// Runway stores these settings and reports them as written; features it does not run (issues, wiki,
// pages, registries, ...) keep only their access level.
import { param } from '../api/params';

export const ACCESS_LEVELS = ['disabled', 'private', 'enabled'] as const;
export const PUBLIC_ACCESS_LEVELS = ['disabled', 'private', 'enabled', 'public'] as const;
export type FeatureAccessLevel = (typeof PUBLIC_ACCESS_LEVELS)[number];
const LEVEL_RANK: Record<FeatureAccessLevel, number> = { disabled: 0, private: 10, enabled: 20, public: 30 };

/** The `*_access_level` settings Entities::Project shows, in its order (`public` only for pages). */
export const FEATURE_LEVELS = [
  'issues_access_level',
  'repository_access_level',
  'merge_requests_access_level',
  'forking_access_level',
  'wiki_access_level',
  'builds_access_level',
  'snippets_access_level',
  'pages_access_level',
  'analytics_access_level',
  'container_registry_access_level',
  'security_and_compliance_access_level',
  'releases_access_level',
  'environments_access_level',
  'feature_flags_access_level',
  'infrastructure_access_level',
  'monitor_access_level',
  'model_experiments_access_level',
  'model_registry_access_level',
] as const;
export type FeatureLevelKey = (typeof FEATURE_LEVELS)[number] | 'package_registry_access_level';

/**
 * The deprecated `*_enabled` booleans: each writes its feature's level (true: enabled, false: disabled) and
 * reads whether the viewer may use the feature; `min` is ProjectFeature's level a `private` feature needs.
 */
export const FEATURE_BOOLEANS = {
  issues_enabled: { level: 'issues_access_level', min: 10 },
  merge_requests_enabled: { level: 'merge_requests_access_level', min: 20 },
  wiki_enabled: { level: 'wiki_access_level', min: 10 },
  jobs_enabled: { level: 'builds_access_level', min: 10 },
  snippets_enabled: { level: 'snippets_access_level', min: 10 },
  container_registry_enabled: { level: 'container_registry_access_level', min: 20 },
} as const satisfies Record<string, { level: FeatureLevelKey; min: number }>;

/** Everything stored in projects.settings; a key missing there reads as its default below. */
export interface ProjectSettings {
  issues_access_level: FeatureAccessLevel;
  repository_access_level: FeatureAccessLevel;
  merge_requests_access_level: FeatureAccessLevel;
  forking_access_level: FeatureAccessLevel;
  wiki_access_level: FeatureAccessLevel;
  builds_access_level: FeatureAccessLevel;
  snippets_access_level: FeatureAccessLevel;
  pages_access_level: FeatureAccessLevel;
  analytics_access_level: FeatureAccessLevel;
  container_registry_access_level: FeatureAccessLevel;
  security_and_compliance_access_level: FeatureAccessLevel;
  releases_access_level: FeatureAccessLevel;
  environments_access_level: FeatureAccessLevel;
  feature_flags_access_level: FeatureAccessLevel;
  infrastructure_access_level: FeatureAccessLevel;
  monitor_access_level: FeatureAccessLevel;
  model_experiments_access_level: FeatureAccessLevel;
  model_registry_access_level: FeatureAccessLevel;
  package_registry_access_level: FeatureAccessLevel;
  topics: string[];
  repository_object_format: 'sha1' | 'sha256';
  resolve_outdated_diff_discussions: boolean;
  emails_enabled: boolean;
  lfs_enabled: boolean;
  ci_default_git_depth: number | null;
  ci_forward_deployment_enabled: boolean;
  ci_separated_caches: boolean;
  ci_allow_fork_pipelines_to_run_in_parent_project: boolean;
  build_git_strategy: 'fetch' | 'clone';
  keep_latest_artifact: boolean;
  restrict_user_defined_variables: boolean;
  public_jobs: boolean;
  build_timeout: number;
  auto_cancel_pending_pipelines: 'disabled' | 'enabled';
  ci_config_path: string | null;
  only_allow_merge_if_pipeline_succeeds: boolean;
  allow_merge_on_skipped_pipeline: boolean | null;
  request_access_enabled: boolean;
  only_allow_merge_if_all_discussions_are_resolved: boolean;
  remove_source_branch_after_merge: boolean;
  printing_merge_request_link_enabled: boolean;
  merge_method: 'merge' | 'rebase_merge' | 'ff';
  squash_option: 'never' | 'always' | 'default_on' | 'default_off';
  enforce_auth_checks_on_uploads: boolean;
  suggestion_commit_message: string | null;
  merge_commit_template: string | null;
  squash_commit_template: string | null;
  issue_branch_template: string | null;
  warn_about_potentially_unwanted_characters: boolean;
  autoclose_referenced_issues: boolean;
  max_artifacts_size: number | null;
}

/** A new project's settings, as GitLab creates one (pages are private unless the project is public). */
export function defaultSettings(visibility: string): ProjectSettings {
  const levels = Object.fromEntries(FEATURE_LEVELS.map((k) => [k, 'enabled'])) as Record<(typeof FEATURE_LEVELS)[number], FeatureAccessLevel>;
  return {
    ...levels,
    pages_access_level: visibility === 'public' ? 'enabled' : 'private',
    security_and_compliance_access_level: 'private',
    package_registry_access_level: 'enabled',
    topics: [],
    repository_object_format: 'sha1',
    resolve_outdated_diff_discussions: false,
    emails_enabled: true,
    lfs_enabled: true,
    ci_default_git_depth: 20,
    ci_forward_deployment_enabled: true,
    ci_separated_caches: true,
    ci_allow_fork_pipelines_to_run_in_parent_project: true,
    build_git_strategy: 'fetch',
    keep_latest_artifact: true,
    restrict_user_defined_variables: false,
    public_jobs: true,
    build_timeout: 3600,
    auto_cancel_pending_pipelines: 'enabled',
    ci_config_path: null,
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: null,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    printing_merge_request_link_enabled: true,
    merge_method: 'merge',
    squash_option: 'default_off',
    enforce_auth_checks_on_uploads: true,
    suggestion_commit_message: null,
    merge_commit_template: null,
    squash_commit_template: null,
    issue_branch_template: null,
    warn_about_potentially_unwanted_characters: true,
    autoclose_referenced_issues: true,
    max_artifacts_size: null,
  };
}

/** The stored JSON over the defaults (rows created before a setting existed read its default). */
// Every project in an API answer reads its settings over the defaults: built once per visibility, frozen
// (topics too), so a reader can share them (bench:api-profile showed the per-call build on GET /runners/:id).
const sharedDefaults = new Map<string, Readonly<ProjectSettings>>();
function defaultsFor(visibility: string): Readonly<ProjectSettings> {
  let d = sharedDefaults.get(visibility);
  if (!d) sharedDefaults.set(visibility, (d = Object.freeze({ ...defaultSettings(visibility), topics: Object.freeze([]) as unknown as string[] })));
  return d;
}

export function readSettings(stored: unknown, visibility: string): ProjectSettings {
  const own = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Partial<ProjectSettings>) : {};
  return { ...defaultsFor(visibility), ...own };
}

// `public` is for pages only (Grape's values: the others answer "does not have a valid value").
const levelParams = Object.fromEntries(
  FEATURE_LEVELS.map((k) => [k, param.string().values(k === 'pages_access_level' ? PUBLIC_ACCESS_LEVELS : ACCESS_LEVELS)]),
) as Record<(typeof FEATURE_LEVELS)[number], ReturnType<ReturnType<typeof param.string>['values']>>;

/** GitLab's optional_project_params (create and update), the ones Runway stores or maps. */
export const projectSettingParams = {
  build_git_strategy: param.string().values(['fetch', 'clone']),
  build_timeout: param.integer(),
  auto_cancel_pending_pipelines: param.string().values(['disabled', 'enabled']),
  ci_config_path: param.string(),
  issues_enabled: param.boolean(),
  merge_requests_enabled: param.boolean(),
  wiki_enabled: param.boolean(),
  jobs_enabled: param.boolean(),
  snippets_enabled: param.boolean(),
  ...levelParams,
  package_registry_access_level: param.string().values(PUBLIC_ACCESS_LEVELS),
  emails_disabled: param.boolean(),
  emails_enabled: param.boolean(),
  warn_about_potentially_unwanted_characters: param.boolean(),
  enforce_auth_checks_on_uploads: param.boolean(),
  resolve_outdated_diff_discussions: param.boolean(),
  remove_source_branch_after_merge: param.boolean(),
  packages_enabled: param.boolean(),
  container_registry_enabled: param.boolean(),
  lfs_enabled: param.boolean(),
  public_builds: param.boolean(),
  public_jobs: param.boolean(),
  request_access_enabled: param.boolean(),
  only_allow_merge_if_pipeline_succeeds: param.boolean(),
  allow_merge_on_skipped_pipeline: param.boolean(),
  only_allow_merge_if_all_discussions_are_resolved: param.boolean(),
  tag_list: param.array(),
  topics: param.array(),
  printing_merge_request_link_enabled: param.boolean(),
  merge_method: param.string().values(['ff', 'rebase_merge', 'merge']),
  suggestion_commit_message: param.string(),
  merge_commit_template: param.string(),
  squash_commit_template: param.string(),
  issue_branch_template: param.string(),
  autoclose_referenced_issues: param.boolean(),
  squash_option: param.string().values(['never', 'always', 'default_on', 'default_off']),
};

/** GitLab's optional_create_project_params_ce. */
export const projectCreateOnlyParams = {
  repository_object_format: param.string().values(['sha1', 'sha256']),
};

/** GitLab's optional_update_params_ce (PUT only). */
export const projectUpdateOnlyParams = {
  ci_default_git_depth: param.integer(),
  keep_latest_artifact: param.boolean(),
  ci_forward_deployment_enabled: param.boolean(),
  ci_allow_fork_pipelines_to_run_in_parent_project: param.boolean(),
  ci_separated_caches: param.boolean(),
  restrict_user_defined_variables: param.boolean(),
  max_artifacts_size: param.integer(),
};

/**
 * GitLab's update_params_at_least_one_of (CE), in its order: the 400 of an update that sets none of them
 * names them all. Some are accepted and ignored (avatar, auto_devops_*, ...: Runway neither stores nor
 * reports them).
 */
export const UPDATE_AT_LEAST_ONE_OF = [
  'allow_merge_on_skipped_pipeline',
  'analytics_access_level',
  'autoclose_referenced_issues',
  'auto_devops_enabled',
  'auto_devops_deploy_strategy',
  'auto_cancel_pending_pipelines',
  'build_git_strategy',
  'build_timeout',
  'builds_access_level',
  'ci_config_path',
  'ci_default_git_depth',
  'ci_allow_fork_pipelines_to_run_in_parent_project',
  'ci_id_token_sub_claim_components',
  'ci_forward_deployment_enabled',
  'ci_forward_deployment_rollback_allowed',
  'ci_separated_caches',
  'container_registry_access_level',
  'container_expiration_policy_attributes',
  'default_branch',
  'description',
  'emails_disabled',
  'emails_enabled',
  'forking_access_level',
  'issues_access_level',
  'lfs_enabled',
  'merge_pipelines_enabled',
  'merge_requests_access_level',
  'merge_requests_template',
  'merge_trains_enabled',
  'merge_method',
  'merge_request_title_regex',
  'merge_request_title_regex_description',
  'name',
  'only_allow_merge_if_all_discussions_are_resolved',
  'only_allow_merge_if_pipeline_succeeds',
  'package_registry_access_level',
  'pages_access_level',
  'path',
  'printing_merge_request_link_enabled',
  'public_builds',
  'public_jobs',
  'remove_source_branch_after_merge',
  'repository_access_level',
  'request_access_enabled',
  'resolve_outdated_diff_discussions',
  'restrict_user_defined_variables',
  'show_diff_preview_in_email',
  'security_and_compliance_access_level',
  'squash_option',
  'shared_runners_enabled',
  'group_runners_enabled',
  'resource_group_default_process_mode',
  'snippets_access_level',
  'tag_list',
  'topics',
  'visibility',
  'wiki_access_level',
  'avatar',
  'suggestion_commit_message',
  'merge_commit_template',
  'squash_commit_template',
  'issue_branch_template',
  'repository_storage',
  'packages_enabled',
  'service_desk_enabled',
  'keep_latest_artifact',
  'mr_default_target_self',
  'enforce_auth_checks_on_uploads',
  'releases_access_level',
  'environments_access_level',
  'feature_flags_access_level',
  'infrastructure_access_level',
  'monitor_access_level',
  'model_experiments_access_level',
  'model_registry_access_level',
  'warn_about_potentially_unwanted_characters',
  'ci_pipeline_variables_minimum_override_role',
  'ci_push_repository_for_job_token_allowed',
  'ci_delete_pipelines_in_seconds',
  'max_artifacts_size',
  'issues_enabled',
  'jobs_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'container_registry_enabled',
];

type Input = Record<string, unknown>;
const TEN_MINUTES = 600;
const ONE_MONTH = 30 * 24 * 3600;

/**
 * The settings an input changes, over `current` (null values of non-nullable settings are ignored),
 * and GitLab's validation messages keyed as its model errors. The deprecated booleans are applied first,
 * so an explicit `*_access_level` in the same request wins.
 */
export function applySettings(current: ProjectSettings, input: Input, visibility: string): { next: ProjectSettings; errors: Record<string, string[]> } {
  const next: ProjectSettings = { ...current, topics: [...current.topics] };
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const given = (k: string) => input[k] !== undefined && input[k] !== null;
  const set = next as unknown as Record<string, unknown>;

  for (const [flag, { level }] of Object.entries(FEATURE_BOOLEANS)) if (given(flag)) set[level] = input[flag] ? 'enabled' : 'disabled';
  if (given('packages_enabled')) {
    // Project#set_package_registry_access_level: on means public in a public project, enabled otherwise.
    if (!input.packages_enabled) next.package_registry_access_level = 'disabled';
    else if (current.package_registry_access_level === 'disabled') next.package_registry_access_level = visibility === 'public' ? 'public' : 'enabled';
  }
  for (const k of [...FEATURE_LEVELS, 'package_registry_access_level'] as const) if (given(k)) next[k] = input[k] as FeatureAccessLevel;
  if (given('emails_disabled')) next.emails_enabled = !input.emails_disabled;
  if (given('emails_enabled')) next.emails_enabled = input.emails_enabled as boolean;
  if (given('public_builds')) next.public_jobs = input.public_builds as boolean;
  if (given('public_jobs')) next.public_jobs = input.public_jobs as boolean;
  const topics = given('topics') ? input.topics : given('tag_list') ? input.tag_list : undefined;
  if (topics !== undefined) next.topics = topicList(topics as string[]);

  const plain = [
    'repository_object_format',
    'resolve_outdated_diff_discussions',
    'lfs_enabled',
    'ci_forward_deployment_enabled',
    'ci_separated_caches',
    'ci_allow_fork_pipelines_to_run_in_parent_project',
    'build_git_strategy',
    'keep_latest_artifact',
    'restrict_user_defined_variables',
    'build_timeout',
    'auto_cancel_pending_pipelines',
    'only_allow_merge_if_pipeline_succeeds',
    'request_access_enabled',
    'only_allow_merge_if_all_discussions_are_resolved',
    'remove_source_branch_after_merge',
    'printing_merge_request_link_enabled',
    'merge_method',
    'squash_option',
    'enforce_auth_checks_on_uploads',
    'warn_about_potentially_unwanted_characters',
    'autoclose_referenced_issues',
  ] as const;
  for (const k of plain) if (given(k)) set[k] = input[k];
  // Nullable settings: an explicit null clears them, as GitLab stores nil.
  const nullable = [
    'ci_default_git_depth',
    'ci_config_path',
    'allow_merge_on_skipped_pipeline',
    'suggestion_commit_message',
    'merge_commit_template',
    'squash_commit_template',
    'issue_branch_template',
    'max_artifacts_size',
  ] as const;
  for (const k of nullable) if (input[k] !== undefined) set[k] = input[k];

  // ProjectFeature#repository_children_level.
  for (const k of ['merge_requests_access_level', 'builds_access_level'] as const) {
    if (LEVEL_RANK[next[k]] > LEVEL_RANK[next.repository_access_level])
      add(`project_feature.${k}`, 'cannot have higher visibility level than repository access level');
  }
  if (given('build_timeout') && (next.build_timeout < TEN_MINUTES || next.build_timeout >= ONE_MONTH))
    add('build_timeout', 'needs to be between 10 minutes and 1 month');
  const depth = next.ci_default_git_depth;
  if (input.ci_default_git_depth !== undefined && depth !== null) {
    if (depth < 0) add('ci_cd_settings.default_git_depth', 'must be greater than or equal to 0');
    else if (depth > 1000) add('ci_cd_settings.default_git_depth', 'must be less than or equal to 1000');
  }
  if (input.max_artifacts_size !== undefined && next.max_artifacts_size !== null && next.max_artifacts_size <= 0)
    add('max_artifacts_size', 'must be greater than 0');
  const path = next.ci_config_path;
  if (input.ci_config_path !== undefined && path) {
    if (/\.\.|^\//.test(path)) add('ci_config_path', 'cannot include leading slash or directory traversal.');
    if (path.length > 255) add('ci_config_path', 'is too long (maximum is 255 characters)');
  }
  const limits = { suggestion_commit_message: 255, merge_commit_template: 500, squash_commit_template: 500, issue_branch_template: 255 } as const;
  for (const [k, max] of Object.entries(limits)) {
    const v = set[k];
    if (input[k] !== undefined && typeof v === 'string' && v.length > max) add(`project_setting.${k}`, `is too long (maximum is ${max} characters)`);
  }
  for (const t of next.topics) if (t.length > 255) add('topics', 'is too long (maximum is 255 characters)');
  return { next, errors };
}

/** Project#topic_list=: trimmed, blanks dropped, duplicates (case-insensitive) kept once, in order. */
function topicList(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values.map((s) => s.trim()).filter(Boolean)) {
    if (seen.has(v.toLowerCase())) continue;
    seen.add(v.toLowerCase());
    out.push(v);
  }
  return out;
}

/** ProjectFeature#feature_available?: on and, when private, for members from the feature's minimum level. */
export function featureAvailable(level: FeatureAccessLevel, viewerLevel: number, admin: boolean, min: number): boolean {
  if (level === 'disabled') return false;
  if (level === 'private') return admin || viewerLevel >= min;
  return true;
}
