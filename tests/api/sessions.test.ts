// [SESSIONS] Dashboard sessions are rows in user_sessions: listed and revoked through
// GET/DELETE /user/sessions (a Runway extension), ended by sign-out, a password change and a block.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { api } from '../support/api';
import { inspect } from '../support/inspect';
import { ROOT } from '../support/server';
import { blockUser, createUser, signIn, signOut, TEST_PASSWORD, type TestSession } from '../support/users';

const asSession = (s: TestSession, csrf = true) => ({ headers: { Cookie: s.cookie, ...(csrf ? { 'X-CSRF-Token': s.csrf } : {}) } });
const me = (s: TestSession) => api('GET', '/user', asSession(s, false));

describe('[SESSIONS] GET /user/sessions', () => {
  it("lists the caller's active sessions, the current one marked, with address, browser and times", async () => {
    const user = await createUser();
    const first = await signIn(user.username, TEST_PASSWORD);
    const second = await signIn(user.username, TEST_PASSWORD);
    const res = await api('GET', '/user/sessions', asSession(second, false));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('2');
    expect(res.body).toHaveLength(2);
    const current = res.body.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    expect(Object.keys(current[0])).toEqual(['id', 'ip_address', 'user_agent', 'created_at', 'last_activity_at', 'expires_at', 'current']);
    expect(current[0].ip_address).toBe(second.ip);
    expect(current[0].user_agent).toBeTruthy();
    // One week, as GitLab's default session expiry.
    const lifetime = Date.parse(current[0].expires_at) - Date.parse(current[0].created_at);
    expect(Math.abs(lifetime - 7 * 86_400_000)).toBeLessThan(60_000);
    // Seen from the first session, the other one is current.
    const fromFirst = await api('GET', '/user/sessions', asSession(first, false));
    expect(fromFirst.body.find((s: { current: boolean }) => s.current).id).not.toBe(current[0].id);
  });

  it("answers a token caller with the same sessions, none current, and another user's list stays apart", async () => {
    const user = await createUser();
    const other = await createUser();
    await signIn(user.username, TEST_PASSWORD);
    await signIn(other.username, TEST_PASSWORD);
    const res = await api('GET', '/user/sessions', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].current).toBe(false);
    expect((await api('GET', '/user/sessions')).status).toBe(401);
  });

  it('moves last_activity_at when the session is used after a minute', async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    await inspect("UPDATE user_sessions SET last_seen_at = now() - interval '5 minutes' WHERE user_id = $1", [user.id]);
    const [before] = await inspect<{ last_seen_at: Date }>('SELECT last_seen_at FROM user_sessions WHERE user_id = $1', [user.id]);
    expect((await me(session)).status).toBe(200);
    const [after] = await inspect<{ last_seen_at: Date }>('SELECT last_seen_at FROM user_sessions WHERE user_id = $1', [user.id]);
    expect(after.last_seen_at.getTime()).toBeGreaterThan(before.last_seen_at.getTime() + 4 * 60_000);
  });

  it('keeps at most 100 active sessions per user, revoking the least recently used', async () => {
    const user = await createUser();
    await inspect(
      `INSERT INTO user_sessions (id_digest, user_id, last_seen_at, expires_at)
       SELECT encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), $1, now() - make_interval(mins => n), now() + interval '1 day' FROM generate_series(1, 100) n`,
      [user.id],
    );
    const session = await signIn(user.username, TEST_PASSWORD);
    expect((await me(session)).status).toBe(200);
    const rows = await inspect<{ active: number; oldest_revoked: boolean }>(
      `SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS active,
              bool_or(revoked_at IS NOT NULL AND last_seen_at < now() - interval '99 minutes') AS oldest_revoked
         FROM user_sessions WHERE user_id = $1`,
      [user.id],
    );
    expect(rows[0]).toEqual({ active: 100, oldest_revoked: true });
  });
});

describe('[SESSIONS] DELETE /user/sessions/:id', () => {
  it("revokes another session: its cookie is signed out at once, the caller's is not", async () => {
    const user = await createUser();
    const victim = await signIn(user.username, TEST_PASSWORD);
    const keeper = await signIn(user.username, TEST_PASSWORD);
    const list = await api('GET', '/user/sessions', asSession(keeper, false));
    const target = list.body.find((s: { current: boolean }) => !s.current);
    const res = await api('DELETE', `/user/sessions/${target.id}`, asSession(keeper));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await me(victim)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await me(keeper)).status).toBe(200);
    const after = await api('GET', '/user/sessions', asSession(keeper, false));
    expect(after.body.map((s: { id: string }) => s.id)).not.toContain(target.id);
    // Gone is gone: a second revoke finds nothing.
    expect((await api('DELETE', `/user/sessions/${target.id}`, asSession(keeper))).body).toEqual({ message: '404 Session Not Found' });
  });

  it("needs the session's CSRF token with a cookie, and works with an api token", async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    const [{ id }] = (await api('GET', '/user/sessions', { token: user.token })).body;
    const noCsrf = await api('DELETE', `/user/sessions/${id}`, asSession(session, false));
    expect(noCsrf).toMatchObject({ status: 403, body: { message: '403 Forbidden - Invalid CSRF token' } });
    expect((await api('DELETE', `/user/sessions/${id}`, { token: user.token })).status).toBe(204);
    expect((await me(session)).status).toBe(401);
  });

  it("answers 404 for another user's session and for an id that is no session, leaving the session alone", async () => {
    const user = await createUser();
    const other = await createUser();
    const otherSession = await signIn(other.username, TEST_PASSWORD);
    const [{ id }] = (await api('GET', '/user/sessions', { token: other.token })).body;
    for (const target of [id, 'not-a-session', '00000000-0000-0000-0000-000000000000']) {
      const res = await api('DELETE', `/user/sessions/${target}`, { token: user.token });
      expect(res, target).toMatchObject({ status: 404, body: { message: '404 Session Not Found' } });
    }
    expect((await me(otherSession)).status).toBe(200);
  });
});

describe('[SESSIONS] sessions that end', () => {
  it('sign-out makes the old cookie useless', async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    expect((await me(session)).status).toBe(200);
    await signOut(session);
    expect((await me(session)).status).toBe(401);
    expect((await api('GET', '/user/sessions', { token: user.token })).body).toEqual([]);
  });

  it('blocking a user ends their sessions for good: unblocking does not revive them', async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    await blockUser(user.id);
    expect((await me(session)).status).toBe(401);
    expect((await api('POST', `/users/${user.id}/unblock`, { token: inject('rootToken') })).status).toBe(201);
    expect((await me(session)).status).toBe(401);
    expect((await me(await signIn(user.username, TEST_PASSWORD))).status).toBe(200);
  });

  it('`runway reset-password` ends every session of the user', { timeout: 120_000 }, async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    const other = await createUser();
    const bystander = await signIn(other.username, TEST_PASSWORD);
    // Asynchronously, so this process keeps serving its sockets while the CLI runs for seconds.
    await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'bin', 'runway.mjs'), 'reset-password', '--username', user.username, '--password', 'a-new-password-1'],
      {
        cwd: ROOT,
        env: { ...process.env, ...inject('runwayEnv') },
      },
    );
    expect((await me(session)).status).toBe(401);
    expect((await me(bystander)).status).toBe(200);
    expect((await me(await signIn(user.username, 'a-new-password-1'))).status).toBe(200);
  });
});
