// Reads on users: the GET /users finder (index-backed filters, one page per query) and the
// relations the admin entities show, batch-loaded per page.
import { db, type Prisma } from '../db/client';
import { join, likeEscape, raw, sql } from '../db/sql';
import { isRowId } from '../db/ids';
import type { User } from '../db/generated/client';
import type { AdminExtras, MembershipRow } from './entity';
import type { ListUsersInput } from './schema';
import { findUserByLogin, userIdByLogin } from '../auth/lookups';
import { signInLocksUntil } from '../auth/lockout';

export async function findUserById(id: number) {
  return isRowId(id) ? db().user.findUnique({ where: { id } }) : null;
}

// The login lookups live with authentication, which runs them on every request (lib/auth sits below the
// domains); they are re-exported here for the users domain's own callers.
export { findUserByLogin, userIdByLogin } from '../auth/lookups';

/** UsersFinder: the filters GitLab applies for `username`, `search`, `active`, `blocked`, `admins`, dates. */
export async function usersWhere(input: ListUsersInput, viewerIsAdmin: boolean): Promise<Prisma.UserWhereInput> {
  const and: Prisma.UserWhereInput[] = [];
  const idIn = (ids: (number | null)[]) => ({ id: { in: ids.filter((id): id is number => id !== null) } });
  if (input.username) and.push(idIn([await userIdByLogin('username', input.username)]));
  if (input.search) {
    const q = input.search.trim();
    // Prisma puts `contains` into ILIKE as given: the user's `%`, `_` and `\` are escaped to stay literal.
    const literal = likeEscape(q);
    // Non-admins find a user by email only with the exact (public) address, as GitLab does.
    const emailColumn = raw(viewerIsAdmin ? 'email' : 'public_email');
    const byEmail = await db().$queryRaw<{ id: number }[]>`SELECT id FROM users WHERE lower(${emailColumn}) = lower(${q})`;
    and.push({
      OR: [{ username: { contains: literal, mode: 'insensitive' } }, { name: { contains: literal, mode: 'insensitive' } }, idIn(byEmail.map((r) => r.id))],
    });
  }
  if (input.active) and.push({ state: 'active' });
  if (input.blocked) and.push({ state: 'blocked' });
  if (input.admins && viewerIsAdmin) and.push({ admin: true });
  // Date filters are admin-only in GitLab (params.except! for other callers).
  if (viewerIsAdmin && input.created_after) and.push({ createdAt: { gte: input.created_after } });
  if (viewerIsAdmin && input.created_before) and.push({ createdAt: { lte: input.created_before } });
  return and.length ? { AND: and } : {};
}

export function usersOrder(input: ListUsersInput, viewerIsAdmin: boolean): Prisma.UserOrderByWithRelationInput[] {
  const dir = viewerIsAdmin ? input.sort : 'desc';
  const field = viewerIsAdmin ? input.order_by : 'id';
  const key = ({ id: 'id', name: 'name', username: 'username', created_at: 'createdAt', updated_at: 'updatedAt' } as const)[field as 'id'];
  // The id tie-breaker keeps pages stable when names or dates repeat.
  return key === 'id' ? [{ id: dir }] : [{ [key]: dir }, { id: dir }];
}

/** One page of users (index-backed by the primary key or the unique username) plus the total. */
export function usersPageSource(where: Prisma.UserWhereInput, orderBy: Prisma.UserOrderByWithRelationInput[]) {
  return {
    fetch: (offset: number, limit: number) => db().user.findMany({ where, orderBy, skip: offset, take: limit }),
    count: () => db().user.count({ where }),
  };
}

/** Personal namespace ids, creators and sign-in locks for a page of users: three queries whatever the page size. */
export async function adminExtrasFor(users: User[]): Promise<Map<number, AdminExtras>> {
  const ids = users.map((u) => u.id);
  const creatorIds = [...new Set(users.map((u) => u.createdById).filter((x): x is number => x !== null))];
  const [namespaces, creators, locks] = await Promise.all([
    db().namespace.findMany({ where: { ownerId: { in: ids }, kind: 'user' }, select: { id: true, ownerId: true } }),
    creatorIds.length ? db().user.findMany({ where: { id: { in: creatorIds } } }) : Promise.resolve([] as User[]),
    signInLocksUntil(users),
  ]);
  const nsByOwner = new Map(namespaces.map((n) => [n.ownerId!, n.id]));
  const creatorById = new Map(creators.map((c) => [c.id, c]));
  return new Map(
    users.map((u) => [
      u.id,
      {
        namespaceId: nsByOwner.get(u.id) ?? null,
        createdBy: u.createdById ? (creatorById.get(u.createdById) ?? null) : null,
        locked: locks.has(u.id),
        lockedUntil: locks.get(u.id) ?? null,
      },
    ]),
  );
}

/** A user's direct memberships (group memberships are "Namespace"), oldest first, one page per query. */
export function membershipsPageSource(userId: number, type: 'Project' | 'Namespace' | undefined) {
  const parts: Prisma.Sql[] = [];
  if (type !== 'Project') {
    parts.push(sql`SELECT gm.id, gm.created_at, ns.id AS source_id, ns.name AS source_name, 'Namespace' AS source_type, gm.access_level
                     FROM group_members gm JOIN namespaces ns ON ns.id = gm.group_id WHERE gm.user_id = ${userId}`);
  }
  if (type !== 'Namespace') {
    parts.push(sql`SELECT pm.id, pm.created_at, p.id AS source_id, p.name AS source_name, 'Project' AS source_type, pm.access_level
                     FROM project_members pm JOIN projects p ON p.id = pm.project_id WHERE pm.user_id = ${userId}`);
  }
  const all = join(parts, ' UNION ALL ');
  type Row = { source_id: number; source_name: string; source_type: 'Project' | 'Namespace'; access_level: number };
  return {
    fetch: async (offset: number, limit: number): Promise<MembershipRow[]> => {
      const rows = await db().$queryRaw<Row[]>`
        SELECT m.source_id, m.source_name, m.source_type, m.access_level FROM (${all}) m
         ORDER BY m.created_at, m.source_type DESC, m.id OFFSET ${offset} LIMIT ${limit}`;
      return rows.map((r) => ({ sourceId: r.source_id, sourceName: r.source_name, sourceType: r.source_type, accessLevel: r.access_level }));
    },
    count: async () => (await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM (${all}) m`)[0]?.n ?? 0,
  };
}

/** GitLab's find_user: digits are an id, anything else a username. */
export async function findUserByIdOrUsername(idOrUsername: string): Promise<User | null> {
  if (/^\d+$/.test(idOrUsername)) return findUserById(Number(idOrUsername));
  return findUserByLogin('username', idOrUsername);
}

export async function personalNamespaceId(userId: number): Promise<number | null> {
  const ns = await db().namespace.findUnique({ where: { ownerId: userId }, select: { id: true } });
  return ns?.id ?? null;
}
