// Reads on dashboard sessions. The active-session lookup runs on every dashboard API call: one statement
// on the primary key, joined to the user, as token authentication does.
import { db } from '../db/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';

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

const activeWhere = (userId: number) => ({ userId, revokedAt: null, expiresAt: { gt: new Date() } });

/** A user's active sessions, most recently seen first (index user_id, last_seen_at). */
export function listActiveSessions(userId: number) {
  const where = activeWhere(userId);
  return {
    fetch: (offset: number, limit: number) =>
      db().userSession.findMany({ where, orderBy: [{ lastSeenAt: 'desc' }, { idDigest: 'asc' }], skip: offset, take: limit }),
    count: () => db().userSession.count({ where }),
  };
}
