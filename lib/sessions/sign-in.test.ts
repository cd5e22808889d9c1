// The password check behind the sign-in form, on a real (in-memory) PostgreSQL: an unknown login costs the
// same Argon2 work as a known one and is locked the same way, and locks of real users are audited. No
// timing is asserted here (bench/sign-in-timing.ts measures it).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../db/client';
import { useInMemoryDatabase } from '../db/test-database';
import * as password from '../auth/password';
import { authorizeCredentials } from './sign-in';

vi.mock('../auth/password', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../auth/password')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

const PASSWORD = 'sign-in-test-password-1';
let seq = 0;

async function newUser(state: 'active' | 'blocked' = 'active') {
  const name = `signin_${++seq}_${Date.now().toString(36)}`;
  const passwordDigest = await password.hashPassword(PASSWORD);
  return db().user.create({ data: { username: name, name, email: `${name}@example.com`, passwordDigest, state } });
}

/** The outcome as the form sees it: the user's name, null for a wrong login, or the error code thrown. */
async function attempt(login: string, pw: string, ip: string): Promise<string | null> {
  try {
    return (await authorizeCredentials(login, pw, ip))?.username ?? null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** An Argon2 digest's algorithm, version and cost parameters: `$argon2id$v=19$m=...,t=...,p=...`. */
const parameters = (digest: string) => digest.split('$').slice(1, 4).join('$');

describe('[AUTH] sign-in: unknown logins look like known ones', () => {
  useInMemoryDatabase({ migrate: true });
  beforeEach(() => vi.mocked(password.verifyPassword).mockClear());

  it('checks the password of an unknown login against a digest with the same Argon2 parameters', async () => {
    const user = await newUser();
    expect(await attempt(`nobody_${seq}`, 'some-password', '198.51.100.1')).toBeNull();
    const verify = vi.mocked(password.verifyPassword);
    expect(verify).toHaveBeenCalledTimes(1);
    const [dummy] = verify.mock.calls[0];
    expect(dummy).toMatch(/^\$argon2id\$/);
    expect(parameters(dummy)).toBe(parameters(user.passwordDigest));
    expect(dummy).not.toBe(user.passwordDigest);

    // A known login with a wrong password does the same work once, against the user's digest.
    expect(await attempt(user.username, 'wrong-password', '198.51.100.1')).toBeNull();
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[1][0]).toBe(user.passwordDigest);
  }, 60_000);

  it('answers an unknown login exactly as a known one through ten failures from one address and after', async () => {
    const user = await newUser();
    const unknown = `nobody_${seq}_x`;
    const known: Array<string | null> = [];
    const none: Array<string | null> = [];
    for (let i = 0; i < 11; i++) {
      known.push(await attempt(user.username, `wrong-${i}`, '198.51.100.2'));
      none.push(await attempt(unknown, `wrong-${i}`, '198.51.100.2'));
    }
    expect(known).toEqual([...Array(9).fill(null), 'locked', 'locked']);
    expect(none).toEqual(known);
    // From another address both are simply wrong; the owner's right password works there.
    expect(await attempt(unknown, 'wrong', '203.0.113.3')).toBeNull();
    expect(await attempt(user.username, 'wrong', '203.0.113.3')).toBeNull();
    expect(await attempt(user.username, PASSWORD, '203.0.113.3')).toBe(user.username);
    // The locked-out address gets "locked" even with the right password.
    expect(await attempt(user.username, PASSWORD, '198.51.100.2')).toBe('locked');
    expect(vi.mocked(password.verifyPassword)).toHaveBeenCalledTimes(26);
  }, 60_000);

  it("audits a real user's lock (user_access_locked), never an unknown login's", async () => {
    const user = await newUser();
    const before = await db().auditEvent.count();
    for (let i = 0; i < 10; i++) await attempt(`nobody_${seq}_y`, 'wrong', '198.51.100.4');
    expect(await db().auditEvent.count()).toBe(before);
    for (let i = 0; i < 10; i++) await attempt(user.email, 'wrong', '198.51.100.4');
    const events = await db().auditEvent.findMany({ where: { eventName: 'user_access_locked', entityId: user.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entityType: 'User', entityPath: user.username, targetType: 'User', targetId: user.id, ipAddress: '198.51.100.4' });
    expect(events[0].details).toMatchObject({
      custom_message: 'User access locked - excessive failed login attempts from one address',
      lock_scope: 'address',
      target_details: user.username,
    });
  }, 60_000);

  it('tells a blocked user so only after the right password, and a lock first', async () => {
    const user = await newUser('blocked');
    expect(await attempt(user.username, 'wrong', '198.51.100.5')).toBeNull();
    expect(await attempt(user.username, PASSWORD, '198.51.100.5')).toBe('blocked');
    for (let i = 0; i < 9; i++) await attempt(user.username, 'wrong', '198.51.100.5');
    expect(await attempt(user.username, PASSWORD, '198.51.100.5')).toBe('locked');
  }, 60_000);

  it('refuses what is not a login and password without counting or checking', async () => {
    for (const [login, pw] of [
      ['', 'x'],
      ['   ', 'x'],
      ['root', ''],
      [42, 'x'],
      ['root', { toString: () => 'x' }],
    ] as Array<[unknown, unknown]>) {
      expect(await authorizeCredentials(login, pw, '198.51.100.6')).toBeNull();
    }
    expect(vi.mocked(password.verifyPassword)).not.toHaveBeenCalled();
  });
});
