import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { createToken, createUser, type TestUser } from '../support/users';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { dbQuery, register, registered, resetGroupToken, resetInstanceToken, resetProjectToken, runnerRow } from './runners-registration-support';

const GUEST = 10,
  DEVELOPER = 30,
  MAINTAINER = 40,
  OWNER = 50;

let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let outsider: TestUser;
let group: any;
let project: any;

beforeAll(async () => {
  // One at a time: a user's creation is not what these tests exercise.
  owner = await createUser();
  maintainer = await createUser();
  developer = await createUser();
  outsider = await createUser();
  group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
  await addGroupMember(owner.token, group.id, maintainer.id, MAINTAINER);
  await addGroupMember(owner.token, group.id, developer.id, DEVELOPER);
});

describe('[RUNNERS] POST /runners registers with a registration token', () => {
  it('creates a project runner from a project token: 201 {id, token, token_expires_at}, t3_ token, info.name stored', async () => {
    const regToken = await resetProjectToken(owner.token, project.id);
    expect(regToken).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
    const res = await register(regToken, {
      description: 'builder',
      info: { name: 'my-runner', version: '18.0.0' },
      tag_list: 'a, b,a',
      run_untagged: false,
      locked: true,
      access_level: 'ref_protected',
      maximum_timeout: 600,
      maintenance_note: 'note',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^t3_[A-Za-z0-9_-]{20}$/);
    expect(res.body.token_expires_at).toBeNull();
    const row = await runnerRow(res.body.id);
    expect(row).toMatchObject({
      runner_type: 'project_type',
      name: 'my-runner',
      description: 'builder',
      locked: true,
      run_untagged: false,
      access_level: 'ref_protected',
      maximum_timeout: 600,
      maintenance_note: 'note',
      registration_type: 'registration_token',
      creation_state: 'started',
      contacted_at: null,
      creator_id: null,
      owner_project_id: project.id,
    });
    // Only the digest is stored.
    expect(row.token_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(res.body.token);
    const tags = await dbQuery('SELECT t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id WHERE rt.runner_id = $1 ORDER BY rt.id', [
      res.body.id,
    ]);
    expect(tags.map((t) => t.name)).toEqual(['a', 'b']);
    const links = await dbQuery('SELECT project_id FROM ci_runner_projects WHERE runner_id = $1', [res.body.id]);
    expect(links).toEqual([{ project_id: project.id }]);
    expect(await dbQuery('SELECT id FROM ci_runner_machines WHERE runner_id = $1', [res.body.id])).toEqual([]);
  });

  it('creates a group runner from a group token (t2_) and an instance runner from the instance token (t1_)', async () => {
    const groupRunner = await registered(await resetGroupToken(owner.token, group.id));
    expect(groupRunner.token).toMatch(/^t2_/);
    expect(await runnerRow(groupRunner.id)).toMatchObject({ runner_type: 'group_type', group_id: group.id });
    const instanceRunner = await registered(await resetInstanceToken());
    expect(instanceRunner.token).toMatch(/^t1_[A-Za-z0-9_-]{20}$/);
    expect(await runnerRow(instanceRunner.id)).toMatchObject({ runner_type: 'instance_type', group_id: null, owner_project_id: null });
  });

  it('accepts tag_list as a JSON array, a CSV string, and a form array; paused maps to active', async () => {
    const regToken = await resetProjectToken(owner.token, project.id);
    const a = await registered(regToken, { tag_list: ['x', 'y,z', ' x '], paused: true });
    expect((await runnerRow(a.id)).active).toBe(false);
    const tags = await dbQuery('SELECT t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id WHERE rt.runner_id = $1 ORDER BY rt.id', [a.id]);
    expect(tags.map((t) => t.name)).toEqual(['x', 'y', 'z']);
    const form = await api('POST', '/runners', { form: { token: regToken, tag_list: ['p', 'q'], active: 'false' } });
    expect(form.status).toBe(201);
    expect((await runnerRow(form.body.id)).active).toBe(false);
  });

  it('copies the deprecated maintainer_note into maintenance_note', async () => {
    const r = await registered(await resetProjectToken(owner.token, project.id), { maintainer_note: 'old style' });
    expect((await runnerRow(r.id)).maintenance_note).toBe('old style');
  });

  it('answers 403 "invalid token supplied" for unknown and empty tokens, 400 without a token', async () => {
    for (const token of ['GR1348941notarealtokenatall', '']) {
      const res = await register(token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - invalid token supplied' });
    }
    const missing = await api('POST', '/runners', { json: { description: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'token is missing' });
  });

  it('rejects mutually exclusive parameters with Grape messages', async () => {
    const both = await register('whatever', { maintainer_note: 'a', maintenance_note: 'b' });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'maintainer_note, maintenance_note are mutually exclusive' });
    const active = await register('whatever', { active: true, paused: false });
    expect(active.body).toEqual({ error: 'active, paused are mutually exclusive' });
    const level = await register('whatever', { access_level: 'everything' });
    expect(level.body).toEqual({ error: 'access_level does not have a valid value' });
  });

  it('validates the runner as GitLab does: tags_list, maximum_timeout, maintenance_note length', async () => {
    const regToken = await resetProjectToken(owner.token, project.id);
    const many = await register(regToken, { tag_list: Array.from({ length: 51 }, (_, i) => `t${i}`) });
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ message: { tags_list: ['Too many tags specified. Please limit the number of tags to 50'] } });
    const untagged = await register(regToken, { run_untagged: false });
    expect(untagged.body).toEqual({ message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } });
    const timeout = await register(regToken, { maximum_timeout: 599 });
    expect(timeout.body).toEqual({ message: { maximum_timeout: ['needs to be at least 10 minutes'] } });
    const note = await register(regToken, { maintenance_note: 'n'.repeat(1025) });
    expect(note.body).toEqual({ message: { maintenance_note: ['is too long (maximum is 1024 characters)'] } });
    const desc = await register(regToken, { description: 'd'.repeat(1025) });
    expect(desc.body).toEqual({ message: { description: ['is too long (maximum is 1024 characters)'] } });
    const name = await register(regToken, { info: { name: 'n'.repeat(257) } });
    expect(name.body).toEqual({ message: { name: ['is too long (maximum is 256 characters)'] } });
    const fifty = await register(regToken, { tag_list: Array.from({ length: 50 }, (_, i) => `t${i}`) });
    expect(fifty.status).toBe(201);
  });

  it('answers 410 when the root namespace disallows registration tokens (also for a subgroup project)', async () => {
    const root = await createGroup(owner.token);
    const sub = await createGroup(owner.token, { parentId: root.id });
    const subProject = await createProject(owner.token, { namespaceId: sub.id });
    const projectToken = await resetProjectToken(owner.token, subProject.id);
    const groupToken = await resetGroupToken(owner.token, sub.id);
    await dbQuery('UPDATE namespaces SET allow_runner_registration_token = false WHERE id = $1', [root.id]);
    for (const token of [projectToken, groupToken]) {
      const res = await register(token);
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ message: '410 Gone - runner registration disallowed' });
    }
    // Resets are refused too, even for the owner.
    const reset = await api('POST', `/projects/${subProject.id}/runners/reset_registration_token`, { token: owner.token });
    expect(reset.status).toBe(403);
    expect(reset.body).toEqual({ message: '403 Forbidden' });
    const greset = await api('POST', `/groups/${sub.id}/runners/reset_registration_token`, { token: owner.token });
    expect(greset.status).toBe(403);
    // Unknown tokens still get 403 while the instance allows tokens.
    expect((await register('GR1348941unknownunknownunknown')).status).toBe(403);
    await dbQuery('UPDATE namespaces SET allow_runner_registration_token = true WHERE id = $1', [root.id]);
    expect((await register(projectToken)).status).toBe(201);
  });
});

