import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { createToken, createUser, signIn, TEST_PASSWORD } from '../support/users';

const TOKEN_KEYS = ['id', 'name', 'active', 'revoked', 'expired', 'granular', 'created_at', 'description', 'scopes', 'user_id', 'last_used_at', 'expires_at'];
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('[TOKENS] POST /users/:user_id/personal_access_tokens', () => {
  it("creates a token for an admin: 201 PersonalAccessTokenWithToken in GitLab's key order", async () => {
    const user = await createUser();
    const res = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      token: rootToken(),
      json: { name: 'ci', scopes: ['read_api', 'read_user'], expires_at: isoDay(30), description: 'for CI' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...TOKEN_KEYS, 'token']);
    expect(res.body).toMatchObject({
      name: 'ci',
      active: true,
      revoked: false,
      expired: false,
      granular: false,
      description: 'for CI',
      scopes: ['read_api', 'read_user'],
      user_id: user.id,
      last_used_at: null,
      expires_at: isoDay(30),
    });
    expect(res.body.token).toMatch(/^glpat-[A-Za-z0-9_-]{20}$/);
    const me = await api('GET', '/user', { token: res.body.token });
    expect(me.body.id).toBe(user.id);
  });

  it("gives a token without expires_at GitLab's maximum lifetime and refuses a later date", async () => {
    const user = await createUser();
    const res = await api('POST', `/users/${user.id}/personal_access_tokens`, { token: rootToken(), json: { name: 'x', scopes: 'api' } });
    expect(res.status).toBe(201);
    expect(res.body.expires_at).toBe(isoDay(365));
    const late = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      token: rootToken(),
      json: { name: 'x', scopes: 'api', expires_at: isoDay(400) },
    });
    expect(late.status).toBe(422);
    expect(late.body).toEqual({ message: `Expires at must be before ${isoDay(365)}` });
  });

  it("refuses an expiry today or in the past (422, GitLab's message) and creates nothing", async () => {
    const user = await createUser();
    for (const expires_at of [isoDay(-1), isoDay(0), '2001-02-03']) {
      const res = await api('POST', `/users/${user.id}/personal_access_tokens`, { token: rootToken(), json: { name: 'old', scopes: 'api', expires_at } });
      expect(res.status, expires_at).toBe(422);
      expect(res.body).toEqual({ message: 'Expires at cannot be a date in the past' });
    }
    // Joined with the other validation messages as GitLab's to_sentence does.
    const both = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      token: rootToken(),
      json: { name: ' ', scopes: 'api', expires_at: isoDay(-3) },
    });
    expect(both.status).toBe(422);
    expect(both.body).toEqual({ message: "Name can't be blank and Expires at cannot be a date in the past" });
    const list = await api('GET', '/personal_access_tokens', { token: rootToken(), query: { user_id: user.id } });
    expect(list.body.map((t: { name: string }) => t.name)).not.toContain('old');
    const tomorrow = await api('POST', `/users/${user.id}/personal_access_tokens`, {
      token: rootToken(),
      json: { name: 'new', scopes: 'api', expires_at: isoDay(1) },
    });
    expect(tomorrow.status).toBe(201);
    expect(tomorrow.body).toMatchObject({ expires_at: isoDay(1), active: true, expired: false });
  });

  it("validates scopes and parameters with Grape's messages", async () => {
    const user = await createUser();
    const bad = await api('POST', `/users/${user.id}/personal_access_tokens`, { token: rootToken(), json: { name: 'x', scopes: ['api', 'everything'] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'scopes does not have a valid value' });
    const missing = await api('POST', `/users/${user.id}/personal_access_tokens`, { token: rootToken(), json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing, scopes is missing, scopes does not have a valid value' });
    const date = await api('POST', `/users/${user.id}/personal_access_tokens`, { token: rootToken(), json: { name: 'x', scopes: 'api', expires_at: 'soon' } });
    expect(date.body).toEqual({ error: 'expires_at is invalid' });
  });

  it("refuses sudo on a non-admin's token (422) and allows it on an admin's", async () => {
    const user = await createUser();
    const res = await api('POST', `/users/${user.id}/personal_access_tokens`, { token: rootToken(), json: { name: 'x', scopes: ['api', 'sudo'] } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Sudo can only be enabled for administrators' });
    const admin = await createUser({ admin: true });
    const ok = await api('POST', `/users/${admin.id}/personal_access_tokens`, { token: rootToken(), json: { name: 'x', scopes: ['api', 'sudo'] } });
    expect(ok.status).toBe(201);
  });

  it('checks 401 and 403 before parameters and the user lookup; 404 User Not Found for admins', async () => {
    const anon = await api('POST', '/users/999999999/personal_access_tokens', { json: {} });
    expect(anon.status).toBe(401);
    const user = await createUser();
    for (const body of [{}, { name: 'x', scopes: ['api'] }]) {
      const denied = await api('POST', '/users/999999999/personal_access_tokens', { token: user.token, json: body });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ message: '403 Forbidden' });
    }
    const missing = await api('POST', '/users/999999999/personal_access_tokens', { token: rootToken(), json: { name: 'x', scopes: ['api'] } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
    const word = await api('POST', '/users/abc/personal_access_tokens', { token: rootToken(), json: { name: 'x', scopes: ['api'] } });
    expect(word.status).toBe(400);
    expect(word.body).toEqual({ error: 'user_id is invalid' });
  });
});

describe('[TOKENS] POST /user/personal_access_tokens', () => {
  it('lets a token caller create only k8s_proxy tokens for itself, as GitLab', async () => {
    const user = await createUser();
    const ok = await api('POST', '/user/personal_access_tokens', { token: user.token, json: { name: 'agent', scopes: ['k8s_proxy'], description: 'd' } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ user_id: user.id, scopes: ['k8s_proxy'], description: 'd' });
    expect(ok.body.token).toMatch(/^glpat-/);
    const denied = await api('POST', '/user/personal_access_tokens', { token: user.token, json: { name: 'x', scopes: ['api'] } });
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual({ error: 'scopes does not have a valid value' });
    expect((await api('POST', '/user/personal_access_tokens', { json: { name: 'x', scopes: ['k8s_proxy'] } })).status).toBe(401);
  });
});

describe('[TOKENS] POST /user/personal_access_tokens from the dashboard session', () => {
  it("lets a signed-in user create any scope it may hold, with the session's CSRF token", async () => {
    const user = await createUser();
    const session = await signIn(user.username, TEST_PASSWORD);
    const headers = { Cookie: session.cookie, 'X-CSRF-Token': session.csrf };
    const ok = await api('POST', '/user/personal_access_tokens', { headers, json: { name: 'dash', scopes: ['api', 'read_user'], expires_at: isoDay(10) } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ user_id: user.id, scopes: ['api', 'read_user'], expires_at: isoDay(10) });
    expect((await api('GET', '/user', { token: ok.body.token })).body.id).toBe(user.id);
    const past = await api('POST', '/user/personal_access_tokens', { headers, json: { name: 'x', scopes: ['api'], expires_at: isoDay(-1) } });
    expect(past.status).toBe(422);
    expect(past.body).toEqual({ message: 'Expires at cannot be a date in the past' });
    const pastWithToken = await api('POST', '/user/personal_access_tokens', {
      token: user.token,
      json: { name: 'x', scopes: ['k8s_proxy'], expires_at: isoDay(0) },
    });
    expect(pastWithToken.status).toBe(422);
    expect(pastWithToken.body).toEqual({ message: 'Expires at cannot be a date in the past' });
    const sudo = await api('POST', '/user/personal_access_tokens', { headers, json: { name: 'x', scopes: ['sudo'] } });
    expect(sudo.status).toBe(400);
    expect(sudo.body).toEqual({ error: 'scopes does not have a valid value' });
    const noCsrf = await api('POST', '/user/personal_access_tokens', { headers: { Cookie: session.cookie }, json: { name: 'x', scopes: ['api'] } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ message: '403 Forbidden - Invalid CSRF token' });
    // Reads with the session need no CSRF token; /personal_access_tokens/self needs a token, not a session.
    expect((await api('GET', '/user', { headers: { Cookie: session.cookie } })).body.id).toBe(user.id);
    const self = await api('GET', '/personal_access_tokens/self', { headers: { Cookie: session.cookie } });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: '400 Bad request - This endpoint requires token type to be a personal access token' });
  });
});

describe('[TOKENS] listing, showing and revoking', () => {
  it("lists a user's own tokens only, paginated, with filters", async () => {
    const user = await createUser();
    const other = await createUser();
    const extra = await createToken(user.id, ['read_api'], { name: 'second' });
    const list = await api('GET', '/personal_access_tokens', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.map((t: { user_id: number }) => t.user_id)).toEqual([user.id, user.id]);
    expect(Object.keys(list.body[0])).toEqual([...TOKEN_KEYS, 'last_used_ips']);
    expect(list.headers.get('x-total')).toBe('2');
    const denied = await api('GET', '/personal_access_tokens', { token: user.token, query: { user_id: other.id } });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ message: '401 Unauthorized' });
    const own = await api('GET', '/personal_access_tokens', { token: user.token, query: { user_id: user.id } });
    expect(own.body).toHaveLength(2);
    // Revoke the second token, then filter.
    const second = list.body.find((t: { name: string }) => t.name === 'second');
    expect((await api('DELETE', `/personal_access_tokens/${second.id}`, { token: user.token })).status).toBe(204);
    const revoked = await api('GET', '/personal_access_tokens', { token: user.token, query: { revoked: true } });
    expect(revoked.body.map((t: { id: number }) => t.id)).toEqual([second.id]);
    const active = await api('GET', '/personal_access_tokens', { token: user.token, query: { state: 'active' } });
    expect(active.body.map((t: { name: string }) => t.name)).not.toContain('second');
    const inactive = await api('GET', '/personal_access_tokens', { token: user.token, query: { state: 'inactive' } });
    expect(inactive.body.map((t: { id: number }) => t.id)).toEqual([second.id]);
    expect(inactive.body[0]).toMatchObject({ active: false, revoked: true });
    const badState = await api('GET', '/personal_access_tokens', { token: user.token, query: { state: 'gone' } });
    expect(badState.body).toEqual({ error: 'state does not have a valid value' });
    expect((await api('GET', '/user', { token: extra })).status).toBe(401);
  });

  it("lets admins list everyone's tokens and filter by user_id", async () => {
    const user = await createUser();
    const res = await api('GET', '/personal_access_tokens', { token: rootToken(), query: { user_id: user.id } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].user_id).toBe(user.id);
    const all = await api('GET', '/personal_access_tokens', { token: rootToken(), query: { per_page: 100 } });
    expect(new Set(all.body.map((t: { user_id: number }) => t.user_id)).size).toBeGreaterThan(1);
  });

  it('shows a token to its owner and admins; others get 401, admins 404 for unknown ids', async () => {
    const user = await createUser();
    const other = await createUser();
    const [mine] = (await api('GET', '/personal_access_tokens', { token: user.token })).body;
    const shown = await api('GET', `/personal_access_tokens/${mine.id}`, { token: user.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: mine.id, user_id: user.id, last_used_ips: [] });
    expect((await api('GET', `/personal_access_tokens/${mine.id}`, { token: rootToken() })).status).toBe(200);
    const foreign = await api('GET', `/personal_access_tokens/${mine.id}`, { token: other.token });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toEqual({ message: '401 Unauthorized' });
    expect((await api('GET', '/personal_access_tokens/999999999', { token: other.token })).status).toBe(401);
    const missing = await api('GET', '/personal_access_tokens/999999999', { token: rootToken() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not Found' });
  });

  it('revokes: own 204, someone else\'s 400 "400 Bad request", unknown 404, admin any', async () => {
    const user = await createUser();
    const other = await createUser();
    const spare = await createToken(other.id, ['api'], { name: 'spare' });
    const [otherToken] = (await api('GET', '/personal_access_tokens', { token: other.token, query: { search: 'spare' } })).body;
    const foreign = await api('DELETE', `/personal_access_tokens/${otherToken.id}`, { token: user.token });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ message: '400 Bad request' });
    const missing = await api('DELETE', '/personal_access_tokens/999999999', { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not Found' });
    const byAdmin = await api('DELETE', `/personal_access_tokens/${otherToken.id}`, { token: rootToken() });
    expect(byAdmin.status).toBe(204);
    expect(byAdmin.text).toBe('');
    expect((await api('GET', '/user', { token: spare })).status).toBe(401);
  });

  it('GET and DELETE /personal_access_tokens/self accept any scope and answer for the token used', async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['read_repository'], { name: 'selfie' });
    const self = await api('GET', '/personal_access_tokens/self', { token });
    expect(self.status).toBe(200);
    expect(Object.keys(self.body)).toEqual(TOKEN_KEYS);
    expect(self.body).toMatchObject({ name: 'selfie', scopes: ['read_repository'], user_id: user.id });
    expect(self.body.last_used_at).not.toBeNull();
    expect((await api('GET', '/personal_access_tokens/self')).status).toBe(401);
    const del = await api('DELETE', '/personal_access_tokens/self', { token });
    expect(del.status).toBe(204);
    expect((await api('GET', '/personal_access_tokens/self', { token })).status).toBe(401);
  });
});

