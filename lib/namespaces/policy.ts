// Who may read, create in and administer groups and projects: GitLab's GroupPolicy/ProjectPolicy rules
// for the parts Runway holds. Pure functions of a Viewer (who is asking, with their effective access level
// already computed by access.ts) and the resource's visibility, so the whole matrix is testable in one place.
import { AccessLevel } from './access';

export type VisibilityName = 'private' | 'internal' | 'public';

export interface Viewer {
  /** False for anonymous requests. */
  signedIn: boolean;
  admin: boolean;
  /** Effective access level in the resource (0 when not a member): direct, inherited or personal-namespace ownership. */
  level: number;
  /** Groups only: the viewer may read some project inside the group's tree (GroupPolicy's has_projects). */
  readsProjectInside?: boolean;
}

export const anonymousViewer: Viewer = { signedIn: false, admin: false, level: 0 };

/** public: everyone; internal: every signed-in user; private: members (Guest+) and admins. */
function visibleAt(viewer: Viewer, visibility: VisibilityName): boolean {
  if (viewer.admin) return true;
  if (visibility === 'public') return true;
  if (visibility === 'internal') return viewer.signedIn;
  return viewer.signedIn && viewer.level >= AccessLevel.GUEST;
}

/** As projects, plus: a member of a project inside a private group may read that group (has_projects). */
export const canReadGroup = (viewer: Viewer, group: { visibility: VisibilityName }) =>
  visibleAt(viewer, group.visibility) || (viewer.signedIn && viewer.readsProjectInside === true);
export const canReadProject = (viewer: Viewer, project: { visibility: VisibilityName }) => visibleAt(viewer, project.visibility);

/** Top-level groups: admins, and users allowed to create groups (users.can_create_group). */
export const canCreateTopLevelGroup = (user: { admin: boolean; canCreateGroup: boolean }) => user.admin || user.canCreateGroup;

/** The parent group's subgroup_creation_level: "maintainer" (GitLab's default) lets Maintainers in, "owner" only Owners. */
export const canCreateSubgroup = (viewer: Viewer, group: { subgroupCreationLevel?: string } = {}) =>
  viewer.admin || viewer.level >= (group.subgroupCreationLevel === 'owner' ? AccessLevel.OWNER : AccessLevel.MAINTAINER);

const PROJECT_CREATION_MIN_LEVEL: Record<string, number> = {
  developer: AccessLevel.DEVELOPER,
  maintainer: AccessLevel.MAINTAINER,
  owner: AccessLevel.OWNER,
};

/** The group's project_creation_level ("developer" by default); "noone" and "administrator" leave it to admins. */
export const canCreateProjectInGroup = (viewer: Viewer, group: { projectCreationLevel?: string } = {}) =>
  viewer.admin || viewer.level >= (PROJECT_CREATION_MIN_LEVEL[group.projectCreationLevel ?? 'developer'] ?? Number.POSITIVE_INFINITY);

/** A personal namespace takes projects from its owner only (and admins). */
export const canCreateProjectInUserNamespace = (user: { id: number; admin: boolean }, ns: { ownerId: number | null }) => user.admin || ns.ownerId === user.id;

/** Managing members (admin_project_member / admin_group_member): Maintainer+. */
export const canManageMembers = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.MAINTAINER;

/** A manager may grant a level up to their own; only Owners (and admins) may grant Owner. */
export function canGrantLevel(viewer: Viewer, level: number): boolean {
  if (!canManageMembers(viewer)) return false;
  if (viewer.admin || viewer.level >= AccessLevel.OWNER) return true;
  return level < AccessLevel.OWNER && level <= viewer.level;
}

/** Settings that only project/group administrators see (import_url, runners_token, ...). */
export const canAdminister = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.MAINTAINER;

/** Owner-only actions on a group (admin_group). */
export const canAdministerGroup = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.OWNER;

/** PUT /projects/:id (admin_project): Maintainer+. */
export const canUpdateProject = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.MAINTAINER;

/** rename_project, change_visibility_level and remove_project: Owners and admins only (ProjectPolicy). */
export const canRenameProject = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.OWNER;
export const canChangeProjectVisibility = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.OWNER;
export const canRemoveProject = (viewer: Viewer) => viewer.admin || viewer.level >= AccessLevel.OWNER;

