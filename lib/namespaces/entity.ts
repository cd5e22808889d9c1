// Groups, projects, namespaces and members as GitLab 18 returns them, keys in GitLab's `expose` order.
// Values Runway does not model (features, statistics, ...) take GitLab's defaults for a new project/group.
import { externalUrl } from '../config/env';
import type { Namespace, Project, User } from '../db/generated/client';
import { userBasic } from '../users/entity';
import { maskedUrl } from '../repositories/masked-url';
import type { NamespaceRecord, ProjectRecord, SharedGroupLink } from './records';
import { settingsView } from './group-settings';
import { sharedRunnersSetting } from './shared-runners-setting';
import { FEATURE_BOOLEANS, FEATURE_LEVELS, featureAvailable, readSettings, type FeatureAccessLevel } from './project-settings';

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
    tag_list: projectSettings(p).topics,
    topics: projectSettings(p).topics,
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

export const projectSettings = (p: Pick<Project, 'settings' | 'visibility'>) => readSettings(p.settings, p.visibility);

/**
 * Entities::Project. `admin` = the viewer may administer the project (sees import_url); `level` = the
 * viewer's access level (admins: any), for the `*_enabled` booleans of private features.
 */
export function projectEntity(
  p: ProjectRecord,
  opts: { admin: boolean; owner?: User | null; level?: number; siteAdmin?: boolean; sharedWith?: SharedGroupLink[] },
) {
  const api = `${externalUrl()}/api/v4/projects/${p.id}`;
  const s = projectSettings(p);
  const level = opts.level ?? (opts.admin ? 50 : 0);
  const available = (k: keyof typeof FEATURE_BOOLEANS) =>
    featureAvailable(s[FEATURE_BOOLEANS[k].level], level, opts.siteAdmin ?? false, FEATURE_BOOLEANS[k].min);
  // Typed key by key, so the OpenAPI document (read off this function's type) lists every feature.
  const features = Object.fromEntries(FEATURE_LEVELS.map((k) => [k, s[k]])) as Record<(typeof FEATURE_LEVELS)[number], FeatureAccessLevel>;
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
    packages_enabled: s.package_registry_access_level !== 'disabled',
    empty_repo: p.defaultBranch === null,
    archived: false,
    visibility: p.visibility,
    ...(p.namespace.kind === 'user' && opts.owner ? { owner: userBasic(opts.owner) } : {}),
    resolve_outdated_diff_discussions: s.resolve_outdated_diff_discussions,
    repository_object_format: s.repository_object_format,
    issues_enabled: available('issues_enabled'),
    merge_requests_enabled: available('merge_requests_enabled'),
    wiki_enabled: available('wiki_enabled'),
    jobs_enabled: available('jobs_enabled'),
    snippets_enabled: available('snippets_enabled'),
    container_registry_enabled: available('container_registry_enabled'),
    service_desk_enabled: false,
    service_desk_address: null,
    // create_merge_request_in: Developers and up, with the repository and merge requests on.
    can_create_merge_request_in: (opts.siteAdmin || level >= 30) && s.repository_access_level !== 'disabled' && available('merge_requests_enabled'),
    ...features,
    emails_disabled: !s.emails_enabled,
    emails_enabled: s.emails_enabled,
    shared_runners_enabled: p.sharedRunnersEnabled,
    group_runners_enabled: p.groupRunnersEnabled,
    lfs_enabled: s.lfs_enabled,
    creator_id: p.creatorId,
    // As GitLab: the import's URL, type and error are for those who administer the project.
    ...(opts.admin ? { import_url: maskedUrl(p.importUrl), import_type: p.importUrl ? 'git' : null } : {}),
    import_status: p.importStatus,
    ...(opts.admin ? { import_error: p.importError } : {}),
    open_issues_count: 0,
    description_html: p.description ? `<p data-sourcepos="1:1-1:${p.description.length}" dir="auto">${escapeHtml(p.description)}</p>` : '',
    updated_at: iso(p.updatedAt),
    ci_default_git_depth: s.ci_default_git_depth,
    ci_forward_deployment_enabled: s.ci_forward_deployment_enabled,
    ci_job_token_scope_enabled: false,
    ci_separated_caches: s.ci_separated_caches,
    ci_allow_fork_pipelines_to_run_in_parent_project: s.ci_allow_fork_pipelines_to_run_in_parent_project,
    build_git_strategy: s.build_git_strategy,
    keep_latest_artifact: s.keep_latest_artifact,
    restrict_user_defined_variables: s.restrict_user_defined_variables,
    runner_token_expiration_interval: p.runnerTokenExpirationInterval,
    public_jobs: s.public_jobs,
    build_timeout: s.build_timeout,
    auto_cancel_pending_pipelines: s.auto_cancel_pending_pipelines,
    ci_config_path: s.ci_config_path,
    shared_with_groups: (opts.sharedWith ?? []).map(sharedWithGroupEntity),
    only_allow_merge_if_pipeline_succeeds: s.only_allow_merge_if_pipeline_succeeds,
    allow_merge_on_skipped_pipeline: s.allow_merge_on_skipped_pipeline,
    request_access_enabled: s.request_access_enabled,
    only_allow_merge_if_all_discussions_are_resolved: s.only_allow_merge_if_all_discussions_are_resolved,
    remove_source_branch_after_merge: s.remove_source_branch_after_merge,
    printing_merge_request_link_enabled: s.printing_merge_request_link_enabled,
    merge_method: s.merge_method,
    squash_option: s.squash_option,
    enforce_auth_checks_on_uploads: s.enforce_auth_checks_on_uploads,
    suggestion_commit_message: s.suggestion_commit_message,
    merge_commit_template: s.merge_commit_template,
    squash_commit_template: s.squash_commit_template,
    issue_branch_template: s.issue_branch_template,
    warn_about_potentially_unwanted_characters: s.warn_about_potentially_unwanted_characters,
    autoclose_referenced_issues: s.autoclose_referenced_issues,
    max_artifacts_size: s.max_artifacts_size,
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
