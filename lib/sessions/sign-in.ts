// The dashboard's password check (next-auth's authorize): the login (username or email) and password,
// the sign-in lock (lib/auth/lockout.ts) and its audit events. Whether or not the login names a user, the
// answer takes the same Argon2 work and the same statements, and a lock is counted and shown the same
// way, so neither the time taken nor the answer tells which accounts exist.
import { randomBytes } from 'node:crypto';
import { db, type Prisma } from '../db/client';
import type { User } from '../db/generated/client';
import {
  ACCOUNT_LOCKED,
  recordFailedSignIn,
  recordSuccessfulSignIn,
  signInLocked,
  signInSubject,
  type FailedSignIn,
  type SignInSubject,
} from '../auth/lockout';
import { hashPassword, verifyPassword } from '../auth/password';
import { recordUserAccessAudit } from '../audit/service';
import { findUserByLogin } from '../auth/lookups';

// A digest no password matches (its password is random and forgotten), made with the parameters every
// user's digest has, so checking a password against it costs what checking a real one does.
const UNKNOWN_USER_DIGEST = hashPassword(randomBytes(32).toString('base64url'));

function auditLock(tx: Prisma.TransactionClient, user: User, ip: string | null, scope: 'address' | 'account', reason: string) {
  const actor = { kind: 'system', name: 'Sign-in lock' } as const;
  return recordUserAccessAudit(tx, { actor, ip, user, event: 'user_access_locked', reason, details: { lock_scope: scope } });
}

/** Counts a failure; a lock it causes on an existing user is audited in the same transaction. */
function countFailure(subject: SignInSubject, user: User | null, ip: string | null): Promise<FailedSignIn> {
  return db().$transaction(async (tx) => {
    const failed = await recordFailedSignIn(subject, tx);
    if (user && failed.clientLockedNow) await auditLock(tx, user, ip, 'address', 'excessive failed login attempts from one address');
    if (user && failed.accountLockedNow) await auditLock(tx, user, ip, 'account', 'excessive failed login attempts');
    return failed;
  });
}

/**
 * Checks a login and password from the client at `ip`; null when either is wrong. Throws `blocked` for a
 * blocked user (only once the password matched) and `locked` while a lock refuses the attempt.
 */
export async function authorizeCredentials(login: unknown, password: unknown, ip: string | null): Promise<User | null> {
  if (typeof login !== 'string' || typeof password !== 'string' || !login.trim() || !password) return null;
  const typed = login.trim();
  const user = await findUserByLogin(typed.includes('@') ? 'email' : 'username', typed);
  const subject = signInSubject(typed, ip, user?.id ?? null);
  const matched = await verifyPassword(user?.passwordDigest ?? (await UNKNOWN_USER_DIGEST), password);
  if (!user || !matched) {
    if ((await countFailure(subject, user, ip)).locked) throw new Error(ACCOUNT_LOCKED);
    return null;
  }
  // Only after the password matched, so the message reveals nothing to a guesser; a lock still comes first.
  if (user.state !== 'active') throw new Error((await signInLocked(subject)) ? ACCOUNT_LOCKED : 'blocked');
  const signedIn = await recordSuccessfulSignIn(subject, user);
  if (signedIn) return signedIn;
  throw new Error(ACCOUNT_LOCKED);
}
