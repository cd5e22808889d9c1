// Groups, projects, namespaces and members as GitLab 18 returns them, keys in GitLab's `expose` order.
// Values Runway does not model (features, statistics, ...) take GitLab's defaults for a new project/group.
import { externalUrl } from '../config/env';
import type { Namespace, Project, User } from '../db/generated/client';
import { userBasic } from '../users/entity';
import { maskedUrl } from '../repositories/masked-url';
import type { NamespaceRecord, ProjectRecord } from './records';
import type { SharedGroupLink } from './shares';
import { settingsView } from './group-settings';
import { sharedRunnersSetting } from './shared-runners-setting';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const isoDate = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);

type NamespaceLike = Pick<Namespace, 'id' | 'kind' | 'name' | 'path' | 'fullPath' | 'parentId'>;

export function namespaceWebUrl(ns: Pick<Namespace, 'kind' | 'fullPath'>): string {
  return ns.kind === 'group' ? `${externalUrl()}/groups/${ns.fullPath}` : `${externalUrl()}/${ns.fullPath}`;
}

export const projectWebUrl = (p: Pick<Project, 'fullPath'>) => `${externalUrl()}/${p.fullPath}`;

/** NamespaceBasic: id, name, path, kind, full_path, parent_id, avatar_url, web_url. */
export function namespaceBasic(ns: NamespaceLike) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parentId,
    avatar_url: null,
    web_url: namespaceWebUrl(ns),
  };
}

/** BasicGroupDetails: id, web_url, name. */
export function basicGroupDetails(g: Pick<Namespace, 'id' | 'name' | 'fullPath' | 'kind'>) {
  return { id: g.id, web_url: namespaceWebUrl(g), name: g.name };
}

/** Entities::Group. */
export function groupEntity(g: NamespaceRecord) {
  return {
    ...basicGroupDetails(g),
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    ...settings(g),
    avatar_url: null,
    request_access_enabled: g.requestAccessEnabled,
    full_name: g.fullName,
    full_path: g.fullPath,
    created_at: iso(g.createdAt),
    parent_id: g.parentId,
    organization_id: 1,
    shared_runners_setting: sharedRunnersSetting(g),
    max_artifacts_size: g.maxArtifactsSize,
    marked_for_deletion_on: null,
  };
}

/** The stored settings in Entities::Group's order (archived sits among them; Runway does not archive groups). */
function settings(g: NamespaceRecord) {
  const { math_rendering_limits_enabled, lock_math_rendering_limits_enabled, ...before } = settingsView(g);
  const { default_branch, default_branch_protection, default_branch_protection_defaults, ...head } = before;
  return {
    ...head,
    archived: false,
    math_rendering_limits_enabled,
    lock_math_rendering_limits_enabled,
    default_branch,
    default_branch_protection,
    default_branch_protection_defaults,
  };
}

/** SharedGroupWithGroup / SharedGroupWithProject: one group a group or project is shared with. */
export function sharedWithGroupEntity(l: SharedGroupLink) {
  return {
    group_id: l.groupId,
    group_name: l.groupName,
    group_full_path: l.groupFullPath,
    group_access_level: l.groupAccess,
    expires_at: isoDate(l.expiresAt),
  };
}

/** Entities::ProjectGroupLink: the answer of POST /projects/:id/share. */
export function projectGroupLinkEntity(l: { id: number; projectId: number; groupId: number; groupAccess: number; expiresAt: Date | null }) {
  return { id: l.id, project_id: l.projectId, group_id: l.groupId, group_access: l.groupAccess, expires_at: isoDate(l.expiresAt) };
}

/**
 * Entities::GroupDetail: the group, the groups it is shared with, prevent_sharing_groups_outside_hierarchy
 * (top-level groups only, as GitLab), and its projects and the projects shared with it (those the viewer may
 * read); `null` projects is with_projects=false.
 */
export function groupDetailEntity(
  g: NamespaceRecord,
  projects: ProjectRecord[] | null,
  opts: { admin: boolean; sharedWith: SharedGroupLink[]; sharedProjects: ProjectRecord[] },
) {
  const detail = {
    ...groupEntity(g),
    shared_with_groups: opts.sharedWith.map(sharedWithGroupEntity),
    ...(g.parentId === null ? { prevent_sharing_groups_outside_hierarchy: g.preventSharingGroupsOutsideHierarchy } : {}),
  };
  if (!projects) return detail;
  return {
    ...detail,
    projects: projects.map((p) => projectEntity(p, { admin: opts.admin })),
    shared_projects: opts.sharedProjects.map((p) => projectEntity(p, { admin: opts.admin })),
  };
}

/** ProjectIdentity: id, description, name, name_with_namespace, path, path_with_namespace, created_at. */
export function projectIdentity(p: ProjectRecord) {
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.namespace.fullName} / ${p.name}`,
    path: p.path,
    path_with_namespace: p.fullPath,
    created_at: iso(p.createdAt),
  };
}

function sshHost(): string {
  return new URL(externalUrl()).hostname;
}

/** BasicProjectDetails (also `?simple=true`). */
export function basicProjectDetails(p: ProjectRecord) {
  const web = projectWebUrl(p);
  return {
    ...projectIdentity(p),
    default_branch: p.defaultBranch,
    tag_list: [] as string[],
    topics: [] as string[],
    ssh_url_to_repo: `git@${sshHost()}:${p.fullPath}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: null,
    forks_count: 0,
    avatar_url: null,
    star_count: 0,
    last_activity_at: iso(p.lastActivityAt),
    namespace: namespaceBasic(p.namespace),
  };
}

