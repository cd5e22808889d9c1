// Entities::Project and Entities::ProjectWithAccess, in GitLab's field order.
import { externalUrl } from '../config/env';
import type { User } from '../db/generated/client';
import { maskedUrl } from '../repositories/masked-url';
import { userBasic } from '../users/entity';
import type { ProjectRecord, SharedGroupLink } from '../namespaces/records';
import { basicProjectDetails, iso, projectSettings, sharedWithGroupEntity, sshHost, type ProjectPermissions } from '../namespaces/entity';
import { FEATURE_BOOLEANS, FEATURE_LEVELS, featureAvailable, type FeatureAccessLevel } from '../namespaces/project-settings';

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
  return Object.assign(basicProjectDetails(p), {
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
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Entities::ProjectWithAccess: the project plus the viewer's permissions. */
export function projectWithAccess(
  p: ProjectRecord,
  opts: { admin: boolean; owner?: User | null; sharedWith?: SharedGroupLink[]; permissions: ProjectPermissions },
) {
  const access = (level: number | null) => (level ? { access_level: level, notification_level: 3 } : null);
  return Object.assign(projectEntity(p, opts), {
    permissions: { project_access: access(opts.permissions.projectAccess), group_access: access(opts.permissions.groupAccess) },
  });
}
