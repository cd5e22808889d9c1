import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { createToken, createUser, TEST_PASSWORD } from '../support/users';
import { attemptSignIn, nextWindow } from '../support/sign-in';
import { freshLoopbackAddress } from '../support/loopback-fetch';

const USER_BASIC_KEYS = ['id', 'username', 'public_email', 'name', 'state', 'locked', 'avatar_url', 'web_url'];
const USER_PUBLIC_KEYS = [
  ...USER_BASIC_KEYS,
  'created_at',
  'bio',
  'location',
  'skype',
  'linkedin',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
  'pronouns',
  'bot',
  'work_information',
  'followers',
  'following',
  'is_followed',
  'local_time',
  'last_sign_in_at',
  'confirmed_at',
  'last_activity_on',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
  'private_profile',
  'commit_email',
];
// GitLab's UserWithAdmin, then `locked_until` (a Runway extension: when the sign-in lock ends) after its fields.
const USER_WITH_ADMIN_KEYS = [...USER_PUBLIC_KEYS, 'is_admin', 'note', 'namespace_id', 'created_by', 'email_reset_offered_at', 'locked_until'];

const newUserBody = (over: Record<string, unknown> = {}) => {
  const username = uniq('u');
  return { username, email: `${username}@example.com`, name: `Name ${username}`, password: TEST_PASSWORD, ...over };
};

describe('[USERS] POST /users', () => {
  it("creates a user for an admin and answers 201 with UserWithAdmin in GitLab's key order", async () => {
    const body = newUserBody({ admin: 'false', skip_confirmation: true, bio: 'hello', organization: 'Acme', projects_limit: '7' });
    const res = await api('POST', '/users', { token: rootToken(), json: body });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(USER_WITH_ADMIN_KEYS);
    expect(res.body).toMatchObject({
      username: body.username,
      name: body.name,
      email: body.email,
      state: 'active',
      locked: false,
      is_admin: false,
      bio: 'hello',
      organization: 'Acme',
      projects_limit: 7,
      web_url: `${baseUrl()}/${body.username}`,
      created_by: { username: 'root' },
    });
    expect(typeof res.body.namespace_id).toBe('number');
    expect(res.text).not.toContain(TEST_PASSWORD);
  });

  it('creates admins when admin=true', async () => {
    const res = await api('POST', '/users', { token: rootToken(), json: newUserBody({ admin: true }) });
    expect(res.status).toBe(201);
    expect(res.body.is_admin).toBe(true);
  });

  it('answers 409 for a taken email (any case), then for a taken username (any case)', async () => {
    const first = newUserBody();
    expect((await api('POST', '/users', { token: rootToken(), json: first })).status).toBe(201);
    const sameEmail = await api('POST', '/users', { token: rootToken(), json: newUserBody({ email: first.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ message: 'Email has already been taken' });
    const sameName = await api('POST', '/users', { token: rootToken(), json: newUserBody({ username: first.username.toUpperCase() }) });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ message: 'Username has already been taken' });
    // Both taken: the email wins, as in GitLab.
    const both = await api('POST', '/users', { token: rootToken(), json: { ...first } });
    expect(both.body).toEqual({ message: 'Email has already been taken' });
  });

  it('answers model validation errors as {"message": {attr: [msgs]}}', async () => {
    const res = await api('POST', '/users', { token: rootToken(), json: newUserBody({ password: 'short', email: 'not-an-email' }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } });
    const badName = await api('POST', '/users', { token: rootToken(), json: newUserBody({ username: '-bad.' }) });
    expect(badName.status).toBe(400);
    expect(badName.body.message.username[0]).toMatch(/^can contain only letters, digits/);
  });

  it('answers Grape parameter errors in declaration order', async () => {
    const res = await api('POST', '/users', { token: rootToken(), json: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error:
        'email is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided, name is missing, username is missing',
    });
    const badType = await api('POST', '/users', { token: rootToken(), json: newUserBody({ admin: 'maybe', projects_limit: 'x' }) });
    expect(badType.body).toEqual({ error: 'projects_limit is invalid, admin is invalid' });
  });

  it('accepts force_random_password instead of a password', async () => {
    const { password: _omit, ...body } = newUserBody();
    const res = await api('POST', '/users', { token: rootToken(), json: { ...body, force_random_password: true } });
    expect(res.status).toBe(201);
  });

  it('answers 401 to anonymous callers and 403 to non-admins (after parameter validation, as GitLab)', async () => {
    const anon = await api('POST', '/users', { json: newUserBody() });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: '401 Unauthorized' });
    const user = await createUser();
    const denied = await api('POST', '/users', { token: user.token, json: newUserBody() });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden' });
    const invalid = await api('POST', '/users', { token: user.token, json: {} });
    expect(invalid.status).toBe(400);
  });
});

