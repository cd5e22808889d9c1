// Instance settings are global: every change here is undone in `finally` and made while holding the
// instance-settings lock, which the other runner test files' registration helpers wait on.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { createGroup, createProject } from '../support/namespaces';
import { register, registered, resetProjectToken, withInstanceSettingsLock } from './runners-registration-support';

/** POST /runners without waiting for the lock (these calls run while this file holds it). */
const registerNow = (token: string) => api('POST', '/runners', { json: { token } });

let user: TestUser;
let project: any;

beforeAll(async () => {
  user = await createUser();
  const group = await createGroup(user.token);
  project = await createProject(user.token, { namespaceId: group.id });
});

const put = (json: Record<string, unknown>, token = rootToken()) => api('PUT', '/application/settings', { token, json });

describe('[SETTINGS] GET/PUT /application/settings', () => {
  it('shows the runner and outbound-request settings to admins, in order', async () => {
    const res = await api('GET', '/application/settings', { token: rootToken() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(res.body)).toEqual([
      'id',
      'allow_local_requests_from_web_hooks_and_services',
      'allow_runner_registration_token',
      'valid_runner_registrars',
      'runner_token_expiration_interval',
      'group_runner_token_expiration_interval',
      'project_runner_token_expiration_interval',
      'stale_runner_cleanup_enabled',
      'stale_runner_cleanup_days',
      'stale_runner_cleanup_runner_type',
      'stale_runner_cleanup_owner_group_id',
      'stale_runner_cleanup_owner_project_id',
      'update_runner_versions_enabled',
      'public_runner_releases_url',
      'updated_at',
    ]);
    expect(res.body).toMatchObject({ id: 1, allow_runner_registration_token: true });
    expect([...res.body.valid_runner_registrars].sort()).toEqual(['group', 'project']);
  });

  it('refuses non-admins (403) and anonymous callers (401)', async () => {
    for (const method of ['GET', 'PUT']) {
      const json = method === 'PUT' ? { json: { allow_runner_registration_token: true } } : {};
      const res = await api(method, '/application/settings', { token: user.token, ...json });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      expect((await api(method, '/application/settings', json)).status).toBe(401);
    }
  });

  it('validates parameters with Grape messages', async () => {
    const none = await put({});
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    expect((await put({ valid_runner_registrars: ['project', 'bogus'] })).body).toEqual({ error: 'valid_runner_registrars does not have a valid value' });
    expect((await put({ runner_token_expiration_interval: 'soon' })).body).toEqual({ error: 'runner_token_expiration_interval is invalid' });
    const negative = await put({ runner_token_expiration_interval: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body).toEqual({ message: { runner_token_expiration_interval: ['must be greater than or equal to 0'] } });
  });

  it('instance interval gives instance runners an expiry; null means none', async () => {
    const created = await withInstanceSettingsLock(async () => {
      try {
        const set = await put({ runner_token_expiration_interval: 7200 });
        expect(set.status).toBe(200);
        expect(set.body.runner_token_expiration_interval).toBe(7200);
        return await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'instance_type' } });
      } finally {
        await put({ runner_token_expiration_interval: null });
      }
    });
    expect(created.status).toBe(201);
    expect(Math.abs(new Date(created.body.token_expires_at).getTime() - (Date.now() + 7200_000))).toBeLessThan(60_000);
    const after = await api('GET', '/application/settings', { token: rootToken() });
    expect(after.body.runner_token_expiration_interval).toBeNull();
  });

  it('allow_runner_registration_token=false: 410 on registration (even unknown tokens), 403 on token resets', async () => {
    const regToken = await resetProjectToken(user.token, project.id);
    const results = await withInstanceSettingsLock(async () => {
      try {
        const off = await put({ allow_runner_registration_token: false });
        expect(off.body.allow_runner_registration_token).toBe(false);
        return await Promise.all([
          registerNow(regToken),
          registerNow('GR1348941unknownunknownunknown'),
          registerNow(''),
          api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: user.token }),
          api('POST', '/runners/reset_registration_token', { token: rootToken() }),
        ]);
      } finally {
        await put({ allow_runner_registration_token: true });
      }
    });
    expect(results[0]).toMatchObject({ status: 410, body: { message: '410 Gone - runner registration disallowed' } });
    expect(results[1]).toMatchObject({ status: 410, body: { message: '410 Gone - runner registration disallowed' } });
    expect(results[2]).toMatchObject({ status: 403, body: { message: '403 Forbidden - invalid token supplied' } });
    expect(results[3]).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(results[4]).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await register(regToken)).status).toBe(201);
  });

  it('valid_runner_registrars without "project" makes project tokens unknown (403)', async () => {
    const regToken = await resetProjectToken(user.token, project.id);
    const res = await withInstanceSettingsLock(async () => {
      try {
        const set = await put({ valid_runner_registrars: ['group'] });
        expect(set.body.valid_runner_registrars).toEqual(['group']);
        return await registerNow(regToken);
      } finally {
        await put({ valid_runner_registrars: ['project', 'group'] });
      }
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - invalid token supplied' });
    expect((await registered(regToken)).id).toBeGreaterThan(0);
  });
});
