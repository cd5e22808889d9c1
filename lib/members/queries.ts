// Reads of memberships: a source's direct members, and "all" members (direct plus those inherited from
// ancestor groups, one row per user at their highest level). Expired memberships count for nothing.
import { db } from '../db/client';
import type { User } from '../db/generated/client';
import { containsPattern, empty, raw, sql, type Sql } from '../db/sql';
import type { MemberRow } from './entity';
import type { MemberSource } from '../namespaces/service';

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

/** Every membership row (direct and inherited) that applies to the source, as one SQL union. */
function membershipsSql(source: MemberSource, inherited: boolean): Sql {
  if (source.kind === 'group') {
    const ids = inherited ? source.group.traversalIds : [source.group.id];
    return sql`SELECT gm.id, gm.user_id, gm.access_level, gm.created_at, gm.expires_at, gm.created_by_id,
                      array_position(${ids}::int[], gm.group_id) AS depth
                 FROM group_members gm WHERE gm.group_id = ANY(${ids}::int[]) AND ${active('gm')}`;
  }
  const direct = sql`SELECT pm.id, pm.user_id, pm.access_level, pm.created_at, pm.expires_at, pm.created_by_id, 1000 AS depth
                       FROM project_members pm WHERE pm.project_id = ${source.project.id} AND ${active('pm')}`;
  const ns = source.project.namespace;
  if (!inherited || ns.kind !== 'group') return direct;
  return sql`${direct} UNION ALL
    SELECT gm.id, gm.user_id, gm.access_level, gm.created_at, gm.expires_at, gm.created_by_id,
           array_position(${ns.traversalIds}::int[], gm.group_id) AS depth
      FROM group_members gm WHERE gm.group_id = ANY(${ns.traversalIds}::int[]) AND ${active('gm')}`;
}

/** One row per user: the highest level, the nearest source breaking ties. */
function effectiveSql(source: MemberSource, inherited: boolean, f: MemberFilters): Sql {
  const filters: Sql[] = [];
  if (f.query) {
    const q = containsPattern(f.query);
    filters.push(sql`AND (u.username ILIKE ${q} OR u.name ILIKE ${q} OR lower(u.email) = lower(${f.query}))`);
  }
  if (f.userIds?.length) filters.push(sql`AND m.user_id = ANY(${f.userIds}::int[])`);
  return sql`SELECT DISTINCT ON (m.user_id) m.id, m.user_id, m.access_level, m.created_at, m.expires_at, m.created_by_id
               FROM (${membershipsSql(source, inherited)}) m JOIN users u ON u.id = m.user_id
              WHERE TRUE ${joinSql(filters)}
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

export async function listMembers(source: MemberSource, inherited: boolean, f: MemberFilters, page: { offset: number; limit: number }) {
  const rows = await db().$queryRaw<RawMember[]>`
    SELECT e.* FROM (${effectiveSql(source, inherited, f)}) e ORDER BY e.user_id ASC OFFSET ${page.offset} LIMIT ${page.limit}`;
  return toMemberRows(rows);
}

export async function countMembers(source: MemberSource, inherited: boolean, f: MemberFilters): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM (${effectiveSql(source, inherited, f)}) e`;
  return rows[0]?.n ?? 0;
}

/** One user's membership (direct, or effective with `inherited`), or null. */
export async function findMember(source: MemberSource, userId: number, inherited: boolean): Promise<MemberRow | null> {
  const rows = await db().$queryRaw<RawMember[]>`
    SELECT e.* FROM (${effectiveSql(source, inherited, { userIds: [userId] })}) e`;
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