describe('[USERS] GET /user and /users/:id', () => {
  it('shows a non-admin UserPublic and an admin UserWithAdmin', async () => {
    const user = await createUser();
    const me = await api('GET', '/user', { token: user.token });
    expect(me.status).toBe(200);
    expect(Object.keys(me.body)).toEqual(USER_PUBLIC_KEYS);
    expect(me.body).toMatchObject({ id: user.id, username: user.username, email: `${user.username.toLowerCase()}@example.com` });
    const root = await api('GET', '/user', { token: rootToken() });
    expect(Object.keys(root.body)).toEqual(USER_WITH_ADMIN_KEYS);
    expect(root.body).toMatchObject({ username: 'root', is_admin: true });
  });

  it('accepts read_user tokens on GET /user', async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['read_user']);
    const me = await api('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });

  it('shows one user: Entities::User to users, details with admin fields to admins', async () => {
    const user = await createUser();
    const other = await createUser();
    const asUser = await api('GET', `/users/${other.id}`, { token: user.token });
    expect(asUser.status).toBe(200);
    expect(asUser.body).toMatchObject({ id: other.id, username: other.username });
    expect(asUser.body).not.toHaveProperty('email');
    expect(asUser.body).not.toHaveProperty('is_admin');
    const asAdmin = await api('GET', `/users/${other.id}`, { token: rootToken() });
    expect(asAdmin.body).toMatchObject({ id: other.id, is_admin: false, email: expect.any(String) });
    expect(Object.keys(asAdmin.body).slice(-5)).toEqual(['highest_role', 'current_sign_in_ip', 'last_sign_in_ip', 'sign_in_count', 'locked_until']);
  });

  it('answers 404 User Not Found for unknown ids and the route 404 for non-numeric ids', async () => {
    const missing = await api('GET', '/users/999999999', { token: rootToken() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
    const word = await api('GET', '/users/abc', { token: rootToken() });
    expect(word.status).toBe(404);
    expect(word.body).toEqual({ error: '404 Not Found' });
  });
});

describe('[USERS] GET /users', () => {
  it('lists users to any signed-in user: UserBasic for users, UserWithAdmin for admins', async () => {
    const user = await createUser();
    const asUser = await api('GET', '/users', { token: user.token, query: { username: user.username } });
    expect(asUser.status).toBe(200);
    expect(asUser.body).toHaveLength(1);
    expect(Object.keys(asUser.body[0])).toEqual(USER_BASIC_KEYS);
    const asAdmin = await api('GET', '/users', { token: rootToken(), query: { username: user.username.toUpperCase() } });
    expect(asAdmin.body).toHaveLength(1);
    expect(Object.keys(asAdmin.body[0])).toEqual(USER_WITH_ADMIN_KEYS);
    expect(asAdmin.body[0].id).toBe(user.id);
  });

  it('filters by search, active and blocked, newest first', async () => {
    const tag = uniq('srch').replace(/-/g, '');
    const a = await createUser({ username: `${tag}_a` });
    const b = await createUser({ username: `${tag}_b` });
    const found = await api('GET', '/users', { token: a.token, query: { search: tag } });
    expect(found.body.map((u: { id: number }) => u.id)).toEqual([b.id, a.id]);
    expect((await api('POST', `/users/${b.id}/block`, { token: rootToken() })).status).toBe(201);
    const blocked = await api('GET', '/users', { token: rootToken(), query: { search: tag, blocked: true } });
    expect(blocked.body.map((u: { id: number }) => u.id)).toEqual([b.id]);
    const active = await api('GET', '/users', { token: rootToken(), query: { search: tag, active: 'true' } });
    expect(active.body.map((u: { id: number }) => u.id)).toEqual([a.id]);
    const byEmail = await api('GET', '/users', { token: rootToken(), query: { search: `${tag}_a@example.com` } });
    expect(byEmail.body.map((u: { id: number }) => u.id)).toEqual([a.id]);
  });

  it("lets anonymous callers look up one username only (GitLab's authenticate_non_get!)", async () => {
    const user = await createUser();
    const anon = await api('GET', '/users');
    expect(anon.status).toBe(403);
    expect(anon.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
    const one = await api('GET', '/users', { query: { username: user.username } });
    expect(one.status).toBe(200);
    expect(one.body.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(Object.keys(one.body[0])).toEqual(USER_BASIC_KEYS);
    const single = await api('GET', `/users/${user.id}`);
    expect(single.status).toBe(403);
    expect(single.body).toEqual({ message: '403 Forbidden - Not authorized!' });
  });
});

describe('[USERS] block and unblock', () => {
  it("blocks (201 true, then null), denies the blocked user's tokens, and unblocks", async () => {
    const user = await createUser();
    const first = await api('POST', `/users/${user.id}/block`, { token: rootToken() });
    expect(first.status).toBe(201);
    expect(first.text).toBe('true');
    const again = await api('POST', `/users/${user.id}/block`, { token: rootToken() });
    expect(again.status).toBe(201);
    expect(again.text).toBe('null');
    const denied = await api('GET', '/user', { token: user.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    const shown = await api('GET', `/users/${user.id}`, { token: rootToken() });
    expect(shown.body.state).toBe('blocked');
    const unblocked = await api('POST', `/users/${user.id}/unblock`, { token: rootToken() });
    expect(unblocked.status).toBe(201);
    expect(unblocked.text).toBe('true');
    const notBlocked = await api('POST', `/users/${user.id}/unblock`, { token: rootToken() });
    expect(notBlocked.status).toBe(201);
    expect(notBlocked.text).toBe('false');
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);
  });

  it('refuses non-admins, unknown users and blocking oneself', async () => {
    const user = await createUser();
    const other = await createUser();
    const denied = await api('POST', `/users/${other.id}/block`, { token: user.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden' });
    const missing = await api('POST', '/users/999999999/block', { token: rootToken() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
    const admin = await createUser({ admin: true });
    const self = await api('POST', `/users/${admin.id}/block`, { token: admin.token });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ message: '403 Forbidden - The API initiating user cannot be blocked by the API' });
  });
});

describe('[USERS] POST /users/:id/unlock (Runway extension)', () => {
  it("lifts a user's sign-in locks for admins (201 true, then false) and records user_access_unlocked", async () => {
    const user = await createUser();
    // One client (a loopback address of its own) locks the account with 10 failures; the sign-in throttle
    // lets one address send 10 a minute (its default), so the next attempts wait for the next minute.
    const from = freshLoopbackAddress();
    for (let i = 1; i <= 10; i++) await attemptSignIn(baseUrl(), user.username, `wrong-${i}`, { from });
    await nextWindow(60);
    expect((await attemptSignIn(baseUrl(), user.username, TEST_PASSWORD, { from })).error).toBe('locked');
    // The lock of one address refuses the user ("Your account is locked."): admins see `locked: true`, as
    // GitLab shows its lock, in the user's entity and in the list.
    const shown = await api('GET', `/users/${user.id}`, { token: rootToken() });
    expect(shown.body.locked).toBe(true);
    const listed = await api('GET', '/users', { token: rootToken(), query: { username: user.username } });
    expect(listed.body.map((u: { locked: boolean }) => u.locked)).toEqual([true]);

    const unlocked = await api('POST', `/users/${user.id}/unlock`, { token: rootToken() });
    expect(unlocked.status).toBe(201);
    expect(unlocked.text).toBe('true');
    expect((await api('GET', `/users/${user.id}`, { token: rootToken() })).body.locked).toBe(false);
    expect((await attemptSignIn(baseUrl(), user.username, TEST_PASSWORD, { from })).cookie).not.toBeNull();
    const again = await api('POST', `/users/${user.id}/unlock`, { token: rootToken() });
    expect(again.status).toBe(201);
    expect(again.text).toBe('false');

    const events = await api('GET', '/audit_events', { token: rootToken(), query: { entity_type: 'User', entity_id: user.id } });
    const names = events.body.map((e: { event_name: string }) => e.event_name);
    expect(names).toEqual(['user_access_unlocked', 'user_access_locked']);
    expect(events.body[0]).toMatchObject({ author_id: 1, entity_id: user.id, entity_type: 'User' });
    expect(events.body[0].details).toMatchObject({ custom_message: 'User access unlocked', target_type: 'User', target_details: user.username });
  }, 120_000);

  it('refuses anonymous callers, non-admins, read-only tokens and unknown users, as block does', async () => {
    const user = await createUser();
    const other = await createUser();
    expect((await api('POST', `/users/${other.id}/unlock`)).status).toBe(401);
    const denied = await api('POST', `/users/${other.id}/unlock`, { token: user.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden' });
    const readOnly = await api('POST', `/users/${other.id}/unlock`, { token: await createToken(1, ['read_user']) });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe('insufficient_scope');
    const missing = await api('POST', '/users/999999999/unlock', { token: rootToken() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
    expect((await api('POST', '/users/abc/unlock', { token: rootToken() })).status).toBe(404);
    expect((await api('GET', `/users/${other.id}/unlock`, { token: rootToken() })).status).toBe(404);
  });
});