describe('[TOKENS] secrets at rest', () => {
  it('never stores a token or a password in clear', async () => {
    const password = `clear-${uniq('pw')}`;
    const username = uniq('secret');
    const made = await api('POST', '/users', {
      token: rootToken(),
      json: { username, email: `${username}@example.com`, name: username, password },
    });
    expect(made.status).toBe(201);
    const token = await createToken(made.body.id, ['api']);
    const client = new pg.Client({ connectionString: inject('inspectUrl') });
    await client.connect();
    try {
      for (const table of ['users', 'personal_access_tokens']) {
        const cols = await client.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
           AND data_type IN ('text', 'character varying', 'ARRAY', 'USER-DEFINED')`,
          [table],
        );
        expect(cols.rows.length).toBeGreaterThan(0);
        for (const { column_name } of cols.rows) {
          for (const secret of [token, password, token.slice(6), TEST_PASSWORD]) {
            const hit = await client.query(`SELECT count(*)::int AS n FROM "${table}" WHERE "${column_name}"::text LIKE '%' || $1 || '%'`, [secret]);
            expect(hit.rows[0].n, `${table}.${column_name}`).toBe(0);
          }
        }
      }
      // The digests are there instead.
      const digests = await client.query('SELECT count(*)::int AS n FROM personal_access_tokens WHERE length(token_digest) = 64');
      expect(digests.rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});