const ENABLED_FEATURES = [
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

/** Entities::Project. `admin` = the viewer may administer the project (sees import_url). */
export function projectEntity(p: ProjectRecord, opts: { admin: boolean; owner?: User | null; sharedWith?: SharedGroupLink[] }) {
  const api = `${externalUrl()}/api/v4/projects/${p.id}`;
  // Typed key by key, so the OpenAPI document (read off this function's type) lists every feature.
  const features = Object.fromEntries(
    ENABLED_FEATURES.map((k) => [k, p.visibility === 'private' && k === 'pages_access_level' ? 'private' : 'enabled']),
  ) as Record<(typeof ENABLED_FEATURES)[number], 'enabled' | 'private'>;
  return {
    ...basicProjectDetails(p),
    container_registry_image_prefix: `${sshHost()}/${p.fullPath}`.toLowerCase(),
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    packages_enabled: true,
    empty_repo: p.defaultBranch === null,
    archived: false,
    visibility: p.visibility,
    ...(p.namespace.kind === 'user' && opts.owner ? { owner: userBasic(opts.owner) } : {}),
    resolve_outdated_diff_discussions: false,
    repository_object_format: 'sha1',
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    container_registry_enabled: true,
    service_desk_enabled: false,
    service_desk_address: null,
    can_create_merge_request_in: true,
    ...features,
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: p.sharedRunnersEnabled,
    group_runners_enabled: p.groupRunnersEnabled,
    lfs_enabled: true,
    creator_id: p.creatorId,
    // As GitLab: the import's URL, type and error are for those who administer the project.
    ...(opts.admin ? { import_url: maskedUrl(p.importUrl), import_type: p.importUrl ? 'git' : null } : {}),
    import_status: p.importStatus,
    ...(opts.admin ? { import_error: p.importError } : {}),
    open_issues_count: 0,
    description_html: p.description ? `<p data-sourcepos="1:1-1:${p.description.length}" dir="auto">${escapeHtml(p.description)}</p>` : '',
    updated_at: iso(p.updatedAt),
    ci_default_git_depth: 20,
    ci_forward_deployment_enabled: true,
    ci_job_token_scope_enabled: false,
    ci_separated_caches: true,
    ci_allow_fork_pipelines_to_run_in_parent_project: true,
    build_git_strategy: 'fetch',
    keep_latest_artifact: true,
    restrict_user_defined_variables: false,
    runner_token_expiration_interval: p.runnerTokenExpirationInterval,
    public_jobs: true,
    build_timeout: 3600,
    auto_cancel_pending_pipelines: 'enabled',
    ci_config_path: null,
    shared_with_groups: (opts.sharedWith ?? []).map(sharedWithGroupEntity),
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

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface ProjectPermissions {
  /** Direct project membership level (null when none). */
  projectAccess: number | null;
  /** Highest membership in the project's group or its ancestors (null when none or a personal project). */
  groupAccess: number | null;
}

/** Entities::ProjectWithAccess: the project plus the viewer's permissions. */
export function projectWithAccess(
  p: ProjectRecord,
  opts: { admin: boolean; owner?: User | null; sharedWith?: SharedGroupLink[]; permissions: ProjectPermissions },
) {
  const access = (level: number | null) => (level ? { access_level: level, notification_level: 3 } : null);
  return {
    ...projectEntity(p, opts),
    permissions: { project_access: access(opts.permissions.projectAccess), group_access: access(opts.permissions.groupAccess) },
  };
}

export interface MemberRow {
  accessLevel: number;
  createdAt: Date;
  expiresAt: Date | null;
  user: User;
  createdBy?: User | null;
}

/** Entities::Member: UserBasic at the top level, then the membership. */
export function memberEntity(m: MemberRow) {
  return {
    ...userBasic(m.user),
    access_level: m.accessLevel,
    created_at: iso(m.createdAt),
    ...(m.createdBy ? { created_by: userBasic(m.createdBy) } : {}),
    expires_at: isoDate(m.expiresAt),
  };
}

/** Entities::PublicGroupDetails: BasicGroupDetails plus avatar_url, full_name, full_path. */
export function publicGroupDetails(g: NamespaceRecord) {
  return { ...basicGroupDetails(g), avatar_url: null, full_name: g.fullName, full_path: g.fullPath };
}

/** Entities::Namespace: NamespaceBasic, plus counts for the group's owners and admins (admin_group). */
export function namespaceEntity(ns: NamespaceLike, counts?: { members: number; projects: number }) {
  return {
    ...namespaceBasic(ns),
    ...(ns.kind === 'group' && counts ? { members_count_with_descendants: counts.members, root_repository_size: null, projects_count: counts.projects } : {}),
  };
}

/** Entities::NamespaceExistence: GET /namespaces/:id/exists. */
export function namespaceExistence(exists: boolean, suggests: string[]) {
  return { exists, suggests };
}
