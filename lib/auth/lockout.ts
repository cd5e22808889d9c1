// Devise lockable, as GitLab configures it: every failed sign-in of an existing user counts; reaching
// max_login_attempts (10) locks the account for failed_login_attempts_unlock_period_in_minutes (10), during
// which even the right password is refused (and counted); a successful sign-in clears the count. Each
// change is one UPDATE judged by the database's clock, so parallel attempts on any instance add up.
import { currentEnv } from '../config/env';
import { db } from '../db/client';
import { sql } from '../db/sql';
import type { User } from '../db/generated/client';

export const ACCOUNT_LOCKED = 'locked';

function lockPolicy() {
  const env = currentEnv();
  return { maxAttempts: env.RUNWAY_MAX_LOGIN_ATTEMPTS, lockMinutes: env.RUNWAY_LOGIN_LOCK_MINUTES };
}

/** Devise's access_locked?: locked less than the unlock period ago. */
export function accessLocked(user: Pick<User, 'lockedAt'>, now = new Date()): boolean {
  return !!user.lockedAt && now.getTime() - user.lockedAt.getTime() < lockPolicy().lockMinutes * 60_000;
}

/**
 * Counts a failed (or refused) attempt. An expired lock is lifted first and the count starts again, as
 * Devise's unlock_access! on lock_expired?. Returns whether the account is locked now.
 */
export async function recordFailedSignIn(userId: number): Promise<boolean> {
  const { maxAttempts, lockMinutes } = lockPolicy();
  const rows = await db().$queryRaw<Array<{ locked: boolean }>>(sql`
    WITH u AS (
      SELECT id, locked_at IS NOT NULL AND locked_at > now() - make_interval(mins => ${lockMinutes}::int) AS still_locked,
             CASE WHEN locked_at IS NOT NULL AND locked_at <= now() - make_interval(mins => ${lockMinutes}::int)
                  THEN 1 ELSE failed_attempts + 1 END AS attempts
        FROM users WHERE id = ${userId} FOR UPDATE)
    UPDATE users SET
      failed_attempts = u.attempts,
      locked_at = CASE WHEN u.still_locked THEN users.locked_at
                       WHEN u.attempts >= ${maxAttempts}::int THEN now() END
      FROM u WHERE users.id = u.id
    RETURNING users.locked_at IS NOT NULL AS locked`);
  return rows[0]?.locked ?? false;
}

/**
 * A right password: clears the count and stamps the sign-in, unless the account is locked (then null and
 * nothing changes; the caller counts the attempt as Devise does).
 */
export async function recordSuccessfulSignIn(userId: number): Promise<User | null> {
  const { lockMinutes } = lockPolicy();
  const done = await db().$executeRaw`
    UPDATE users SET failed_attempts = 0, locked_at = NULL,
           last_sign_in_at = COALESCE(current_sign_in_at, now()), current_sign_in_at = now()
     WHERE id = ${userId}
       AND (locked_at IS NULL OR locked_at <= now() - make_interval(mins => ${lockMinutes}::int))`;
  return done ? db().user.findUnique({ where: { id: userId } }) : null;
}
