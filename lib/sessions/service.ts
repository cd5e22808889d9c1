// Writes on dashboard sessions: started at sign-in, revoked at sign-out, by the user from the Active
// sessions page, and all at once when the password changes or the user is blocked.
import { randomUUID } from 'node:crypto';
import { sessionDigest } from '../auth/lookups';
import { db, type Prisma } from '../db/client';

// GitLab keeps at most 100 active sessions per user and drops the oldest beyond that.
export const MAX_ACTIVE_SESSIONS = 100;
// Long enough for a user agent worth reading; GitLab truncates at 1024 too.
const USER_AGENT_MAX = 1024;

// How a session is named and kept fresh is authentication's (lib/auth sits below the domains).
export { LAST_SEEN_INTERVAL_MS, sessionDigest, touchSession } from '../auth/lookups';

export interface SessionClient {
  ip: string | null;
  userAgent: string | null;
}

/** Records a new session and returns its id (the JWT's `sid`; the row keeps only its digest). */
export async function startSession(userId: number, maxAgeSeconds: number, client: SessionClient): Promise<string> {
  const id = randomUUID();
  await db().$transaction(async (tx) => {
    // The user's expired rows are of no further use: clear them while the user's rows are at hand.
    await tx.userSession.deleteMany({ where: { userId, expiresAt: { lte: new Date() } } });
    await tx.userSession.create({
      data: {
        idDigest: sessionDigest(id),
        userId,
        expiresAt: new Date(Date.now() + maxAgeSeconds * 1000),
        ip: client.ip?.slice(0, 255) ?? null,
        userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      },
    });
    await tx.$executeRaw`
      UPDATE user_sessions SET revoked_at = now()
       WHERE id_digest IN (SELECT id_digest FROM user_sessions
                     WHERE user_id = ${userId} AND revoked_at IS NULL
                     ORDER BY last_seen_at DESC, created_at DESC OFFSET ${MAX_ACTIVE_SESSIONS})`;
  });
  return id;
}

/** Revokes one of the user's sessions, named by its digest; false when there is no such active session. */
export async function revokeSession(userId: number, idDigest: string): Promise<boolean> {
  const { count } = await db().userSession.updateMany({
    where: { idDigest, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/** Ends every session of the user (password changed, user blocked). */
export async function revokeAllSessions(userId: number, tx: Prisma.TransactionClient = db()): Promise<void> {
  await tx.userSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}
