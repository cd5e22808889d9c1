// Reads behind GET /namespaces and GET /namespaces/:id: which namespaces a user has (their personal one and
// the groups they are a direct member of; admins every one), and the counts the Namespace entity shows
// to a group's owners, for a whole page in one query.
import type { Actor } from '../api/authenticate';
import { db } from '../db/client';
import type { Namespace } from '../db/generated/client';
import { containsPattern, join, sql, type Sql } from '../db/sql';
import { AccessLevel } from './access';
import type { Page } from './queries';

export interface NamespaceFilters {
  search?: string;
  ownedOnly?: boolean;
  topLevelOnly?: boolean;
  fullPathSearch?: boolean;
}

const activeMembership = sql`(gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)`;

function conditions(actor: Actor, f: NamespaceFilters): Sql[] {
  const user = actor.user;
  const conds: Sql[] = [];
  // As GitLab: admins list every namespace, and owned_only does not narrow that.
  if (!user.admin) {
    const minLevel = f.ownedOnly ? AccessLevel.OWNER : AccessLevel.GUEST;
    conds.push(sql`(ns.owner_id = ${user.id} OR ns.id IN (
      SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${user.id} AND gm.access_level >= ${minLevel} AND ${activeMembership}))`);
  }
  if (f.topLevelOnly) conds.push(sql`ns.parent_id IS NULL`);
  if (f.search) {
    const q = containsPattern(f.search);
    conds.push(f.fullPathSearch ? sql`(ns.name ILIKE ${q} OR ns.full_path ILIKE ${q})` : sql`(ns.name ILIKE ${q} OR ns.path ILIKE ${q})`);
  }
  return conds.length ? conds : [sql`TRUE`];
}

export async function listNamespaces(actor: Actor, f: NamespaceFilters, page: Page): Promise<Namespace[]> {
  return db().$queryRaw<Namespace[]>`
    SELECT ns.id, ns.kind, ns.name, ns.path, ns.full_path AS "fullPath", ns.parent_id AS "parentId", ns.owner_id AS "ownerId",
           ns.traversal_ids AS "traversalIds"
      FROM namespaces ns WHERE ${join(conditions(actor, f), ' AND ')}
     ORDER BY ns.id OFFSET ${page.offset} LIMIT ${page.limit}`;
}

export async function countNamespaces(actor: Actor, f: NamespaceFilters): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM namespaces ns WHERE ${join(conditions(actor, f), ' AND ')}`;
  return rows[0]?.n ?? 0;
}

/** The groups of the batch the user administers (Owner, directly or inherited). */
export async function ownedGroupIds(userId: number, groupIds: number[]): Promise<Set<number>> {
  if (!groupIds.length) return new Set();
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT DISTINCT ns.id FROM namespaces ns JOIN group_members gm ON gm.group_id = ANY(ns.traversal_ids)
     WHERE ns.id = ANY(${groupIds}::int[]) AND gm.user_id = ${userId} AND gm.access_level = ${AccessLevel.OWNER} AND ${activeMembership}`;
  return new Set(rows.map((r) => r.id));
}

export interface GroupCounts {
  /** Distinct users with a membership in the group or any subgroup (users_with_descendants). */
  members: number;
  /** Projects in the group and its subgroups (all_projects). */
  projects: number;
}

export async function groupCounts(groupIds: number[]): Promise<Map<number, GroupCounts>> {
  if (!groupIds.length) return new Map();
  const rows = await db().$queryRaw<{ id: number; members: number; projects: number }[]>`
    SELECT g.id,
           (SELECT COUNT(DISTINCT gm.user_id) FROM namespaces d JOIN group_members gm ON gm.group_id = d.id
             WHERE g.id = ANY(d.traversal_ids))::int AS members,
           (SELECT COUNT(*) FROM namespaces d JOIN projects p ON p.namespace_id = d.id
             WHERE g.id = ANY(d.traversal_ids))::int AS projects
      FROM unnest(${groupIds}::int[]) AS g(id)`;
  return new Map(rows.map((r) => [r.id, { members: r.members, projects: r.projects }]));
}

/** The namespace by numeric id or full path (exact case first), or null. */
export async function namespaceByIdOrPath(id: string): Promise<Namespace | null> {
  if (/^\d+$/.test(id)) {
    const n = Number(id);
    return n <= 2147483647 ? db().namespace.findUnique({ where: { id: n } }) : null;
  }
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT id FROM namespaces WHERE lower(full_path) = lower(${id}) ORDER BY full_path = ${id} DESC, id LIMIT 1`;
  return rows[0] ? db().namespace.findUnique({ where: { id: rows[0].id } }) : null;
}

/** Whether a namespace under `parentId` (top level when null) has this path, in any case. */
export async function namespacePathTaken(path: string, parentId: number | null): Promise<boolean> {
  const rows = await db().$queryRaw<{ taken: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM namespaces WHERE lower(path) = lower(${path})
       AND ${parentId === null ? sql`parent_id IS NULL` : sql`parent_id = ${parentId}`}) AS taken`;
  return rows[0]?.taken ?? false;
}

/** find_by_path_or_name among the namespaces under `parentId`: the path or the name, in any case. */
export async function namespacePathOrNameTaken(value: string, parentId: number | null): Promise<boolean> {
  const rows = await db().$queryRaw<{ taken: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM namespaces WHERE (lower(path) = lower(${value}) OR lower(name) = lower(${value}))
       AND ${parentId === null ? sql`parent_id IS NULL` : sql`parent_id = ${parentId}`}) AS taken`;
  return rows[0]?.taken ?? false;
}
