// Group sharing: a group shared with another group (group_group_links) and a project shared with a group
// (project_group_links), as GitLab's Groups::GroupLinks and Projects::GroupLinks services create and remove
// them. The access they grant is computed in access.ts with every other membership.
import type { Actor } from '../api/authenticate';
import { apiError, conflict, forbidden, notFound } from '../api/errors';
import { db, type Prisma } from '../db/client';
import { sql } from '../db/sql';
import { AccessLevel, authorizedGroupIdsSql, authorizedProjectIdsSql, groupAccessLevel } from './access';
import { canAdminMembersOf, canRemoveProjectShare, canShareProjectAt, canUpdateProject } from './policy';
import type { ProjectGroupLink } from '../db/generated/client';
import type { NamespaceRecord, ProjectRecord, SharedGroupLink } from './records';
import { groupViewer, projectViewer } from './resolve';

export interface NewShare {
  groupAccess: number;
  expiresAt?: string | null;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === 'P2002';
/** The project or the invited group went away while the link was written (removed concurrently). */
const isForeignKeyViolation = (err: unknown) => (err as { code?: string })?.code === 'P2003';
const asDate = (d: string | null | undefined) => (d ? new Date(`${d}T00:00:00Z`) : null);

/** GroupLinkable#sharing_allowed?: the root's prevent_sharing_groups_outside_hierarchy keeps shares inside its tree. */
async function sharingAllowed(rootId: number, invited: NamespaceRecord): Promise<boolean> {
  const root = await db().namespace.findUnique({ where: { id: rootId }, select: { preventSharingGroupsOutsideHierarchy: true } });
  return !root?.preventSharingGroupsOutsideHierarchy || invited.traversalIds[0] === rootId;
}

/**
 * POST /groups/:id/share. As Groups::GroupLinks::CreateService: Owners (admin_group_member) of the shared
 * group, inviting a group they can read; anything else is its 404 "Not Found"; a second share of the same
 * pair is the model's 409.
 */
export async function shareGroup(actor: Actor, group: NamespaceRecord, invited: NamespaceRecord, share: NewShare): Promise<void> {
  const allowed = canAdminMembersOf('group', await groupViewer(actor, group)) && (await sharingAllowed(group.traversalIds[0] ?? group.id, invited));
  if (!allowed) throw apiError(404, 'Not Found');
  try {
    await db().groupGroupLink.create({
      data: { sharedGroupId: group.id, sharedWithGroupId: invited.id, groupAccess: share.groupAccess, expiresAt: asDate(share.expiresAt) },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Shared group The group has already been shared with this group');
    throw err;
  }
}

/** DELETE /groups/:id/share/:group_id: 404 "Group Link Not Found" when there is no such share. */
export async function unshareGroup(actor: Actor, group: NamespaceRecord, invitedId: number): Promise<void> {
  const link = await db().groupGroupLink.findUnique({ where: { sharedGroupId_sharedWithGroupId: { sharedGroupId: group.id, sharedWithGroupId: invitedId } } });
  if (!link) throw notFound('Group Link');
  if (!canAdminMembersOf('group', await groupViewer(actor, group))) throw apiError(404, 'Not Found');
  await db().groupGroupLink.deleteMany({ where: { id: link.id } });
}

/**
 * Project#allowed_to_share_with_group?: whether the project's own namespace has share_with_group_lock on,
 * the same column access.ts reads. A lock turned on in a group binds every subgroup below it (and every
 * subgroup created later), and only an Owner of the locked parent may lift it on a subgroup (groups/service.ts),
 * so a subgroup is unlocked under a locked ancestor only by that Owner's choice, as in GitLab.
 */
async function shareLocked(project: ProjectRecord): Promise<boolean> {
  if (project.namespace.kind !== 'group') return false;
  const ns = await db().namespace.findUnique({ where: { id: project.namespace.id }, select: { shareWithGroupLock: true } });
  return ns?.shareWithGroupLock === true;
}

/**
 * POST /projects/:id/share. Maintainers (admin_project); a locked namespace answers 400 "The project sharing
 * with group is disabled"; Owner access only from the project's Owners (403, manage_owners); an unreadable or
 * missing group 404 "Not Found"; the project's own group or an ancestor, or a second share of the group, 409
 * with the model's message. Returns the link as written: it is answered as created even if an unshare
 * removes it before the response goes out.
 */
export async function shareProject(actor: Actor, project: ProjectRecord, invited: NamespaceRecord | null, share: NewShare): Promise<ProjectGroupLink> {
  const viewer = await projectViewer(actor, project);
  if (!canUpdateProject(viewer)) throw forbidden();
  if (await shareLocked(project)) throw apiError(400, 'The project sharing with group is disabled');
  if (!canShareProjectAt(viewer, share.groupAccess)) throw forbidden();
  const root = project.namespace.kind === 'group' ? project.namespace.traversalIds[0] : null;
  if (!invited || (root && !(await sharingAllowed(root, invited)))) throw apiError(404, 'Not Found');
  if (project.namespace.kind === 'group' && project.namespace.traversalIds.includes(invited.id)) {
    throw conflict('Project cannot be shared with the group it is in or one of its ancestors.');
  }
  try {
    return await db().projectGroupLink.create({
      data: { projectId: project.id, groupId: invited.id, groupAccess: share.groupAccess, expiresAt: asDate(share.expiresAt) },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Group already shared with this group');
    if (isForeignKeyViolation(err)) throw apiError(404, 'Not Found');
    throw err;
  }
}

/**
 * DELETE /projects/:id/share/:group_id: Maintainers (403 otherwise); 404 "Group Link Not Found" when there is
 * no such share; an Owner-access link only for the project's Owners or an Owner of the invited group
 * (Projects::GroupLinks::DestroyService: 403 "Forbidden").
 */
export async function unshareProject(actor: Actor, project: ProjectRecord, groupId: number): Promise<void> {
  const viewer = await projectViewer(actor, project);
  if (!canUpdateProject(viewer)) throw forbidden();
  const link = await db().projectGroupLink.findFirst({ where: { projectId: project.id, groupId } });
  if (!link) throw notFound('Group Link');
  const viewerOwnsInvitedGroup = link.groupAccess === AccessLevel.OWNER && (await groupAccessLevel(actor.user.id, link.groupId)) >= AccessLevel.OWNER;
  if (!canRemoveProjectShare(viewer, { groupAccess: link.groupAccess, viewerOwnsInvitedGroup })) throw apiError(403, 'Forbidden');
  // By id: a link removed and shared again meanwhile is a new decision, left alone.
  const { count } = await db().projectGroupLink.deleteMany({ where: { id: link.id } });
  if (!count) throw notFound('Group Link');
}

// ------------------------------------------------------------------ reads

function toLinks(rows: { source_id: number; group_id: number; name: string; full_path: string; group_access: number; expires_at: Date | null }[]) {
  return rows.map((r): SharedGroupLink => ({
    sourceId: r.source_id,
    groupId: r.group_id,
    groupName: r.name,
    groupFullPath: r.full_path,
    groupAccess: r.group_access,
    expiresAt: r.expires_at,
  }));
}

/**
 * SQL: whether the viewer may read group `g` (GroupPolicy's read_group): admins all; public; internal when
 * signed in; private to its members (shares included) and to members of a project inside it.
 */
function readableGroupSql(viewer: Actor | null): Prisma.Sql {
  if (!viewer) return sql`g.visibility = 'public'`;
  if (viewer.user.admin) return sql`TRUE`;
  const userId = viewer.user.id;
  return sql`(g.visibility IN ('public', 'internal')
    OR g.id IN (${authorizedGroupIdsSql(userId, AccessLevel.GUEST)})
    OR EXISTS (SELECT 1 FROM projects p JOIN namespaces pn ON pn.id = p.namespace_id
                WHERE g.id = ANY(pn.traversal_ids) AND p.id IN (${authorizedProjectIdsSql(userId, AccessLevel.GUEST)})))`;
}

/**
 * The groups each project is shared with that the viewer may read (one query for a page). GitLab's
 * Project#visible_group_links leaves out links to groups the viewer cannot read.
 */
export async function projectShares(projectIds: number[], viewer: Actor | null): Promise<Map<number, SharedGroupLink[]>> {
  const out = new Map<number, SharedGroupLink[]>();
  if (!projectIds.length) return out;
  const rows = await db().$queryRaw<Parameters<typeof toLinks>[0]>`
    SELECT pgl.project_id AS source_id, g.id AS group_id, g.name, g.full_path, pgl.group_access, pgl.expires_at
      FROM project_group_links pgl JOIN namespaces g ON g.id = pgl.group_id
     WHERE pgl.project_id = ANY(${projectIds}::int[]) AND ${readableGroupSql(viewer)} ORDER BY pgl.id`;
  for (const l of toLinks(rows)) out.set(l.sourceId, [...(out.get(l.sourceId) ?? []), l]);
  return out;
}

/** The groups a group is shared with that the viewer may read (Group#shared_with_group_links_visible_to_user). */
export async function groupShares(groupId: number, viewer: Actor | null): Promise<SharedGroupLink[]> {
  const rows = await db().$queryRaw<Parameters<typeof toLinks>[0]>`
    SELECT ggl.shared_group_id AS source_id, g.id AS group_id, g.name, g.full_path, ggl.group_access, ggl.expires_at
      FROM group_group_links ggl JOIN namespaces g ON g.id = ggl.shared_with_group_id
     WHERE ggl.shared_group_id = ${groupId} AND ${readableGroupSql(viewer)} ORDER BY ggl.id`;
  return toLinks(rows);
}

/** Ids of the projects shared with a group (GroupDetail's shared_projects). */
export async function projectIdsSharedWith(groupId: number, limit: number): Promise<number[]> {
  const rows = await db().projectGroupLink.findMany({ where: { groupId }, select: { projectId: true }, orderBy: { projectId: 'asc' }, take: limit });
  return rows.map((r) => r.projectId);
}
