// GitLab's lock (Devise lockable: max_login_attempts 10, failed_login_attempts_unlock_period_in_minutes 10),
// counted so that one address cannot hold an account locked. Failures are counted twice, in
// sign_in_failures, each count in a window of the lock period that opens at its first failure:
//   - per login and client address: RUNWAY_MAX_LOGIN_ATTEMPTS failures lock that login for that address
//     (even the right password is refused from there) for the period; other addresses are not affected;
//   - per account: RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT failures from all addresses lock the account for
//     everyone (users.locked_at, GitLab's `locked`), against guessing spread over many addresses.
// An attempt refused by a lock is not counted, so one address adds at most the per-address limit to the
// account's count in a period. A login that names no user is counted and locked in exactly the same way,
// so a lock says nothing about which accounts exist. Each attempt is one statement on the database's
// clock: parallel attempts on any number of instances add up exactly.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { currentEnv } from '../config/env';
import { db, type Prisma } from '../db/client';
import { join, sql, type Sql } from '../db/sql';
import type { User } from '../db/generated/client';

export const ACCOUNT_LOCKED = 'locked';

type Client = Pick<Prisma.TransactionClient, '$queryRaw' | '$executeRaw'>;

function lockPolicy() {
  const env = currentEnv();
  return {
    perClient: env.RUNWAY_MAX_LOGIN_ATTEMPTS,
    perAccount: env.RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT,
    lockMinutes: env.RUNWAY_LOGIN_LOCK_MINUTES,
  };
}

/** The start of the current period: a window or lock that began at or before it has ended. */
const periodStart = (minutes: number): Sql => sql`(now() - make_interval(mins => ${minutes}::int))`;

/** Devise's access_locked?: locked less than the unlock period ago. */
export function accessLocked(user: Pick<User, 'lockedAt'>, now = new Date()): boolean {
  return !!user.lockedAt && now.getTime() - user.lockedAt.getTime() < lockPolicy().lockMinutes * 60_000;
}

/** A login as counted: a digest of its lower-cased text (what was typed may be a mistyped password). */
export function loginKey(login: string): string {
  return createHash('sha256').update(`login:${login.trim().toLowerCase()}`).digest('hex');
}

/** The account's own row: the user, or for a login that names no user, that login. */
const accountKey = (login: string, userId: number | null) => (userId === null ? loginKey(login) : `user:${userId}`);