// ------------------------------------------------------------------ changing and removing members

export type MemberSourceKind = 'group' | 'project';

/**
 * admin_group_member / admin_project_member: a group's members are managed by its Owners, a project's by
 * its Maintainers (GitLab's GroupPolicy and ProjectPolicy).
 */
export const canAdminMembersOf = (kind: MemberSourceKind, viewer: Viewer) =>
  viewer.admin || viewer.level >= (kind === 'group' ? AccessLevel.OWNER : AccessLevel.MAINTAINER);

/** manage_owners: in a project only its Owners (and admins) grant or revoke Owner. */
const canManageOwnersOf = (kind: MemberSourceKind, viewer: Viewer) =>
  kind === 'group' ? canAdminMembersOf(kind, viewer) : viewer.admin || viewer.level >= AccessLevel.OWNER;

// ------------------------------------------------------------------ shares

/**
 * POST /projects/:id/share: admin_project (Maintainers) may share, but a link with Owner access is
 * manage_owners' business (Projects::GroupLinks::CreateService answers 403 otherwise): a Maintainer may not
 * make a group they own an Owner of the project.
 */
export const canShareProjectAt = (viewer: Viewer, groupAccess: number) =>
  canUpdateProject(viewer) && (groupAccess !== AccessLevel.OWNER || canManageOwnersOf('project', viewer));

/**
 * DELETE /projects/:id/share/:group_id once admin_project passed (ProjectGroupLinkPolicy's
 * destroy_project_group_link): a link below Owner goes; an Owner-access link only for the project's Owners
 * (manage_owners) or an Owner of the invited group.
 */
export const canRemoveProjectShare = (viewer: Viewer, link: { groupAccess: number; viewerOwnsInvitedGroup: boolean }) =>
  link.groupAccess !== AccessLevel.OWNER || canManageOwnersOf('project', viewer) || link.viewerOwnsInvitedGroup;

/** One group of a chain for share_with_group_lock: the viewer's level in it and its own lock. */
export interface LockLink {
  level: number;
  locked: boolean;
}

/**
 * GroupPolicy's change_share_with_group_lock, for `chain` = the group, then its parent, up to the root:
 * an Owner (admins count as Owners) may change the lock unless both the group and its parent are locked;
 * then only someone who may change the parent's lock (an Owner of the parent, recursively) may lift it.
 */
export function canChangeShareWithGroupLock(chain: readonly LockLink[], admin: boolean): boolean {
  for (let i = 0; i < chain.length; i++) {
    if (!admin && chain[i].level < AccessLevel.OWNER) return false;
    const parent = chain[i + 1];
    if (!chain[i].locked || !parent || !parent.locked) return true;
  }
  return true;
}

/** The membership being changed, as GroupMemberPolicy / ProjectMemberPolicy look at it. */
export interface MemberTarget {
  level: number;
  /** The viewer's own membership. */
  self: boolean;
  /** A group's last owner (or last blocked owner when no active one is left): nobody may change or remove it. */
  lastOwner: boolean;
  /** The owner of the personal namespace a project lives in: their membership is fixed. */
  namespaceHolder: boolean;
}

/** update_group_member / update_project_member, plus Members::UpdateService's Owner guards. */
export function canUpdateMember(kind: MemberSourceKind, viewer: Viewer, target: MemberTarget, newLevel: number): boolean {
  if (target.lastOwner || target.namespaceHolder || !canAdminMembersOf(kind, viewer)) return false;
  const touchesOwner = newLevel === AccessLevel.OWNER || target.level === AccessLevel.OWNER;
  return !touchesOwner || canManageOwnersOf(kind, viewer);
}

/** destroy_group_member / destroy_project_member: managers, or the member leaving; Owners stay Owners' business. */
export function canRemoveMember(kind: MemberSourceKind, viewer: Viewer, target: MemberTarget): boolean {
  if (target.lastOwner || target.namespaceHolder) return false;
  if (!canAdminMembersOf(kind, viewer) && !target.self) return false;
  return target.level !== AccessLevel.OWNER || canManageOwnersOf(kind, viewer);
}
