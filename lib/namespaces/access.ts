// Effective access levels, as GitLab computes them (project_authorizations): the highest of a direct
// project membership, ownership of the personal namespace (Owner), and memberships of the project's
// group or any ancestor group, and shares: a project shared with a group (project_group_links) or a group
// shared with a group (group_group_links, reaching everything below the shared group) gives the invited
// group's members (direct or inherited) the lower of their own level and the share's group_access. Group
// access likewise inherits down the tree. Expired memberships and shares count for nothing; a project's own
// shares count for nothing while its namespace has share_with_group_lock on. Each question is one indexed query; the *_Sql helpers let list queries filter in SQL.
import { db, type Prisma } from '../db/client';
import { sql } from '../db/sql';

export const AccessLevel = {
  NO_ACCESS: 0,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
} as const;
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];

export const ACCESS_LEVEL_VALUES: readonly number[] = [10, 15, 20, 30, 40, 50];

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

/** The user's effective level in a project (0 when none). Admins are not members: check admin separately. */
export async function projectAccessLevel(userId: number, projectId: number, client: Client = db()): Promise<number> {
  const rows = await client.$queryRaw<{ level: number | null }[]>`
    SELECT GREATEST(
      (SELECT pm.access_level FROM project_members pm
        WHERE pm.project_id = p.id AND pm.user_id = ${userId}
          AND (pm.expires_at IS NULL OR pm.expires_at > CURRENT_DATE)),
      (SELECT 50 FROM namespaces own WHERE own.id = p.namespace_id AND own.owner_id = ${userId}),
      (SELECT MAX(gm.access_level) FROM namespaces ns
         JOIN group_members gm ON gm.group_id = ANY(ns.traversal_ids)
        WHERE ns.id = p.namespace_id AND gm.user_id = ${userId}
          AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)),
      (SELECT MAX(LEAST(gm.access_level, pgl.group_access)) FROM project_group_links pgl
         JOIN namespaces invited ON invited.id = pgl.group_id
         JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
        WHERE pgl.project_id = p.id AND gm.user_id = ${userId} AND ${activeLink('pgl')}
          AND ${projectSharesGrantSql(sql`p.namespace_id`)}
          AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)),
      (SELECT MAX(LEAST(gm.access_level, ggl.group_access)) FROM namespaces ns
         JOIN group_group_links ggl ON ggl.shared_group_id = ANY(ns.traversal_ids)
         JOIN namespaces invited ON invited.id = ggl.shared_with_group_id
         JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
        WHERE ns.id = p.namespace_id AND gm.user_id = ${userId} AND ${activeLink('ggl')}
          AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE))
    )::int AS level
    FROM projects p WHERE p.id = ${projectId}`;
  return rows[0]?.level ?? 0;
}

/** The user's effective level in a group: the highest membership on the group or an ancestor. */
export async function groupAccessLevel(userId: number, groupId: number, client: Client = db()): Promise<number> {
  const rows = await client.$queryRaw<{ level: number | null }[]>`
    SELECT GREATEST(
      (SELECT MAX(gm.access_level)
         FROM namespaces ns
         JOIN group_members gm ON gm.group_id = ANY(ns.traversal_ids)
        WHERE ns.id = ${groupId} AND ns.kind = 'group' AND gm.user_id = ${userId}
          AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)),
      (SELECT MAX(LEAST(gm.access_level, ggl.group_access)) FROM namespaces ns
         JOIN group_group_links ggl ON ggl.shared_group_id = ANY(ns.traversal_ids)
         JOIN namespaces invited ON invited.id = ggl.shared_with_group_id
         JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
        WHERE ns.id = ${groupId} AND ns.kind = 'group' AND gm.user_id = ${userId} AND ${activeLink('ggl')}
          AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE))
    )::int AS level`;
  return rows[0]?.level ?? 0;
}

/**
 * SQL: ids of the projects where `userId` has at least `minLevel`. Use inside a query, e.g.
 * `WHERE p.id IN (${authorizedProjectIdsSql(userId, 40)})`.
 */
