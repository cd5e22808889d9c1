import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createToken, createUser, type TestUser } from '../support/users';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { dbQuery, register, registered, resetGroupToken, resetProjectToken, runnerRow, systemId } from './runners-registration-support';

const DEVELOPER = 30,
  MAINTAINER = 40;
const DAY = 24 * 3600;

let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let outsider: TestUser;
let group: any;
let project: any;
let projectRegToken: string;

beforeAll(async () => {
  // One at a time: a user's creation is not what these tests exercise.
  owner = await createUser();
  maintainer = await createUser();
  developer = await createUser();
  outsider = await createUser();
  group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
  await addGroupMember(owner.token, group.id, maintainer.id, MAINTAINER);
  await addProjectMember(owner.token, project.id, developer.id, DEVELOPER);
  projectRegToken = await resetProjectToken(owner.token, project.id);
});

const near = (iso: string | null, expectedMs: number) => {
  expect(iso).not.toBeNull();
  expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(Math.abs(new Date(iso as string).getTime() - expectedMs)).toBeLessThan(60_000);
};

describe('[RUNNERS] POST /runners/verify', () => {
  it('answers 200 {id, token, token_expires_at}, sets contacted_at, keeps creation_state, creates the manager', async () => {
    const r = await registered(projectRegToken);
    const sid = systemId();
    const res = await api('POST', '/runners/verify', { json: { token: r.token, system_id: sid } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: r.id, token: r.token, token_expires_at: null });
    expect(res.headers.get('content-type')).toBe('application/json');
    const row = await runnerRow(r.id);
    expect(row.contacted_at).not.toBeNull();
    expect(row.creation_state).toBe('started');
    const managers = await dbQuery('SELECT system_xid FROM ci_runner_machines WHERE runner_id = $1', [r.id]);
    expect(managers).toEqual([{ system_xid: sid }]);
  });

  it('uses the "<legacy>" manager without system_id and answers 403 for a bad token, 400 for none', async () => {
    const r = await registered(projectRegToken);
    expect((await api('POST', '/runners/verify', { json: { token: r.token } })).status).toBe(200);
    expect(await dbQuery('SELECT system_xid FROM ci_runner_machines WHERE runner_id = $1', [r.id])).toEqual([{ system_xid: '<legacy>' }]);
    const bad = await api('POST', '/runners/verify', { json: { token: 't3_notarealtokenatall00' } });
    expect(bad.status).toBe(403);
    expect(bad.body).toEqual({ message: '403 Forbidden' });
    const none = await api('POST', '/runners/verify', { json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'token is missing' });
  });

  it('refuses expired tokens with 403 on verify, reset and jobs/request', async () => {
    const r = await registered(projectRegToken);
    await dbQuery("UPDATE ci_runners SET token_expires_at = now() - interval '1 second' WHERE id = $1", [r.id]);
    for (const path of ['/runners/verify', '/runners/reset_authentication_token', '/jobs/request']) {
      const res = await api('POST', path, { json: { token: r.token } });
      expect(res.status, path).toBe(403);
    }
    expect((await api('DELETE', '/runners', { json: { token: r.token } })).status).toBe(403);
  });
});

