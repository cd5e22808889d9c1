// Reading the audit trail in GitLab's shape: GET /audit_events (admins), /groups/:id/audit_events,
// /projects/:id/audit_events, their single-event forms, and GET /runners/:id/audit_events (Runway
// extension): fields, filters, offset and keyset pagination, and who may read what.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner } from './runners-admin-support';
import { dbQuery } from './runners-registration-support';

const KEYS = ['id', 'author_id', 'entity_id', 'entity_type', 'event_name', 'details', 'created_at'];

let admin: TestUser;
let owner: TestUser;
let groupMaintainer: TestUser;
let developer: TestUser;
let reporter: TestUser;
let projMaintainer: TestUser;
let outsider: TestUser;
let group: any;
let project: any;
let other: any;
let groupRunner: number;
let projectRunner: number;
let sharedRunner: number;

beforeAll(async () => {
  const root = rootToken();
  [admin, owner, groupMaintainer, developer, reporter, projMaintainer, outsider] = await Promise.all([
    createUser({ admin: true }),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  group = await createGroup(root);
  project = await createProject(root, { namespaceId: group.id });
  other = await createProject(root);
  await addGroupMember(root, group.id, owner.id, 50);
  await addGroupMember(root, group.id, groupMaintainer.id, 40);
  await addGroupMember(root, group.id, developer.id, 30);
  await addGroupMember(root, group.id, reporter.id, 20);
  await addProjectMember(root, project.id, projMaintainer.id, 40);
  await addProjectMember(root, other.id, projMaintainer.id, 40);

  // Group trail: created by the owner, updated by the owner and by a developer-turned-... (the developer cannot
  // edit group runners, so their own event is a project runner change below).
  groupRunner = await createRunner('group_type', { groupId: group.id, token: owner.token });
  expect((await api('PUT', `/runners/${groupRunner}`, { token: owner.token, json: { description: 'g1' } })).status).toBe(200);
  expect((await api('PUT', `/runners/${groupRunner}`, { token: groupMaintainer.token, json: { description: 'g2' } })).status).toBe(403);
  // Project trail: a runner of the project; a runner owned by `other` and enabled in the project.
  projectRunner = await createRunner('project_type', { projectId: project.id, token: projMaintainer.token });
  sharedRunner = await createRunner('project_type', { projectId: other.id, token: projMaintainer.token });
  expect((await api('POST', `/projects/${project.id}/runners`, { token: projMaintainer.token, json: { runner_id: sharedRunner } })).status).toBe(201);
  expect((await api('PUT', `/runners/${sharedRunner}`, { token: projMaintainer.token, json: { paused: true } })).status).toBe(200);
});

describe('[AUDIT] GET /audit_events (administrators)', () => {
  it('lists events newest first in GitLab entity shape with pagination headers', async () => {
    const res = await api('GET', '/audit_events', { token: admin.token, query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(Object.keys(res.body[0])).toEqual(KEYS);
    expect(res.body[0].id).toBeGreaterThan(res.body[1].id);
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(Number(res.headers.get('x-total'))).toBeGreaterThanOrEqual(5);
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(res.body[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  it('refuses everyone but administrators', async () => {
    for (const u of [owner, projMaintainer, outsider]) {
      expect(await api('GET', '/audit_events', { token: u.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect((await api('GET', '/audit_events')).status).toBe(401);
  });

  it('filters by entity_type and entity_id, and validates them as GitLab does', async () => {
    const res = await api('GET', '/audit_events', { token: admin.token, query: { entity_type: 'Group', entity_id: group.id, per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.event_name)).toEqual(['ci_runner_updated', 'ci_runner_created']);
    expect(res.body.every((e: any) => e.entity_type === 'Group' && e.entity_id === group.id)).toBe(true);
    expect(res.body[1].details).toMatchObject({ target_type: 'Ci::Runner', target_id: groupRunner, entity_path: group.full_path });

    const byType = await api('GET', '/audit_events', { token: admin.token, query: { entity_type: 'Project', per_page: 100 } });
    expect(byType.body.every((e: any) => e.entity_type === 'Project')).toBe(true);
    expect(await api('GET', '/audit_events', { token: admin.token, query: { entity_id: group.id } })).toMatchObject({
      status: 400,
      body: { error: 'entity_type is missing' },
    });
    expect(await api('GET', '/audit_events', { token: admin.token, query: { entity_type: 'Ci::Runner' } })).toMatchObject({
      status: 400,
      body: { error: 'entity_type does not have a valid value' },
    });
    expect((await api('GET', '/audit_events', { token: admin.token, query: { entity_type: 'Group', entity_id: 'x' } })).status).toBe(400);
  });

  it('filters by created_after and created_before (inclusive), and refuses a malformed date', async () => {
    const rows = await dbQuery('SELECT id, created_at FROM audit_events WHERE entity_type = $1 AND entity_id = $2 ORDER BY id', ['Group', group.id]);
    const first = rows[0].created_at.toISOString();
    const onlyFirst = await api('GET', '/audit_events', { token: admin.token, query: { entity_type: 'Group', entity_id: group.id, created_before: first } });
    expect(onlyFirst.body.map((e: any) => e.id)).toEqual([rows[0].id]);
    const fromSecond = await api('GET', '/audit_events', {
      token: admin.token,
      query: { entity_type: 'Group', entity_id: group.id, created_after: rows[1].created_at.toISOString() },
    });
    expect(fromSecond.body.map((e: any) => e.id)).toEqual([rows[1].id]);
    const future = await api('GET', '/audit_events', { token: admin.token, query: { created_after: '2999-01-01T00:00:00Z' } });
    expect(future).toMatchObject({ status: 200, body: [] });
    expect(await api('GET', '/audit_events', { token: admin.token, query: { created_after: 'yesterday' } })).toMatchObject({
      status: 400,
      body: { error: 'created_after is invalid' },
    });
  });

  it('pages with keyset pagination (pagination=keyset) through every event once', async () => {
    const all = await api('GET', '/audit_events', { token: admin.token, query: { entity_type: 'Project', entity_id: project.id, per_page: 100 } });
    const seen: number[] = [];
    let next: string | null = `/audit_events?entity_type=Project&entity_id=${project.id}&pagination=keyset&per_page=1`;
    while (next) {
      const res: any = await api('GET', next, { token: admin.token });
      expect(res.status).toBe(200);
      seen.push(...res.body.map((e: any) => e.id));
      const link: string | null = res.headers.get('link');
      next = link ? new URL(/<([^>]+)>; rel="next"/.exec(link)![1]).pathname.replace('/api/v4', '') + new URL(/<([^>]+)>/.exec(link)![1]).search : null;
      expect(seen.length).toBeLessThanOrEqual(all.body.length);
    }
    expect(seen).toEqual(all.body.map((e: any) => e.id));
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('GET /audit_events/:id shows one event; 404 for none', async () => {
    const [row] = await dbQuery('SELECT id FROM audit_events WHERE target_id = $1 ORDER BY id LIMIT 1', [groupRunner]);
    const res = await api('GET', `/audit_events/${row.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(await api('GET', '/audit_events/999999999', { token: admin.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await api('GET', `/audit_events/${row.id}`, { token: owner.token })).status).toBe(403);
  });
});

describe('[AUDIT] GET /groups/:id/audit_events', () => {
  it('Owners and admins see every event of the group; Developers and Maintainers only their own; Reporters none', async () => {
    const all = await api('GET', `/groups/${group.id}/audit_events`, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body.map((e: any) => e.event_name)).toEqual(['ci_runner_updated', 'ci_runner_created']);
    expect((await api('GET', `/groups/${group.id}/audit_events`, { token: admin.token })).body).toHaveLength(2);
    // The group Maintainer's PUT was refused: they have no events of their own.
    expect(await api('GET', `/groups/${group.id}/audit_events`, { token: groupMaintainer.token })).toMatchObject({ status: 200, body: [] });
    expect(await api('GET', `/groups/${group.id}/audit_events`, { token: developer.token })).toMatchObject({ status: 200, body: [] });
    expect((await api('GET', `/groups/${group.id}/audit_events`, { token: reporter.token })).status).toBe(403);
    expect((await api('GET', `/groups/${group.id}/audit_events`, { token: outsider.token })).status).toBe(404);
  });

  it('the single event is for Owners; an event of another scope is 404', async () => {
    const [row] = await dbQuery('SELECT id FROM audit_events WHERE entity_type = $1 AND entity_id = $2 LIMIT 1', ['Group', group.id]);
    expect((await api('GET', `/groups/${group.id}/audit_events/${row.id}`, { token: owner.token })).body.id).toBe(row.id);
    expect((await api('GET', `/groups/${group.id}/audit_events/${row.id}`, { token: groupMaintainer.token })).status).toBe(403);
    const [foreign] = await dbQuery('SELECT id FROM audit_events WHERE entity_type = $1 LIMIT 1', ['Project']);
    expect((await api('GET', `/groups/${group.id}/audit_events/${foreign.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('[AUDIT] GET /projects/:id/audit_events', () => {
  it('shows the project runner events and those of runners enabled in the project, to Maintainers', async () => {
    const res = await api('GET', `/projects/${project.id}/audit_events`, { token: projMaintainer.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const byRunner = (id: number) => res.body.filter((e: any) => e.details.target_id === id).map((e: any) => e.event_name);
    expect(byRunner(projectRunner)).toEqual(['ci_runner_created']);
    // The shared runner's creation was on `other`, and its pause is recorded on its owner: both show here too.
    expect(byRunner(sharedRunner)).toEqual(['ci_runner_paused', 'ci_runner_assigned_to_project', 'ci_runner_created']);
    expect(res.headers.get('x-total')).toBe(String(res.body.length));
  });

  it('Developers see only their own events; Reporters and outsiders nothing', async () => {
    const dev = await createUser();
    await addProjectMember(rootToken(), project.id, dev.id, 30);
    expect(await api('GET', `/projects/${project.id}/audit_events`, { token: dev.token })).toMatchObject({ status: 200, body: [] });
    const rep = await createUser();
    await addProjectMember(rootToken(), project.id, rep.id, 20);
    expect((await api('GET', `/projects/${project.id}/audit_events`, { token: rep.token })).status).toBe(403);
    expect((await api('GET', `/projects/${project.id}/audit_events`, { token: outsider.token })).status).toBe(404);
    const [row] = await dbQuery('SELECT id FROM audit_events WHERE entity_type = $1 AND entity_id = $2 LIMIT 1', ['Project', project.id]);
    expect((await api('GET', `/projects/${project.id}/audit_events/${row.id}`, { token: projMaintainer.token })).body.id).toBe(row.id);
    expect((await api('GET', `/projects/${project.id}/audit_events/${row.id}`, { token: dev.token })).status).toBe(403);
  });
});

describe('[AUDIT] GET /runners/:id/audit_events (Runway extension)', () => {
  it('lists the runner events for those who may edit it, refuses others', async () => {
    const res = await api('GET', `/runners/${sharedRunner}/audit_events`, { token: projMaintainer.token });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.event_name)).toEqual(['ci_runner_paused', 'ci_runner_assigned_to_project', 'ci_runner_created']);
    expect(res.body[0].details.changes).toEqual({ paused: { from: false, to: true } });
    expect((await api('GET', `/runners/${groupRunner}/audit_events`, { token: owner.token })).body).toHaveLength(2);
    expect((await api('GET', `/runners/${groupRunner}/audit_events`, { token: admin.token })).body).toHaveLength(2);
    expect(await api('GET', `/runners/${groupRunner}/audit_events`, { token: developer.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - No access granted' },
    });
    expect((await api('GET', '/runners/999999999/audit_events', { token: admin.token })).status).toBe(404);
  });

  it('a runner created directly and never changed has no events; the list is empty, not an error', async () => {
    const id = await createRunner('instance_type');
    await dbQuery('DELETE FROM audit_events WHERE target_id = $1 AND target_type = $2', [id, 'Ci::Runner']);
    expect(await api('GET', `/runners/${id}/audit_events`, { token: admin.token })).toMatchObject({ status: 200, body: [] });
  });
});