export function authorizedProjectIdsSql(userId: number, minLevel: number): Prisma.Sql {
  return sql`
    SELECT pm.project_id FROM project_members pm
     WHERE pm.user_id = ${userId} AND pm.access_level >= ${minLevel}
       AND (pm.expires_at IS NULL OR pm.expires_at > CURRENT_DATE)
    UNION
    SELECT p.id FROM projects p JOIN namespaces own ON own.id = p.namespace_id
     WHERE own.owner_id = ${userId} AND ${minLevel} <= 50
    UNION
    SELECT p.id FROM projects p
      JOIN namespaces ns ON ns.id = p.namespace_id
      JOIN group_members gm ON gm.group_id = ANY(ns.traversal_ids)
     WHERE gm.user_id = ${userId} AND gm.access_level >= ${minLevel}
       AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)
    UNION
    SELECT pgl.project_id FROM project_group_links pgl
      JOIN projects sp ON sp.id = pgl.project_id
      JOIN namespaces invited ON invited.id = pgl.group_id
      JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
     WHERE gm.user_id = ${userId} AND gm.access_level >= ${minLevel} AND pgl.group_access >= ${minLevel} AND ${activeLink('pgl')}
       AND ${projectSharesGrantSql(sql`sp.namespace_id`)}
       AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)
    UNION
    SELECT p.id FROM projects p
      JOIN namespaces ns ON ns.id = p.namespace_id
      JOIN group_group_links ggl ON ggl.shared_group_id = ANY(ns.traversal_ids)
      JOIN namespaces invited ON invited.id = ggl.shared_with_group_id
      JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
     WHERE gm.user_id = ${userId} AND gm.access_level >= ${minLevel} AND ggl.group_access >= ${minLevel} AND ${activeLink('ggl')}
       AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)`;
}

/** SQL: ids of the groups where `userId` has at least `minLevel` (directly or inherited from an ancestor). */
export function authorizedGroupIdsSql(userId: number, minLevel: number): Prisma.Sql {
  return sql`
    SELECT ns.id FROM namespaces ns
      JOIN group_members gm ON gm.group_id = ANY(ns.traversal_ids)
     WHERE ns.kind = 'group' AND gm.user_id = ${userId} AND gm.access_level >= ${minLevel}
       AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)
    UNION
    SELECT ns.id FROM group_group_links ggl
      JOIN namespaces invited ON invited.id = ggl.shared_with_group_id
      JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
      JOIN namespaces ns ON ns.traversal_ids @> ARRAY[ggl.shared_group_id]
     WHERE ns.kind = 'group' AND gm.user_id = ${userId} AND gm.access_level >= ${minLevel} AND ggl.group_access >= ${minLevel}
       AND ${activeLink('ggl')} AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)`;
}

/**
 * SQL: whether the shares of a project in namespace `namespaceId` grant anything. As GitLab's
 * Group.select_for_project_authorization, a project whose own namespace has share_with_group_lock on gives
 * nothing through its project_group_links: turning the lock on keeps the links (they are still listed and
 * come back into force when it is turned off) but takes their access away. The lock cascades to subgroups
 * when turned on (groups/service.ts), a subgroup created under a locked parent starts locked
 * (namespaces/service.ts), and only an Owner of the locked parent may lift it on a subgroup
 * (policy.canChangeShareWithGroupLock), so the project's own namespace is the one to read, as GitLab reads it
 * (and as shares.ts reads it before creating a share).
 */
export function projectSharesGrantSql(namespaceId: Prisma.Sql): Prisma.Sql {
  return sql`NOT EXISTS (SELECT 1 FROM namespaces lockns WHERE lockns.id = ${namespaceId} AND lockns.share_with_group_lock)`;
}

/** A share counts until its expiry date (Expirable: expired on that day). */
function activeLink(alias: 'pgl' | 'ggl'): Prisma.Sql {
  return alias === 'pgl' ? sql`(pgl.expires_at IS NULL OR pgl.expires_at > CURRENT_DATE)` : sql`(ggl.expires_at IS NULL OR ggl.expires_at > CURRENT_DATE)`;
}
