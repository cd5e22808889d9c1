// The shapes the dashboard reads from /api/v4, as GitLab documents them.
import type { RunnerPermissions } from '../runners/policy';

export interface PersonalAccessToken {
  id: number;
  name: string;
  revoked: boolean;
  created_at: string;
  description: string | null;
  scopes: string[];
  user_id: number;
  last_used_at: string | null;
  active: boolean;
  expires_at: string | null;
}

export interface NewPersonalAccessToken extends PersonalAccessToken {
  token: string;
}

/** GET /user/sessions (a Runway extension): one signed-in dashboard session. */
export interface UserSession {
  id: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_activity_at: string;
  expires_at: string;
  current: boolean;
}

// Runners (GitLab's Runner, RunnerDetails, RunnerManager and JobBasicWithProject entities).

export type RunnerType = 'instance_type' | 'group_type' | 'project_type';
export type RunnerStatus = 'online' | 'offline' | 'stale' | 'never_contacted' | 'paused';
export type RunnerAccessLevel = 'not_protected' | 'ref_protected';
/** GitLab's CiRunnerUpgradeStatus, lower-cased (a Runway extension of the REST entities); null while not known. */
export type RunnerUpgradeStatus = 'invalid' | 'not_available' | 'available' | 'recommended';

export interface UserBasic {
  id: number;
  username: string;
  public_email?: string | null;
  name: string;
  state: string;
  locked?: boolean;
  avatar_url: string | null;
  web_url: string;
}

export interface Runner {
  id: number;
  description: string | null;
  ip_address: string | null;
  active: boolean;
  paused: boolean;
  is_shared: boolean;
  runner_type: RunnerType;
  name: string | null;
  /** null when the runner never contacted the server. */
  online: boolean | null;
  created_by?: UserBasic;
  created_at: string;
  status: RunnerStatus;
  job_execution_status: 'active' | 'idle';
}

export interface RunnerProject {
  id: number;
  name: string;
  name_with_namespace: string;
  path_with_namespace: string;
  web_url?: string;
}

export interface RunnerGroup {
  id: number;
  web_url: string;
  name: string;
}

export interface RunnerDetails extends Runner {
  tag_list: string[];
  run_untagged: boolean;
  locked: boolean;
  maximum_timeout: number | null;
  access_level: RunnerAccessLevel;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  contacted_at: string | null;
  /** null unless the viewer may update the runner. */
  maintenance_note: string | null;
  projects?: RunnerProject[];
  groups: RunnerGroup[];
  /** The most urgent of its managers' upgrade statuses. */
  upgrade_status: RunnerUpgradeStatus | null;
}

/** GET /runners/:id?with_permissions=true (a Runway extension): the details and what the viewer may do. */
export interface RunnerDetailsWithPermissions extends RunnerDetails {
  _runway_permissions: RunnerPermissions;
  /** The project that created a project runner (the first assignment); null for other types. */
  _runway_owner_project_id?: number | null;
  /** When the runner's authentication token expires; null when it does not. */
  _runway_token_expires_at?: string | null;
}

/** POST /user/runners: the new runner and its glrt- token, shown once. */
export interface NewRunner {
  id: number;
  token: string;
  token_expires_at: string | null;
}

/** POST /user/runners */
export interface RunnerCreate {
  runner_type: RunnerType;
  group_id?: number;
  project_id?: number;
  description?: string;
  maintenance_note?: string;
  paused?: boolean;
  locked?: boolean;
  run_untagged?: boolean;
  tag_list?: string;
  access_level?: RunnerAccessLevel;
  maximum_timeout?: number;
}

export interface RunnerManager {
  id: number;
  system_id: string;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  created_at: string;
  contacted_at: string | null;
  ip_address: string | null;
  status: Exclude<RunnerStatus, 'paused'>;
  job_execution_status: 'active' | 'idle';
  upgrade_status: RunnerUpgradeStatus | null;
}

export interface RunnerJob {
  id: number;
  status: string;
  stage: string;
  name: string;
  ref: string;
  tag: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  queued_duration: number | null;
  web_url: string;
  commit: { id: string; short_id: string; title: string } | null;
  pipeline: { id: number; sha: string } | null;
  project: { id: number; name: string; path_with_namespace: string };
}

/** PUT /runners/:id; every field optional (at least one). */
export interface RunnerUpdate {
  description?: string;
  paused?: boolean;
  tag_list?: string;
  run_untagged?: boolean;
  locked?: boolean;
  access_level?: RunnerAccessLevel;
  maximum_timeout?: number | null;
  maintenance_note?: string;
}

// Groups and projects (GitLab's Group, GroupDetail, Project and ProjectWithAccess entities; the fields the
// dashboard reads).

export type Visibility = 'private' | 'internal' | 'public';

export interface NamespaceBasic {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  full_path: string;
  parent_id: number | null;
  web_url: string;
}

export interface Project {
  id: number;
  description: string | null;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
  created_at: string;
  default_branch: string | null;
  web_url: string;
  last_activity_at?: string;
  namespace: NamespaceBasic;
  visibility?: Visibility;
}

export interface MemberAccess {
  access_level: number;
  notification_level: number;
}

export type FeatureAccessLevel = 'disabled' | 'private' | 'enabled' | 'public';

