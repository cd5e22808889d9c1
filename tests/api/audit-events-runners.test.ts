// The audit trail of runner changes: every change writes one audit_events row in its own transaction
// (create, register, update, pause, resume, delete by id and by token, enable/disable in a project,
// authentication- and registration-token resets), a refused change writes none, and no token ever lands
// in an event.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner } from './runners-admin-support';
import { dbQuery, registered, resetGroupToken, resetInstanceToken, resetProjectToken, withInstanceSettingsLock } from './runners-registration-support';

// The client's address: a loopback address of its own (the shipped default trusts no proxy, so the socket's
// address is the one recorded; block 0 is never taken by freshLoopbackAddress).
const IP = '127.0.0.7';

async function runnerEvents(runnerId: number) {
  return dbQuery('SELECT * FROM audit_events WHERE target_type = $1 AND target_id = $2 ORDER BY id', ['Ci::Runner', runnerId]);
}

async function lastEventId(): Promise<number> {
  return (await dbQuery('SELECT COALESCE(MAX(id), 0)::int AS id FROM audit_events'))[0].id;
}

/** Every row written after `since` that names runner `runnerId` or the given entity. */
async function eventsSince(since: number, where: { runnerId?: number; entityType?: string; entityId?: number }) {
  const rows = await dbQuery('SELECT * FROM audit_events WHERE id > $1 ORDER BY id', [since]);
  return rows.filter(
    (r: any) =>
      (where.runnerId === undefined || r.target_id === where.runnerId) &&
      (where.entityType === undefined || (r.entity_type === where.entityType && r.entity_id === where.entityId)),
  );
}

/** No token, digest or secret anywhere in an event. */
function expectNoSecrets(rows: any[], ...tokens: string[]) {
  const text = JSON.stringify(rows);
  for (const t of tokens) expect(text).not.toContain(t);
  expect(text).not.toMatch(/glrt-|GR1348941|token_digest/);
}

let admin: TestUser;
let owner: TestUser;
let maintainer: TestUser;
let outsider: TestUser;
let group: any;
let project: any;
let project2: any;

beforeAll(async () => {
  const root = rootToken();
  [admin, owner, maintainer, outsider] = await Promise.all([createUser({ admin: true }), createUser(), createUser(), createUser()]);
  group = await createGroup(root);
  project = await createProject(root, { namespaceId: group.id });
  project2 = await createProject(root, { namespaceId: group.id });
  await addGroupMember(root, group.id, owner.id, 50);
  await addProjectMember(root, project.id, maintainer.id, 40);
  await addProjectMember(root, project2.id, maintainer.id, 40);
});

