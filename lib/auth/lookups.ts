// The reads authentication runs on every request: a user by login (Sudo, sign-in) and the user of an active
// dashboard session. They sit here, below the domains, so that lib/api's authentication imports nothing
// above the HTTP kernel; lib/users and lib/sessions re-export them for their own callers.
import { db, type Prisma } from '../db/client';
import { queryRows } from '../db/query';
import { raw, sql } from '../db/sql';
import type { User } from '../db/generated/client';
import { digest } from './secrets';

type Client = Pick<Prisma.TransactionClient, '$queryRaw'>;
const LOGIN_COLUMNS = { username: raw('username'), email: raw('email') };

/**
 * The user whose username (or email) is `value`, case-insensitively and exactly as GitLab matches it:
 * lower(col) = lower($1) on the lower() index, never LIKE (whose `_` and `%` are wildcards).
 */
export async function userIdByLogin(field: keyof typeof LOGIN_COLUMNS, value: string, client: Client = db()): Promise<number | null> {
  const col = LOGIN_COLUMNS[field];
  const rows = await client.$queryRaw<{ id: number }[]>`
    SELECT id FROM users WHERE lower(${col}) = lower(${value}) ORDER BY ${col} = ${value} DESC, id LIMIT 1`;
  return rows[0]?.id ?? null;
}

export async function findUserByLogin(field: keyof typeof LOGIN_COLUMNS, value: string): Promise<User | null> {
  const id = await userIdByLogin(field, value);
  return id === null ? null : db().user.findUnique({ where: { id } });
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The user columns of a credential row (token or session columns carry `prefix`), under the Prisma model's
 * field names (columns are their snake_case).
 */
export function userFromRow(row: Record<string, unknown>, prefix: string): User {
  const user: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!k.startsWith(prefix)) user[camel(k)] = v;
  return user as unknown as User;
}

/** The columns of one session row, prefixed so they never clash with the user's columns they travel with. */
export interface SessionColumns {
  session_last_seen_at: Date;
  [userColumn: string]: unknown;
}

/** The user of an active (not revoked, not expired) session, named by its digest, or undefined. */
export async function findActiveSessionUser(idDigest: string, userId: number): Promise<SessionColumns | undefined> {
  const rows = await queryRows<SessionColumns>(sql`
    SELECT s.last_seen_at AS session_last_seen_at, u.*, u.state::text AS state
      FROM user_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id_digest = ${idDigest} AND s.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > now()`);
  return rows[0];
}

// Written at most once a minute, so the per-request lookup stays a read.
export const LAST_SEEN_INTERVAL_MS = 60 * 1000;

/**
 * How the database and the API name a session: the SHA-256 of its id. The id itself is only in the signed
 * cookie, so neither a copy of the table nor the Active sessions list can be made into a cookie.
 */
export const sessionDigest = (sid: string) => digest(sid);

/** Moves last_seen_at forward when it is older than the interval (the caller read it moments ago). */
export async function touchSession(idDigest: string, lastSeenAt: Date): Promise<void> {
  if (Date.now() - lastSeenAt.getTime() < LAST_SEEN_INTERVAL_MS) return;
  await db().$executeRaw`
    UPDATE user_sessions SET last_seen_at = now()
     WHERE id_digest = ${idDigest} AND last_seen_at < now() - interval '1 minute'`;
}

/** The `sid` a session cookie carries is a UUID; anything else names no session. */
export const isSessionId = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
