// Namespaces, groups and the basic project details every domain shows, as GitLab 18 returns them, keys in
// GitLab's `expose` order (Entities::Project is lib/projects/entity.ts, Entities::Member lib/members/entity.ts).
// Values Runway does not model (features, statistics, ...) take GitLab's defaults for a new project/group.
import { externalUrl } from '../config/env';
import type { Namespace, Project } from '../db/generated/client';
import type { NamespaceRecord, ProjectRecord, SharedGroupLink } from './records';
import { settingsView } from './group-settings';
import { sharedRunnersSetting } from './shared-runners-setting';
import { readSettings } from './project-settings';

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
export const isoDate = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);

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
  return Object.assign(basicGroupDetails(g), {
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
  });
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

let sshHostOf: { url: string; host: string } | undefined;
/** The external URL's host name, parsed once per URL (every project of a list asks). */
export function sshHost(): string {
  const url = externalUrl();
  if (sshHostOf?.url !== url) sshHostOf = { url, host: new URL(url).hostname };
  return sshHostOf.host;
}

export const projectSettings = (p: Pick<Project, 'settings' | 'visibility'>) => readSettings(p.settings, p.visibility);

/** BasicProjectDetails (also `?simple=true`). */
export function basicProjectDetails(p: ProjectRecord) {
  const web = projectWebUrl(p);
  const { topics } = projectSettings(p);
  return Object.assign(projectIdentity(p), {
    default_branch: p.defaultBranch,
    tag_list: topics,
    topics,
    ssh_url_to_repo: `git@${sshHost()}:${p.fullPath}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: null,
    forks_count: 0,
    avatar_url: null,
    star_count: 0,
    last_activity_at: iso(p.lastActivityAt),
    namespace: namespaceBasic(p.namespace),
  });
}

export interface ProjectPermissions {
  /** Direct project membership level (null when none). */
  projectAccess: number | null;
  /** Highest membership in the project's group or its ancestors (null when none or a personal project). */
  groupAccess: number | null;
}

/** Entities::PublicGroupDetails: BasicGroupDetails plus avatar_url, full_name, full_path. */
export function publicGroupDetails(g: NamespaceRecord) {
  return Object.assign(basicGroupDetails(g), { avatar_url: null, full_name: g.fullName, full_path: g.fullPath });
}

/** Entities::Namespace: NamespaceBasic, plus counts for the group's owners and admins (admin_group). */
export function namespaceEntity(ns: NamespaceLike, counts?: { members: number; projects: number }) {
  return Object.assign(namespaceBasic(ns), {
    ...(ns.kind === 'group' && counts ? { members_count_with_descendants: counts.members, root_repository_size: null, projects_count: counts.projects } : {}),
  });
}

/** Entities::NamespaceExistence: GET /namespaces/:id/exists. */
export function namespaceExistence(exists: boolean, suggests: string[]) {
  return { exists, suggests };
}