/** The first four groups of an IPv6 address, expanded. */
function ipv6Network64(address: string): string {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, null];
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === null ? h : [...h, ...Array<string>(Math.max(0, 8 - width(h) - width(t))).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Who counts as one client: the address, an IPv6 address by its /64 network (what one subscriber or host
 * is given, so rotating through it buys nothing).
 */
export function clientKey(ip: string | null): string {
  const address = (ip ?? '').replace(/%.*$/, '');
  if (isIP(address) === 6) return ipv6Network64(address);
  return (ip || 'unknown').slice(0, 64);
}

/** One sign-in attempt's counters: the login as typed, the client, and the account it names (if any). */
export interface SignInSubject {
  login: string;
  client: string;
  userId: number | null;
}

export function signInSubject(login: string, ip: string | null, userId: number | null): SignInSubject {
  return { login, client: clientKey(ip), userId };
}

export interface FailedSignIn {
  /** The attempt ends as "locked": it was refused by a lock, or this failure reached one. */
  locked: boolean;
  /** This failure locked the login for its client address. */
  clientLockedNow: boolean;
  /** This failure locked the account for everyone. */
  accountLockedNow: boolean;
}

/**
 * One failure's counting (the upsert of a window: a running window adds one, an ended one starts again at
 * one, reaching `limit` locks). `WHERE` skips a row locked now, so RETURNING has a row only when counted.
 */
function countFailure(key: string, client: Sql, from: Sql, limit: number, since: Sql): Sql {
  const running = sql`f.started_at > ${since}`;
  const next = sql`CASE WHEN ${running} THEN f.failures + 1 ELSE 1 END`;
  return sql`
    INSERT INTO sign_in_failures AS f (key, client, failures, started_at, locked_at)
    SELECT ${key}, ${client}, 1, now(), CASE WHEN ${limit}::int <= 1 THEN now() END ${from}
    ON CONFLICT (key, client) DO UPDATE SET
      failures = ${next},
      started_at = CASE WHEN ${running} THEN f.started_at ELSE now() END,
      locked_at = CASE WHEN ${next} >= ${limit}::int THEN now() END
    WHERE f.locked_at IS NULL OR f.locked_at <= ${since}
    RETURNING f.locked_at IS NOT NULL AS locked`;
}

/** Counts a failed attempt (unless a lock refused it) in one statement; says whether it ends as "locked". */
export async function recordFailedSignIn(subject: SignInSubject, client: Client = db()): Promise<FailedSignIn> {
  const { perClient, perAccount, lockMinutes } = lockPolicy();
  const since = periodStart(lockMinutes);
  const uid = subject.userId;
  const rows = await client.$queryRaw<Array<{ account_was_locked: boolean; client_row: boolean | null; account_row: boolean | null }>>(sql`
    WITH account_lock AS (
      -- The account's lock before this attempt: the user's (GitLab's locked_at), or an unknown login's row.
      SELECT COALESCE(
        (SELECT locked_at FROM users WHERE id = ${uid}::int),
        (SELECT locked_at FROM sign_in_failures WHERE ${uid}::int IS NULL AND key = ${accountKey(subject.login, uid)} AND client = '')
      ) > ${since} AS locked
    ),
    by_client AS (${countFailure(loginKey(subject.login), sql`${subject.client}`, sql`FROM account_lock WHERE locked IS NOT TRUE`, perClient, since)}),
    by_account AS (${countFailure(accountKey(subject.login, uid), sql`''`, sql`FROM by_client`, perAccount, since)}),
    user_lock AS (
      UPDATE users SET locked_at = now() WHERE id = ${uid}::int AND (SELECT locked FROM by_account) RETURNING id
    )
    SELECT (SELECT locked FROM account_lock) IS TRUE AS account_was_locked,
           (SELECT locked FROM by_client) AS client_row,
           (SELECT locked FROM by_account) AS account_row`);
  const { account_was_locked, client_row, account_row } = rows[0];
  return {
    // No client row back: that address was locked out of this login already (or the account was).
    locked: account_was_locked || client_row !== false || account_row === true,
    clientLockedNow: client_row === true,
    accountLockedNow: account_row === true,
  };
}

/** Whether a lock refuses this attempt now (for this client, or for the whole account). */
function lockedNow(subject: SignInSubject, since: Sql): Sql {
  return sql`(
    EXISTS (SELECT 1 FROM sign_in_failures WHERE key = ${loginKey(subject.login)} AND client = ${subject.client} AND locked_at > ${since})
    OR EXISTS (SELECT 1 FROM users WHERE id = ${subject.userId}::int AND locked_at > ${since}))`;
}

/** Whether a lock refuses this attempt now, without counting it (a blocked user's right password). */
export async function signInLocked(subject: SignInSubject): Promise<boolean> {
  const rows = await db().$queryRaw<Array<{ locked: boolean }>>(sql`SELECT ${lockedNow(subject, periodStart(lockPolicy().lockMinutes))} AS locked`);
  return rows[0].locked;
}

/**
 * A right password: unless a lock refuses it (then null and nothing changes), clears this client's counts
 * for the user's logins and the account's count, and stamps the sign-in, as Devise does on success.
 */
export async function recordSuccessfulSignIn(subject: SignInSubject, user: Pick<User, 'id' | 'username' | 'email'>): Promise<User | null> {
  const since = periodStart(lockPolicy().lockMinutes);
  const logins = [...new Set([subject.login, user.username, user.email].map(loginKey))];
  const done = await db().$executeRaw(sql`
    WITH refused AS (SELECT ${lockedNow(subject, since)} AS locked),
    cleared AS (
      DELETE FROM sign_in_failures
       WHERE ((key IN (${join(logins)}) AND client = ${subject.client}) OR (key = ${accountKey(subject.login, user.id)} AND client = ''))
         AND NOT (SELECT locked FROM refused)
    )
    UPDATE users SET failed_attempts = 0, locked_at = NULL,
           last_sign_in_at = COALESCE(current_sign_in_at, now()), current_sign_in_at = now()
     WHERE id = ${user.id} AND NOT (SELECT locked FROM refused)
       AND (locked_at IS NULL OR locked_at <= ${since})`);
  return done ? db().user.findUnique({ where: { id: user.id } }) : null;
}

/**
 * Lifts every sign-in lock of the user (the account's and those of single addresses, by username and by
 * email) and forgets the counts; call inside the transaction of the change. Returns whether any lock was on.
 */
export async function liftSignInLocks(tx: Client, user: Pick<User, 'id' | 'username' | 'email'>): Promise<boolean> {
  const since = periodStart(lockPolicy().lockMinutes);
  const keys = [`user:${user.id}`, loginKey(user.username), loginKey(user.email)];
  const rows = await tx.$queryRaw<Array<{ was_locked: boolean }>>(sql`
    WITH before AS (SELECT locked_at FROM users WHERE id = ${user.id}),
    cleared AS (DELETE FROM sign_in_failures WHERE key IN (${join(keys)}) RETURNING locked_at),
    unlocked AS (UPDATE users SET failed_attempts = 0, locked_at = NULL WHERE id = ${user.id})
    SELECT EXISTS (SELECT 1 FROM before WHERE locked_at > ${since})
        OR EXISTS (SELECT 1 FROM cleared WHERE locked_at > ${since}) AS was_locked`);
  return rows[0]?.was_locked ?? false;
}

/** Deletes the counts whose window and lock have both ended (they would start again anyway); returns how many. */
export async function deleteExpiredSignInFailures(): Promise<number> {
  const since = periodStart(lockPolicy().lockMinutes);
  return db().$executeRaw(sql`DELETE FROM sign_in_failures WHERE started_at <= ${since} AND (locked_at IS NULL OR locked_at <= ${since})`);
}

/**
 * When the sign-in locks now refusing each user end: the account's lock and the locks of single addresses
 * (by username or email), the latest end of those on. A user with no lock on is absent from the map.
 */
export async function signInLocksUntil(users: ReadonlyArray<Pick<User, 'id' | 'username' | 'email' | 'lockedAt'>>): Promise<Map<number, Date>> {
  const lockMs = lockPolicy().lockMinutes * 60_000;
  const until = new Map<number, Date>();
  const later = (id: number, end: Date) => {
    const current = until.get(id);
    if (!current || current < end) until.set(id, end);
  };
  for (const u of users) if (accessLocked(u)) later(u.id, new Date(u.lockedAt!.getTime() + lockMs));
  const byKey = new Map<string, number[]>();
  for (const u of users) for (const key of new Set([loginKey(u.username), loginKey(u.email)])) byKey.set(key, [...(byKey.get(key) ?? []), u.id]);
  if (!byKey.size) return until;
  const rows = await db().$queryRaw<Array<{ key: string; ends_at: Date }>>(sql`
    SELECT key, max(locked_at) + make_interval(mins => ${lockPolicy().lockMinutes}::int) AS ends_at
      FROM sign_in_failures
     WHERE key IN (${join([...byKey.keys()])}) AND client <> '' AND locked_at > ${periodStart(lockPolicy().lockMinutes)}
     GROUP BY key`);
  for (const row of rows) for (const id of byKey.get(row.key) ?? []) later(id, row.ends_at);
  return until;
}
