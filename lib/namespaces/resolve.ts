// `:id` of /projects/:id and /groups/:id, resolved as GitLab's find_project!/find_group! do: a numeric id,
// or a full path (case-insensitive and exact, the exact case first). A project id without a "/" never matches.
// Missing and unreadable answer the same 404, so existence is not revealed.
import type { Actor } from '../api/authenticate';
import { notFound } from '../api/errors';
import { db } from '../db/client';
import { AccessLevel, authorizedProjectIdsSql, groupAccessLevel, projectAccessLevel } from './access';
import { groupIdByFullPath, projectIdByFullPath } from './queries';
import { anonymousViewer, canReadGroup, canReadProject as policyCanReadProject, type Viewer, type VisibilityName } from './policy';
import { toProjectRecords, withFullNames, type NamespaceRecord, type ProjectRecord } from './records';

export type { NamespaceRecord, ProjectRecord } from './records';

const NUMERIC = /^-?\d+$/;

async function projectByIdOrPath(id: string | number) {
  const s = String(id).trim();
  if (NUMERIC.test(s)) {
    const n = Number(s);
    if (!Number.isSafeInteger(n) || n <= 0 || n > 2147483647) return null;
    return db().project.findUnique({ where: { id: n }, include: { namespace: true } });
  }
  if (!s.includes('/')) return null;
  const found = await projectIdByFullPath(s);
  return found === null ? null : db().project.findUnique({ where: { id: found }, include: { namespace: true } });
}

async function groupByIdOrPath(id: string | number) {
  const s = String(id).trim();
  if (NUMERIC.test(s)) {
    const n = Number(s);
    if (!Number.isSafeInteger(n) || n <= 0 || n > 2147483647) return null;
    return db().namespace.findFirst({ where: { id: n, kind: 'group' } });
  }
  if (!s) return null;
  const found = await groupIdByFullPath(s);
  return found === null ? null : db().namespace.findUnique({ where: { id: found } });
}

/** The actor as the policy sees them in a project (effective level computed once). */
export async function projectViewer(actor: Actor | null, project: { id: number }): Promise<Viewer> {
  if (!actor) return anonymousViewer;
  return { signedIn: true, admin: actor.user.admin, level: await projectAccessLevel(actor.user.id, project.id) };
}

/** The actor as the policy sees them in a group (inherited memberships included). */
export async function groupViewer(actor: Actor | null, group: { id: number }): Promise<Viewer> {
  if (!actor) return anonymousViewer;
  return { signedIn: true, admin: actor.user.admin, level: await groupAccessLevel(actor.user.id, group.id) };
}

export async function canReadProject(actor: Actor | null, project: { id: number; visibility: VisibilityName }): Promise<boolean> {
  // Public projects need no membership lookup.
  if (project.visibility === 'public' || actor?.user.admin) return true;
  return policyCanReadProject(await projectViewer(actor, project), project);
}

/** Whether the user is authorized (Guest+) in some project of the group or its subgroups. */
async function hasProjectInside(userId: number, groupId: number): Promise<boolean> {
  const rows = await db().$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id
     WHERE ${groupId} = ANY(ns.traversal_ids) AND p.id IN (${authorizedProjectIdsSql(userId, AccessLevel.GUEST)})
     LIMIT 1`;
  return rows.length > 0;
}

/** The project, or 404 "Project Not Found" when it is missing or the actor may not read it. */
export async function findProject(actor: Actor | null, id: string | number): Promise<ProjectRecord> {
  const row = await projectByIdOrPath(id);
  if (!row || !(await canReadProject(actor, row))) throw notFound('Project');
  return (await toProjectRecords([row]))[0];
}

/** The group, or 404 "Group Not Found" when it is missing or the actor may not read it. */
export async function findGroup(actor: Actor | null, id: string | number): Promise<NamespaceRecord> {
  const row = await groupByIdOrPath(id);
  if (!row) throw notFound('Group');
  if (row.visibility !== 'public' && !actor?.user.admin) {
    const viewer = await groupViewer(actor, row);
    if (!canReadGroup(viewer, row) && !(actor && canReadGroup({ ...viewer, readsProjectInside: await hasProjectInside(actor.user.id, row.id) }, row))) {
      throw notFound('Group');
    }
  }
  return (await withFullNames([row]))[0];
}