/** The project settings the general settings page edits (Entities::Project). */
export interface ProjectSettingsFields {
  repository_access_level: FeatureAccessLevel;
  issues_access_level: FeatureAccessLevel;
  merge_requests_access_level: FeatureAccessLevel;
  forking_access_level: FeatureAccessLevel;
  builds_access_level: FeatureAccessLevel;
  wiki_access_level: FeatureAccessLevel;
  snippets_access_level: FeatureAccessLevel;
  container_registry_access_level: FeatureAccessLevel;
  lfs_enabled: boolean;
  packages_enabled: boolean;
  request_access_enabled: boolean;
  emails_enabled: boolean;
  merge_method: 'merge' | 'rebase_merge' | 'ff';
  squash_option: 'never' | 'always' | 'default_on' | 'default_off';
  resolve_outdated_diff_discussions: boolean;
  printing_merge_request_link_enabled: boolean;
  remove_source_branch_after_merge: boolean;
  only_allow_merge_if_pipeline_succeeds: boolean;
  allow_merge_on_skipped_pipeline: boolean | null;
  only_allow_merge_if_all_discussions_are_resolved: boolean;
}

/** Entities::Project's shared_with_groups: a group the project is shared with. */
export interface SharedWithGroup {
  group_id: number;
  group_name: string;
  group_full_path: string;
  group_access_level: number;
  expires_at: string | null;
}

export interface ProjectWithAccess extends Project, Partial<ProjectSettingsFields> {
  shared_with_groups?: SharedWithGroup[];
  shared_runners_enabled?: boolean;
  group_runners_enabled?: boolean;
  permissions: { project_access: MemberAccess | null; group_access: MemberAccess | null };
}

export interface Group {
  id: number;
  web_url: string;
  name: string;
  path: string;
  description: string | null;
  visibility: Visibility;
  full_name: string;
  full_path: string;
  created_at: string;
  parent_id: number | null;
  shared_runners_setting?: SharedRunnersSetting;
}

/** The settings Entities::Group shows and PUT /groups/:id takes (the General Settings page's fields). */
export interface GroupSettingsFields {
  request_access_enabled: boolean;
  share_with_group_lock: boolean;
  require_two_factor_authentication: boolean;
  two_factor_grace_period: number;
  project_creation_level: 'noone' | 'owner' | 'maintainer' | 'developer' | 'administrator';
  subgroup_creation_level: 'owner' | 'maintainer';
  emails_enabled: boolean;
  show_diff_preview_in_email: boolean;
  mentions_disabled: boolean | null;
  lfs_enabled: boolean;
  default_branch: string | null;
  default_branch_protection: number;
  /** Top-level groups only (Entities::GroupDetail). */
  prevent_sharing_groups_outside_hierarchy?: boolean;
}

export type GroupWithSettings = Group & Partial<GroupSettingsFields>;

export interface Member {
  id: number;
  username: string;
  name: string;
  access_level: number;
}

// Merge requests and commits (GitLab's MergeRequest, Commit and context-commit entities; the fields the
// dashboard reads).

export type MergeRequestState = 'opened' | 'closed' | 'locked' | 'merged';

export interface MergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: MergeRequestState;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
  merged_by: UserBasic | null;
  target_branch: string;
  source_branch: string;
  author: UserBasic | null;
  assignees: UserBasic[];
  reviewers: UserBasic[];
  draft: boolean;
  sha: string | null;
  merge_commit_sha: string | null;
  reference: string;
  web_url: string;
}

export interface Commit {
  id: string;
  short_id: string;
  created_at: string;
  parent_ids: string[] | null;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  trailers?: Record<string, string>;
  web_url?: string;
}

/** GET /projects/:id/repository/branches entry. */
export interface Branch {
  name: string;
  commit: Commit;
  merged: boolean;
  protected: boolean;
  default: boolean;
  can_push: boolean;
  web_url: string;
}

/** A list entry with `with_details=true` (a Runway extension): what the runner list shows per row. */
export interface RunnerListItem extends Runner {
  _runway: {
    tag_list: string[];
    locked: boolean;
    contacted_at: string | null;
    version: string | null;
    ip_address: string | null;
    managers_count: number;
    /** Counted up to 1,001: above 1,000 means "1,000+". */
    job_count: number;
    owner: { type: 'project' | 'group'; id: number; name: string; full_path: string; full_name: string } | null;
    upgrade_status: RunnerUpgradeStatus | null;
  } | null;
  _runway_permissions: RunnerPermissions;
}

/** GET /audit_events (and the group, project and runner variants): GitLab's AuditEvent entity. */
export interface AuditEvent {
  id: number;
  author_id: number;
  entity_id: number;
  entity_type: string;
  event_name: string;
  details: {
    custom_message?: string;
    author_name?: string;
    author_class?: string;
    target_id?: number;
    target_type?: string;
    target_details?: string;
    ip_address?: string | null;
    entity_path?: string;
    via?: string;
    project_id?: number;
    changes?: Record<string, { from: unknown; to: unknown }>;
    [key: string]: unknown;
  };
  created_at: string;
}
/** A group's instance-runner setting (GitLab's Namespace::SHARED_RUNNERS_SETTINGS). */
export type SharedRunnersSetting = 'enabled' | 'disabled_and_overridable' | 'disabled_and_unoverridable';
