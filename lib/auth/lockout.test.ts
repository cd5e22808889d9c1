// The sign-in lock's SQL on a real (in-memory) PostgreSQL, with the defaults: 10 failures from one address
// lock that address out of a login, 100 from all addresses lock the account, for 10 minutes.
import { describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { useInMemoryDatabase } from '../db/test-database';
import {
  clientKey,
  deleteExpiredSignInFailures,
  liftSignInLocks,
  loginKey,
  recordFailedSignIn,
  recordSuccessfulSignIn,
  signInLocked,
  signInSubject,
  type SignInSubject,
} from './lockout';

let seq = 0;
async function newUser() {
  const name = `lock_${++seq}_${Date.now().toString(36)}`;
  return db().user.create({ data: { username: name, name, email: `${name}@example.com`, passwordDigest: 'x' } });
}

async function fail(subject: SignInSubject, times: number) {
  const out = [];
  for (let i = 0; i < times; i++) out.push(await recordFailedSignIn(subject));
  return out;
}

const row = (key: string, client: string) => db().signInFailure.findUnique({ where: { key_client: { key, client } } });

describe('[AUTH] who counts as one client', () => {
  it('is the address, an IPv6 address by its /64 network', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff::9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientKey(null)).toBe('unknown');
  });

  it('keys a login by a digest of its lower-cased text, never the text', () => {
    expect(loginKey(' Alice ')).toBe(loginKey('alice'));
    expect(loginKey('alice')).not.toBe(loginKey('alice@example.com'));
    expect(loginKey('my-password-typed-as-login')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('[AUTH] sign-in lock', () => {
  useInMemoryDatabase({ migrate: true });

  it('locks a login for one address after 10 failures from it; other addresses go on', async () => {
    const user = await newUser();
    const attacker = signInSubject(user.username, '198.51.100.1', user.id);
    const attempts = await fail(attacker, 12);
    expect(attempts.slice(0, 9).every((a) => !a.locked)).toBe(true);
    expect(attempts[9]).toEqual({ locked: true, clientLockedNow: true, accountLockedNow: false });
    // Refused attempts are not counted: neither the address's count nor the account's grows.
    expect(attempts.slice(10)).toEqual([
      { locked: true, clientLockedNow: false, accountLockedNow: false },
      { locked: true, clientLockedNow: false, accountLockedNow: false },
    ]);
    expect((await row(loginKey(user.username), '198.51.100.1'))?.failures).toBe(10);
    expect((await row(`user:${user.id}`, ''))?.failures).toBe(10);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lockedAt).toBeNull();

    // The owner, elsewhere, is not locked and signs in; the attacker's address stays locked out.
    const owner = signInSubject(user.username, '203.0.113.5', user.id);
    expect(await signInLocked(owner)).toBe(false);
    expect(await recordSuccessfulSignIn(owner, user)).not.toBeNull();
    expect(await signInLocked(attacker)).toBe(true);
    expect(await recordSuccessfulSignIn(attacker, user)).toBeNull();
  }, 60_000);

  it('locks the account for everyone after 100 failures from all addresses, at most 10 from each', async () => {
    const user = await newUser();
    let lockedNow = 0;
    for (let c = 1; c <= 10; c++) {
      // 12 from each address: the 2 refused ones never reach the account's count.
      for (const a of await fail(signInSubject(user.username, `192.0.2.${c}`, user.id), 12)) lockedNow += a.accountLockedNow ? 1 : 0;
    }
    expect(lockedNow).toBe(1);
    expect((await row(`user:${user.id}`, ''))?.failures).toBe(100);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lockedAt).not.toBeNull();
    // A new address is refused, even with the right password, and its attempt is not counted.
    const fresh = signInSubject(user.username, '203.0.113.9', user.id);
    expect(await recordFailedSignIn(fresh)).toEqual({ locked: true, clientLockedNow: false, accountLockedNow: false });
    expect(await row(loginKey(user.username), '203.0.113.9')).toBeNull();
    expect(await recordSuccessfulSignIn(fresh, user)).toBeNull();
  }, 120_000);

  it('counts and locks a login that names no user in exactly the same way', async () => {
    const login = `nobody_${Date.now().toString(36)}`;
    const first = await fail(signInSubject(login, '198.51.100.2', null), 11);
    expect(first.map((a) => a.locked)).toEqual([...Array(9).fill(false), true, true]);
    expect(first[9].clientLockedNow).toBe(true);
    expect(await recordFailedSignIn(signInSubject(login, '198.51.100.3', null))).toEqual({ locked: false, clientLockedNow: false, accountLockedNow: false });
    for (let c = 10; c <= 18; c++) await fail(signInSubject(login, `192.0.2.${c}`, null), 10);
    // 10 + 1 + 9 x 10 = 101 failures: the 100th locked that login for every address, the last was refused.
    const account = await row(loginKey(login), '');
    expect(account?.failures).toBe(100);
    expect(account?.lockedAt).not.toBeNull();
    expect((await recordFailedSignIn(signInSubject(login, '203.0.113.10', null))).locked).toBe(true);
    expect(await row(loginKey(login), '203.0.113.10')).toBeNull();
  }, 120_000);

  it('counts the username and the email as two logins of one account', async () => {
    const user = await newUser();
    const ip = '198.51.100.4';
    await fail(signInSubject(user.username, ip, user.id), 5);
    const byEmail = await fail(signInSubject(user.email.toUpperCase(), ip, user.id), 5);
    expect(byEmail.some((a) => a.locked)).toBe(false);
    expect((await row(`user:${user.id}`, ''))?.failures).toBe(10);
    // A success by username clears this address's count for both, and the account's.
    expect(await recordSuccessfulSignIn(signInSubject(user.username, ip, user.id), user)).not.toBeNull();
    expect(await db().signInFailure.count({ where: { key: { in: [loginKey(user.username), loginKey(user.email), `user:${user.id}`] } } })).toBe(0);
  }, 60_000);

  it('starts a count again once its window or its lock has passed', async () => {
    const user = await newUser();
    const subject = signInSubject(user.username, '198.51.100.5', user.id);
    await fail(subject, 9);
    await db().$executeRaw`UPDATE sign_in_failures SET started_at = started_at - interval '10 minutes 1 second' WHERE key = ${loginKey(user.username)}`;
    expect((await recordFailedSignIn(subject)).locked).toBe(false);
    expect((await row(loginKey(user.username), '198.51.100.5'))?.failures).toBe(1);

    await fail(subject, 9);
    expect(await signInLocked(subject)).toBe(true);
    await db()
      .$executeRaw`UPDATE sign_in_failures SET started_at = started_at - interval '11 minutes', locked_at = locked_at - interval '10 minutes 1 second' WHERE key = ${loginKey(user.username)}`;
    expect(await signInLocked(subject)).toBe(false);
    expect((await recordFailedSignIn(subject)).locked).toBe(false);
    expect((await row(loginKey(user.username), '198.51.100.5'))?.failures).toBe(1);
  }, 60_000);

  it('lifts every lock of a user at once and says whether one was on', async () => {
    const user = await newUser();
    await fail(signInSubject(user.username, '198.51.100.6', user.id), 10);
    await fail(signInSubject(user.email, '198.51.100.7', user.id), 10);
    await db().user.update({ where: { id: user.id }, data: { lockedAt: new Date() } });
    expect(await liftSignInLocks(db(), user)).toBe(true);
    expect(await db().signInFailure.count({ where: { key: { in: [loginKey(user.username), loginKey(user.email), `user:${user.id}`] } } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lockedAt).toBeNull();
    expect(await signInLocked(signInSubject(user.username, '198.51.100.6', user.id))).toBe(false);
    expect(await liftSignInLocks(db(), user)).toBe(false);
  }, 60_000);

  it('deletes only the counts whose window and lock have ended', async () => {
    const user = await newUser();
    await fail(signInSubject(user.username, '198.51.100.8', user.id), 10);
    await fail(signInSubject(user.username, '198.51.100.9', user.id), 1);
    await db().$executeRaw`UPDATE sign_in_failures SET started_at = now() - interval '1 hour' WHERE key = ${loginKey(user.username)}`;
    // The locked address's row stays while its lock runs; the other one's window is over.
    expect(await deleteExpiredSignInFailures()).toBe(1);
    expect(await row(loginKey(user.username), '198.51.100.8')).not.toBeNull();
    expect(await row(loginKey(user.username), '198.51.100.9')).toBeNull();
  }, 60_000);
});