describe('[AUDIT] runner changes are recorded', () => {
  it('create (POST /user/runners): the owner scope is the entity, the runner the target, with actor and IP', async () => {
    const res = await api('POST', '/user/runners', {
      token: owner.token,
      from: IP,
      json: { runner_type: 'group_type', group_id: group.id, description: 'audited', tag_list: ['a'] },
    });
    expect(res.status).toBe(201);
    const [e, ...rest] = await runnerEvents(res.body.id);
    expect(rest).toEqual([]);
    expect(e).toMatchObject({
      event_name: 'ci_runner_created',
      author_id: owner.id,
      entity_type: 'Group',
      entity_id: group.id,
      entity_path: group.full_path,
      target_type: 'Ci::Runner',
      target_id: res.body.id,
      ip_address: IP,
    });
    expect(e.details).toMatchObject({
      custom_message: 'Created CI runner',
      author_name: expect.stringContaining(owner.username),
      ip_address: IP,
      tag_list: ['a'],
    });
    expectNoSecrets([e], res.body.token);

    const inst = await api('POST', '/user/runners', { token: admin.token, json: { runner_type: 'instance_type' } });
    expect((await runnerEvents(inst.body.id))[0]).toMatchObject({ entity_type: 'Gitlab::Audit::InstanceScope', entity_id: 1, entity_path: 'gitlab_instance' });
    const proj = await api('POST', '/user/runners', { token: maintainer.token, json: { runner_type: 'project_type', project_id: project.id } });
    expect((await runnerEvents(proj.body.id))[0]).toMatchObject({ entity_type: 'Project', entity_id: project.id, entity_path: project.path_with_namespace });
  });

  it('register (POST /runners with a registration token): the token is the author, and never stored', async () => {
    const regToken = await resetProjectToken(maintainer.token, project.id);
    const r = await registered(regToken, { description: 'registered' });
    const events = await runnerEvents(r.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_name: 'ci_runner_registered',
      author_id: -1,
      author_name: 'Registration token (project)',
      entity_type: 'Project',
      entity_id: project.id,
    });
    expectNoSecrets(events, regToken, r.token);
  });

  it('a refused creation records nothing', async () => {
    const since = await lastEventId();
    expect((await api('POST', '/user/runners', { token: outsider.token, json: { runner_type: 'group_type', group_id: group.id } })).status).toBe(403);
    expect(
      (await api('POST', '/user/runners', { token: owner.token, json: { runner_type: 'group_type', group_id: group.id, maximum_timeout: 10 } })).status,
    ).toBe(400);
    expect((await api('POST', '/runners', { json: { token: 'not-a-registration-token' } })).status).toBe(403);
    expect(await eventsSince(since, { entityType: 'Group', entityId: group.id })).toEqual([]);
  });

  it('update (PUT /runners/:id) lists each changed field before and after; an unchanged PUT or a refused one records nothing', async () => {
    const id = await createRunner('group_type', { groupId: group.id, description: 'before', tags: ['x'] });
    const put = await api('PUT', `/runners/${id}`, {
      token: owner.token,
      from: IP,
      json: { description: 'after', tag_list: ['y', 'z'], maximum_timeout: 3600, locked: false },
    });
    expect(put.status).toBe(200);
    const events = await runnerEvents(id);
    expect(events.map((e: any) => e.event_name)).toEqual(['ci_runner_created', 'ci_runner_updated']);
    expect(events[1].details.changes).toEqual({
      description: { from: 'before', to: 'after' },
      tag_list: { from: ['x'], to: ['y', 'z'] },
      maximum_timeout: { from: null, to: 3600 },
    });
    expect(events[1]).toMatchObject({ author_id: owner.id, ip_address: IP });

    expect((await api('PUT', `/runners/${id}`, { token: owner.token, json: { description: 'after' } })).status).toBe(200);
    expect((await api('PUT', `/runners/${id}`, { token: outsider.token, json: { description: 'nope' } })).status).toBe(403);
    expect((await api('PUT', `/runners/${id}`, { token: owner.token, json: { maximum_timeout: 5 } })).status).toBe(400);
    expect(await runnerEvents(id)).toHaveLength(2);
  });

  it('pause and resume (PUT paused, as the bulk actions send it) are their own events', async () => {
    const id = await createRunner('project_type', { projectId: project.id });
    expect((await api('PUT', `/runners/${id}`, { token: maintainer.token, json: { paused: true } })).status).toBe(200);
    expect((await api('PUT', `/runners/${id}`, { token: maintainer.token, json: { paused: false } })).status).toBe(200);
    expect((await api('PUT', `/runners/${id}`, { token: maintainer.token, json: { active: false } })).status).toBe(200);
    const events = (await runnerEvents(id)).slice(1);
    expect(events.map((e: any) => e.event_name)).toEqual(['ci_runner_paused', 'ci_runner_resumed', 'ci_runner_paused']);
    expect(events[0].details.changes).toEqual({ paused: { from: false, to: true } });
  });

  it('delete by id (DELETE /runners/:id); a refused delete records nothing', async () => {
    const id = await createRunner('group_type', { groupId: group.id });
    expect((await api('DELETE', `/runners/${id}`, { token: outsider.token })).status).toBe(403);
    expect((await api('DELETE', `/runners/${id}`, { token: owner.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })).status).toBe(
      412,
    );
    expect(await runnerEvents(id)).toHaveLength(1);
    expect((await api('DELETE', `/runners/${id}`, { token: owner.token, from: IP })).status).toBe(204);
    const events = await runnerEvents(id);
    expect(events.map((e: any) => e.event_name)).toEqual(['ci_runner_created', 'ci_runner_unregistered']);
    expect(events[1]).toMatchObject({ author_id: owner.id, entity_type: 'Group', entity_id: group.id, ip_address: IP });
    expect(events[1].details).toMatchObject({ via: 'id' });
  });

  it('delete by token (DELETE /runners): the runner is the author; a wrong token records nothing', async () => {
    const regToken = await resetGroupToken(owner.token, group.id);
    const r = await registered(regToken);
    expect((await api('DELETE', '/runners', { json: { token: 'glrt-wrong' } })).status).toBe(403);
    expect((await api('DELETE', '/runners', { json: { token: r.token }, from: IP })).status).toBe(204);
    const events = await runnerEvents(r.id);
    expect(events.map((e: any) => e.event_name)).toEqual(['ci_runner_registered', 'ci_runner_unregistered']);
    expect(events[1]).toMatchObject({ author_id: -1, author_name: `Runner #${r.id} (authentication token)`, ip_address: IP });
    expect(events[1].details).toMatchObject({ via: 'token', author_class: 'Ci::Runner' });
    expectNoSecrets(events, r.token, regToken);
  });

  it('enable and disable in a project are recorded on that project; refusals record nothing', async () => {
    const id = await createRunner('project_type', { projectId: project.id });
    const other = await createProject(rootToken(), { namespaceId: group.id });
    await addProjectMember(rootToken(), other.id, maintainer.id, 30);
    expect((await api('POST', `/projects/${other.id}/runners`, { token: maintainer.token, json: { runner_id: id } })).status).toBe(403);
    expect((await api('POST', `/projects/${project2.id}/runners`, { token: maintainer.token, from: IP, json: { runner_id: id } })).status).toBe(201);
    expect((await api('POST', `/projects/${project2.id}/runners`, { token: maintainer.token, json: { runner_id: id } })).status).toBe(400);
    expect((await api('DELETE', `/projects/${project.id}/runners/${id}`, { token: maintainer.token })).status).toBe(403);
    expect((await api('DELETE', `/projects/${project2.id}/runners/${id}`, { token: maintainer.token, from: IP })).status).toBe(204);
    const events = (await runnerEvents(id)).slice(1);
    expect(events.map((e: any) => [e.event_name, e.entity_type, e.entity_id])).toEqual([
      ['ci_runner_assigned_to_project', 'Project', project2.id],
      ['ci_runner_unassigned_from_project', 'Project', project2.id],
    ]);
    expect(events[0].details).toMatchObject({ project_id: project2.id, target_details: `/${project.path_with_namespace}/-/runners/${id}` });
  });

  it('authentication-token resets, by id and by the token itself, never store a token', async () => {
    const regToken = await resetProjectToken(maintainer.token, project.id);
    const r = await registered(regToken);
    const byId = await api('POST', `/runners/${r.id}/reset_authentication_token`, { token: maintainer.token, from: IP });
    expect(byId.status).toBe(201);
    expect((await api('POST', `/runners/${r.id}/reset_authentication_token`, { token: outsider.token })).status).toBe(403);
    const byToken = await api('POST', '/runners/reset_authentication_token', { json: { token: byId.body.token } });
    expect(byToken.status).toBe(201);
    expect((await api('POST', '/runners/reset_authentication_token', { json: { token: r.token } })).status).toBe(403);
    const events = (await runnerEvents(r.id)).slice(1);
    expect(events.map((e: any) => [e.event_name, e.author_id, e.details.via])).toEqual([
      ['ci_runner_authentication_token_reset', maintainer.id, 'id'],
      ['ci_runner_authentication_token_reset', -1, 'token'],
    ]);
    expectNoSecrets(events, r.token, byId.body.token, byToken.body.token, regToken);
  });

  it('registration-token resets of the instance, a group and a project; refusals record nothing', async () => {
    const since = await lastEventId();
    const projectToken = await resetProjectToken(maintainer.token, project.id);
    const groupToken = await resetGroupToken(owner.token, group.id);
    const instanceToken = await withInstanceSettingsLock(() => resetInstanceToken());
    expect((await api('POST', `/groups/${group.id}/runners/reset_registration_token`, { token: maintainer.token })).status).toBe(403);
    expect((await api('POST', '/runners/reset_registration_token', { token: owner.token })).status).toBe(403);
    const rows = (await dbQuery('SELECT * FROM audit_events WHERE id > $1 AND event_name = $2 ORDER BY id', [since, 'ci_runner_token_reset'])).filter(
      (r: any) => [maintainer.id, owner.id, 1].includes(r.author_id),
    );
    const mine = rows.filter(
      (r: any) =>
        (r.entity_type === 'Project' && r.entity_id === project.id) ||
        (r.entity_type === 'Group' && r.entity_id === group.id) ||
        r.entity_type === 'Gitlab::Audit::InstanceScope',
    );
    expect(mine.map((r: any) => [r.entity_type, r.author_id])).toEqual(
      expect.arrayContaining([
        ['Project', maintainer.id],
        ['Group', owner.id],
        ['Gitlab::Audit::InstanceScope', 1],
      ]),
    );
    expect(mine.filter((r: any) => r.entity_type === 'Group')).toHaveLength(1);
    expectNoSecrets(mine, projectToken, groupToken, instanceToken);
  });
});