describe('[RUNNERS] registration-token resets', () => {
  it('instance: admin gets 201 {token} only; others 403; anonymous 401; the old token stops working', async () => {
    const first = await api('POST', '/runners/reset_registration_token', { token: rootToken() });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body)).toEqual(['token']);
    expect(first.body.token).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
    const second = await resetInstanceToken();
    expect((await register(first.body.token)).status).toBe(403);
    expect((await register(second)).status).toBe(201);
    const denied = await api('POST', '/runners/reset_registration_token', { token: owner.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: '403 Forbidden' });
    const anon = await api('POST', '/runners/reset_registration_token');
    expect(anon.status).toBe(401);
  });

  it('project: Maintainer+ 201; Developer 403; non-member and malformed id 404', async () => {
    expect((await api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: maintainer.token })).status).toBe(201);
    expect(
      (await api('POST', `/projects/${encodeURIComponent(project.path_with_namespace)}/runners/reset_registration_token`, { token: rootToken() })).status,
    ).toBe(201);
    const dev = await api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: developer.token });
    expect(dev.status).toBe(403);
    expect(dev.body).toEqual({ message: '403 Forbidden' });
    for (const id of [project.id, 'some%20string']) {
      const res = await api('POST', `/projects/${id}/runners/reset_registration_token`, { token: outsider.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    }
  });

  it('group: Owner 201; Maintainer and Developer 403; non-member 404', async () => {
    expect((await api('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: owner.token })).status).toBe(201);
    for (const u of [maintainer, developer]) {
      const res = await api('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: u.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    const res = await api('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: outsider.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('[RUNNERS] POST /user/runners', () => {
  it('creates an instance runner for an admin: glrt-t1_ token, creator recorded, registration_type authenticated_user', async () => {
    const res = await api('POST', '/user/runners', {
      token: rootToken(),
      json: { runner_type: 'instance_type', description: 'made by root', tag_list: ['a'] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^glrt-t1_[A-Za-z0-9_-]{20}$/);
    expect(res.body.token).toHaveLength(28);
    const row = await runnerRow(res.body.id);
    const root = (await dbQuery("SELECT id FROM users WHERE username = 'root'"))[0];
    expect(row).toMatchObject({
      runner_type: 'instance_type',
      creator_id: root.id,
      registration_type: 'authenticated_user',
      description: 'made by root',
      run_untagged: true,
      locked: false,
    });
  });

  it('creates group runners for group Owners and project runners for project Maintainers', async () => {
    const g = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'group_type', group_id: group.id } });
    expect(g.status).toBe(201);
    expect(g.body.token).toMatch(/^glrt-t2_/);
    expect(await runnerRow(g.body.id)).toMatchObject({ group_id: group.id, creator_id: owner.id });
    const p = await api('POST', '/user/runners', { token: maintainer.token, json: { runner_type: 'project_type', project_id: project.id, paused: true } });
    expect(p.status).toBe(201);
    expect(p.body.token).toMatch(/^glrt-t3_/);
    expect(await runnerRow(p.body.id)).toMatchObject({ owner_project_id: project.id, creator_id: maintainer.id, active: false });
  });

  it('answers 403 "Insufficient permissions" per the matrix', async () => {
    const cases: Array<[TestUser, Record<string, unknown>]> = [
      [owner, { runner_type: 'instance_type' }],
      [maintainer, { runner_type: 'group_type', group_id: group.id }],
      [developer, { runner_type: 'project_type', project_id: project.id }],
      [outsider, { runner_type: 'project_type', project_id: project.id }],
      [outsider, { runner_type: 'group_type', group_id: group.id }],
    ];
    for (const [user, json] of cases) {
      const res = await api('POST', '/user/runners', { token: user.token, json });
      expect(res.status, JSON.stringify(json)).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Insufficient permissions' });
    }
  });

  it('gives Grape errors for runner_type, group_id and project_id', async () => {
    const none = await api('POST', '/user/runners', { token: owner.token, json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'runner_type is missing, runner_type does not have a valid value' });
    const bogus = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'bogus' } });
    expect(bogus.body).toEqual({ error: 'runner_type does not have a valid value' });
    const g = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'group_type' } });
    expect(g.body).toEqual({ error: 'group_id is missing' });
    const p = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type' } });
    expect(p.body).toEqual({ error: 'project_id is missing' });
  });

  it('answers 400 "Missing/invalid group|project" for unknown owners and 400 with full messages on invalid runners', async () => {
    const g = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'group_type', group_id: 999999999 } });
    expect(g.status).toBe(400);
    expect(g.body).toEqual({ message: '400 Bad request - Missing/invalid group' });
    const p = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'project_type', project_id: 999999999 } });
    expect(p.body).toEqual({ message: '400 Bad request - Missing/invalid project' });
    const invalid = await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'group_type', group_id: group.id, run_untagged: false } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: '400 Bad request - Tags list can not be empty when runner is not allowed to pick untagged jobs' });
  });

  it('accepts api and create_runner scopes; read_api is 403 insufficient_scope; anonymous 401', async () => {
    const createOnly = await createToken(owner.id, ['create_runner']);
    const ok = await api('POST', '/user/runners', { token: createOnly, json: { runner_type: 'group_type', group_id: group.id } });
    expect(ok.status).toBe(201);
    const readOnly = await createToken(owner.id, ['read_api']);
    const denied = await api('POST', '/user/runners', { token: readOnly, json: { runner_type: 'group_type', group_id: group.id } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('insufficient_scope');
    const anon = await api('POST', '/user/runners', { json: { runner_type: 'instance_type' } });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('[RUNNERS] registration races', () => {
  it('registering twice at once with one token gives two runners with distinct tokens', async () => {
    const regToken = await resetProjectToken(owner.token, project.id);
    const [a, b] = await Promise.all([register(regToken, { description: uniq('race') }), register(regToken, { description: uniq('race') })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(a.body.token).not.toBe(b.body.token);
    const digests = await dbQuery('SELECT token_digest FROM ci_runners WHERE id = ANY($1::int[])', [[a.body.id, b.body.id]]);
    expect(new Set(digests.map((d) => d.token_digest)).size).toBe(2);
  });

  it('two concurrent resets of one registration token leave exactly one valid token', async () => {
    const [r1, r2] = await Promise.all([
      api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: owner.token }),
      api('POST', `/projects/${project.id}/runners/reset_registration_token`, { token: owner.token }),
    ]);
    expect([r1.status, r2.status]).toEqual([201, 201]);
    expect(r1.body.token).not.toBe(r2.body.token);
    const statuses = [(await register(r1.body.token)).status, (await register(r2.body.token)).status].sort();
    expect(statuses).toEqual([201, 403]);
  });

  it('the database refuses two runners with one token digest', async () => {
    const [row] = await dbQuery('SELECT token_digest FROM ci_runners ORDER BY id LIMIT 1');
    await expect(
      dbQuery("INSERT INTO ci_runners (runner_type, token_digest, updated_at) VALUES ('instance_type', $1, now())", [row.token_digest]),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});

void GUEST;
void OWNER;
void addProjectMember;