describe('[RUNNERS] POST /runners/reset_authentication_token (by token)', () => {
  it('answers 201 {token, token_expires_at}; the old token then gets 403 and the new one works', async () => {
    const r = await registered(projectRegToken);
    const res = await api('POST', '/runners/reset_authentication_token', { json: { token: r.token } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^t3_[A-Za-z0-9_-]{20}$/);
    expect(res.body.token).not.toBe(r.token);
    expect((await api('POST', '/runners/verify', { json: { token: r.token } })).status).toBe(403);
    expect((await api('POST', '/runners/verify', { json: { token: res.body.token } })).body.id).toBe(r.id);
    const bad = await api('POST', '/runners/reset_authentication_token', { json: { token: 'nope' } });
    expect(bad.status).toBe(403);
    expect((await api('POST', '/runners/reset_authentication_token', { json: {} })).body).toEqual({ error: 'token is missing' });
  });

  it('keeps the glrt- prefix for user-created runners', async () => {
    const created = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type', project_id: project.id } });
    const res = await api('POST', '/runners/reset_authentication_token', { json: { token: created.body.token } });
    expect(res.body.token).toMatch(/^glrt-t3_[A-Za-z0-9_-]{20}$/);
  });

  it('two concurrent resets with one token: exactly one 201, the other 403, one valid token', async () => {
    const r = await registered(projectRegToken);
    const results = await Promise.all([1, 2, 3].map(() => api('POST', '/runners/reset_authentication_token', { json: { token: r.token } })));
    const ok = results.filter((x) => x.status === 201);
    expect(ok).toHaveLength(1);
    expect(results.filter((x) => x.status === 403)).toHaveLength(2);
    expect((await api('POST', '/runners/verify', { json: { token: ok[0].body.token } })).status).toBe(200);
  });
});

describe('[RUNNERS] POST /runners/:id/reset_authentication_token (by a user)', () => {
  it('lets admins, group Owners and project Maintainers reset; others get 403 "No access granted"', async () => {
    const groupRunner = await registered(await resetGroupToken(owner.token, group.id));
    const projectRunner = await registered(projectRegToken);
    const allowed: Array<[string, number]> = [
      [rootToken(), groupRunner.id],
      [owner.token, groupRunner.id],
      [maintainer.token, projectRunner.id],
      [owner.token, projectRunner.id],
    ];
    for (const [token, id] of allowed) {
      const res = await api('POST', `/runners/${id}/reset_authentication_token`, { token });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['token', 'token_expires_at']);
    }
    const denied: Array<[string, number]> = [
      [maintainer.token, groupRunner.id],
      [developer.token, projectRunner.id],
      [outsider.token, projectRunner.id],
    ];
    for (const [token, id] of denied) {
      const res = await api('POST', `/runners/${id}/reset_authentication_token`, { token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - No access granted' });
    }
  });

  it('answers 404 for a missing runner, 401 anonymously, 400 for a bad id; accepts manage_runner; go-gitlab empty body and runner `null` body', async () => {
    const missing = await api('POST', '/runners/999999999/reset_authentication_token', { token: rootToken() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Runner Not Found' });
    expect((await api('POST', '/runners/1/reset_authentication_token')).status).toBe(401);
    const badId = await api('POST', '/runners/abc/reset_authentication_token', { token: rootToken() });
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual({ error: 'id is invalid' });
    const r = await registered(projectRegToken);
    const manage = await createToken(owner.id, ['manage_runner']);
    const viaNull = await fetch(`${(await import('../support/api')).baseUrl()}/api/v4/runners/${r.id}/reset_authentication_token`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': manage, 'Content-Type': 'application/json' },
      body: 'null',
    });
    expect(viaNull.status).toBe(201);
    const empty = await fetch(`${(await import('../support/api')).baseUrl()}/api/v4/runners/${r.id}/reset_authentication_token`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': manage, 'Content-Type': 'application/json' },
    });
    expect(empty.status).toBe(201);
    const readApi = await createToken(owner.id, ['read_api']);
    expect((await api('POST', `/runners/${r.id}/reset_authentication_token`, { token: readApi })).status).toBe(403);
  });
});

describe('[RUNNERS] token expiry', () => {
  it('computes token_expires_at from the group and ancestor intervals (smallest wins) at register and reset', async () => {
    const root = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: root.id });
    await dbQuery('UPDATE namespaces SET runner_token_expiration_interval = $2 WHERE id = $1', [root.id, 5 * DAY]);
    await dbQuery('UPDATE namespaces SET runner_token_expiration_interval = $2 WHERE id = $1', [sub.id, 10 * DAY]);
    const r = await registered(await resetGroupToken(owner.token, sub.id));
    near(r.token_expires_at, Date.now() + 5 * DAY * 1000);
    await dbQuery('UPDATE namespaces SET runner_token_expiration_interval = $2 WHERE id = $1', [sub.id, 2 * DAY]);
    const reset = await api('POST', '/runners/reset_authentication_token', { json: { token: r.token } });
    near(reset.body.token_expires_at, Date.now() + 2 * DAY * 1000);
    const verify = await api('POST', '/runners/verify', { json: { token: reset.body.token } });
    expect(verify.body.token_expires_at).toBe(reset.body.token_expires_at);
  });

  it('computes project runner expiry from the project and its namespaces', async () => {
    const g = await createGroup(owner.token);
    const p = await createProject(owner.token, { namespaceId: g.id });
    await dbQuery('UPDATE projects SET runner_token_expiration_interval = $2 WHERE id = $1', [p.id, 3 * DAY]);
    const created = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type', project_id: p.id } });
    near(created.body.token_expires_at, Date.now() + 3 * DAY * 1000);
    await dbQuery('UPDATE namespaces SET runner_token_expiration_interval = $2 WHERE id = $1', [g.id, 1 * DAY]);
    const reset = await api('POST', `/runners/${created.body.id}/reset_authentication_token`, { token: owner.token });
    near(reset.body.token_expires_at, Date.now() + 1 * DAY * 1000);
  });

  it('an unknown registration token never reveals anything but 403', async () => {
    const res = await register('t3_' + 'x'.repeat(20));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - invalid token supplied' });
  });
});
