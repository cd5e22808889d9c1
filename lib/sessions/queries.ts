// Reads on dashboard sessions. The active-session lookup runs on every dashboard API call: one statement
// on the primary key, joined to the user, as token authentication does.
import { db } from '../db/client';

// The active-session lookup is authentication's (lib/auth sits below the domains).
export { findActiveSessionUser, type SessionColumns } from '../auth/lookups';

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
