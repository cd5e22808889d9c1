// Reads of memberships: a source's direct members, and "all" members (direct, those inherited from
// ancestor groups, and those of groups shared into the source; one row per user at their highest level).
// Expired memberships and shares count for nothing.
import { db } from '../db/client';
import type { User } from '../db/generated/client';
import { containsPattern, empty, raw, sql, type Sql } from '../db/sql';
import type { MemberRow } from './entity';
import type { MemberSource } from '../namespaces/service';
import { AccessLevel, authorizedGroupIdsSql, projectSharesGrantSql } from '../namespaces/access';

export interface MemberFilters {
  query?: string;
  userIds?: number[];
}

interface RawMember {
  id: number;
  user_id: number;
  access_level: number;
  created_at: Date;
  expires_at: Date | null;
  created_by_id: number | null;
}

const active = (alias: string) => raw(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > CURRENT_DATE)`);

/**
 * Who is asking, for the invited-group rows: GitLab lists the members of a group invited into the source
 * only when the asker may see that group (public_or_visible_to_user), unless the asker is a member of the
 * source itself.
 */
export interface MemberViewer {
  userId: number | null;
  /** The asker's effective level in the source (0 when none). */
  sourceLevel: number;
}

/** SQL: whether the asker may see group `alias` (public; internal when signed in; a group they belong to). */
function groupVisibleSql(alias: string, viewer: MemberViewer): Sql {
  if (viewer.sourceLevel > 0) return sql`TRUE`;
  const g = raw(alias);
  if (viewer.userId === null) return sql`${g}.visibility = 'public'`;
  return sql`(${g}.visibility IN ('public', 'internal') OR ${g}.id IN (${authorizedGroupIdsSql(viewer.userId, AccessLevel.GUEST)}))`;
}

/**
 * SQL: the memberships that reach the source through groups shared into it (and, for a project, into its
 * group's tree), each at the lower of the member's level and the share's group_access. A member of the
 * invited group's ancestors counts too, as access.ts grants. `visible` marks the rows whose group the asker
 * may see; depth -1 puts them after direct and inherited memberships of the same level.
 */
function sharedMembershipsSql(source: MemberSource, viewer: MemberViewer): Sql {
  const cols = (link: string) =>
    raw(`gm.id, gm.user_id, LEAST(gm.access_level, ${link}.group_access) AS access_level, gm.created_at, gm.expires_at, gm.created_by_id, -1 AS depth`);
  const groupLinks = (sharedIds: number[]) => sql`
    SELECT ${cols('ggl')}, ${groupVisibleSql('mg', viewer)} AS visible
      FROM group_group_links ggl
      JOIN namespaces invited ON invited.id = ggl.shared_with_group_id
      JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
      JOIN namespaces mg ON mg.id = gm.group_id
     WHERE ggl.shared_group_id = ANY(${sharedIds}::int[]) AND ${active('ggl')} AND ${active('gm')}`;
  if (source.kind === 'group') return groupLinks(source.group.traversalIds);
  const projectLinks = sql`
    SELECT ${cols('pgl')}, ${groupVisibleSql('mg', viewer)} AS visible
      FROM project_group_links pgl
      JOIN namespaces invited ON invited.id = pgl.group_id
      JOIN group_members gm ON gm.group_id = ANY(invited.traversal_ids)
      JOIN namespaces mg ON mg.id = gm.group_id
     WHERE pgl.project_id = ${source.project.id} AND ${active('pgl')} AND ${active('gm')}
       AND ${projectSharesGrantSql(sql`${source.project.namespace.id}`)}`;
  const ns = source.project.namespace;
  return ns.kind === 'group' ? sql`${projectLinks} UNION ALL ${groupLinks(ns.traversalIds)}` : projectLinks;
}

/** Every membership row that applies to the source (direct; with `inherited`, ancestors' and shares'), as one SQL union. */
function membershipsSql(source: MemberSource, inherited: boolean, viewer: MemberViewer): Sql {
  const shared = inherited ? sql` UNION ALL ${sharedMembershipsSql(source, viewer)}` : empty;
  if (source.kind === 'group') {
    const ids = inherited ? source.group.traversalIds : [source.group.id];
    return sql`SELECT gm.id, gm.user_id, gm.access_level, gm.created_at, gm.expires_at, gm.created_by_id,
                      array_position(${ids}::int[], gm.group_id) AS depth, TRUE AS visible
                 FROM group_members gm WHERE gm.group_id = ANY(${ids}::int[]) AND ${active('gm')}${shared}`;
  }
  const direct = sql`SELECT pm.id, pm.user_id, pm.access_level, pm.created_at, pm.expires_at, pm.created_by_id, 1000 AS depth, TRUE AS visible
                       FROM project_members pm WHERE pm.project_id = ${source.project.id} AND ${active('pm')}`;
  const ns = source.project.namespace;
  if (!inherited) return direct;
  if (ns.kind !== 'group') return sql`${direct}${shared}`;
  return sql`${direct} UNION ALL
    SELECT gm.id, gm.user_id, gm.access_level, gm.created_at, gm.expires_at, gm.created_by_id,
           array_position(${ns.traversalIds}::int[], gm.group_id) AS depth, TRUE AS visible
      FROM group_members gm WHERE gm.group_id = ANY(${ns.traversalIds}::int[]) AND ${active('gm')}${shared}`;
}

/**
 * One row per user among the rows the asker may see: the nearest source's row at the highest level. The
 * level shown is the user's effective level: for a project the highest over every path, seen or not (GitLab
 * reads it from project_authorizations); for a group the highest over the paths listed (GitLab's
 * distinct_on_user_with_max_access_level over the visible union).
 */
function effectiveSql(source: MemberSource, inherited: boolean, f: MemberFilters, viewer: MemberViewer): Sql {
  const filters: Sql[] = [];
  if (f.query) {
    const q = containsPattern(f.query);
    filters.push(sql`AND (u.username ILIKE ${q} OR u.name ILIKE ${q} OR lower(u.email) = lower(${f.query}))`);
  }
  if (f.userIds?.length) filters.push(sql`AND m.user_id = ANY(${f.userIds}::int[])`);
  const best =
    source.kind === 'project'
      ? raw('MAX(a.access_level) OVER (PARTITION BY a.user_id)')
      : raw('MAX(a.access_level) FILTER (WHERE a.visible) OVER (PARTITION BY a.user_id)');
  return sql`SELECT DISTINCT ON (m.user_id) m.id, m.user_id, m.best AS access_level, m.created_at, m.expires_at, m.created_by_id
               FROM (SELECT a.*, ${best} AS best FROM (${membershipsSql(source, inherited, viewer)}) a) m
               JOIN users u ON u.id = m.user_id
              WHERE m.visible ${joinSql(filters)}
              ORDER BY m.user_id, m.access_level DESC, m.depth DESC`;
}

function joinSql(parts: Sql[]): Sql {
  return parts.reduce((acc, p) => sql`${acc} ${p}`, empty);
}

async function toMemberRows(rows: RawMember[]): Promise<MemberRow[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.created_by_id ? [r.user_id, r.created_by_id] : [r.user_id])))];
  const users = ids.length ? await db().user.findMany({ where: { id: { in: ids } } }) : [];
  const byId = new Map<number, User>(users.map((u) => [u.id, u]));
  return rows.map((r) => ({
    accessLevel: r.access_level,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    user: byId.get(r.user_id)!,
    createdBy: r.created_by_id ? (byId.get(r.created_by_id) ?? null) : null,
  }));
}

export async function listMembers(source: MemberSource, inherited: boolean, f: MemberFilters, page: { offset: number; limit: number }, viewer: MemberViewer) {
  const rows = await db().$queryRaw<RawMember[]>`
    SELECT e.* FROM (${effectiveSql(source, inherited, f, viewer)}) e ORDER BY e.user_id ASC OFFSET ${page.offset} LIMIT ${page.limit}`;
  return toMemberRows(rows);
}

export async function countMembers(source: MemberSource, inherited: boolean, f: MemberFilters, viewer: MemberViewer): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM (${effectiveSql(source, inherited, f, viewer)}) e`;
  return rows[0]?.n ?? 0;
}

/** One user's membership (direct, or effective with `inherited`), or null. */
export async function findMember(source: MemberSource, userId: number, inherited: boolean, viewer: MemberViewer): Promise<MemberRow | null> {
  const rows = await db().$queryRaw<RawMember[]>`
    SELECT e.* FROM (${effectiveSql(source, inherited, { userIds: [userId] }, viewer)}) e`;
  return (await toMemberRows(rows))[0] ?? null;
}

export async function memberById(source: MemberSource, memberId: number): Promise<MemberRow> {
  const row =
    source.kind === 'group'
      ? await db().groupMember.findUniqueOrThrow({ where: { id: memberId } })
      : await db().projectMember.findUniqueOrThrow({ where: { id: memberId } });
  return (
    await toMemberRows([
      { id: row.id, user_id: row.userId, access_level: row.accessLevel, created_at: row.createdAt, expires_at: row.expiresAt, created_by_id: row.createdById },
    ])
  )[0];
}
