// Issue 20, defect 7: integers past the int4 columns. In the path such an id names no row (the resource's
// own 404, as for any id that does not exist); in a query or body it is a bad parameter (Grape's 400).
// tests/api/fuzz.test.ts sends the same edges to every route.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createProject } from '../support/namespaces';
import { createRunner } from './runners-admin-support';

const PAST_INT4 = '2147483648';
const PAST_INT8 = '9223372036854775808';
const cursor = (id: unknown, encoding: BufferEncoding) => Buffer.from(JSON.stringify({ id })).toString(encoding);

let group: { id: number };
let project: { id: number };
let runner: number;

beforeAll(async () => {
  group = await createGroup(rootToken());
  project = await createProject(rootToken(), { namespaceId: group.id });
  runner = await createRunner('project_type', { projectId: project.id, token: rootToken() });
});

describe('[PLATFORM] integers past the database columns', () => {
  it('answers an audit event id past the column with the 404 of an event that does not exist', async () => {
    for (const path of [`/audit_events`, `/projects/${project.id}/audit_events`, `/groups/${group.id}/audit_events`]) {
      const missing = await api('GET', `${path}/2147483647`, { token: rootToken() });
      expect(missing.status, path).toBe(404);
      for (const id of [PAST_INT4, PAST_INT8]) {
        const res = await api('GET', `${path}/${id}`, { token: rootToken() });
        expect(res.status, `${path}/${id}`).toBe(404);
        expect(res.body, `${path}/${id}`).toEqual(missing.body);
      }
    }
  });

  it('keeps GitLab order for a path id past the column: the project is looked up first', async () => {
    const res = await api('DELETE', `/projects/2147483647/runners/${PAST_INT4}`, { token: rootToken() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
    const runnerMissing = await api('DELETE', `/projects/${project.id}/runners/${PAST_INT8}`, { token: rootToken() });
    expect(runnerMissing.body).toEqual({ message: '404 Runner Not Found' });
  });

  it('refuses filters past the column with Grape 400', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/runners/all', { owner_group_id: PAST_INT4 }, 'owner_group_id'],
      ['/runners/all', { owner_project_id: PAST_INT4 }, 'owner_project_id'],
      ['/runners', { owner_group_id: PAST_INT4 }, 'owner_group_id'],
      ['/runners', { owner_project_id: PAST_INT8 }, 'owner_project_id'],
      [`/projects/${project.id}/merge_requests`, { author_id: PAST_INT4 }, 'author_id'],
      ['/audit_events', { entity_type: 'Project', entity_id: PAST_INT4 }, 'entity_id'],
      ['/personal_access_tokens', { user_id: PAST_INT4 }, 'user_id'],
    ];
    for (const [path, query, name] of cases) {
      const res = await api('GET', path, { token: rootToken(), query });
      expect(res.status, `${path} ${name}`).toBe(400);
      expect(res.body, `${path} ${name}`).toEqual({ error: `${name} is invalid` });
    }
  });

  it('refuses body integers past the column with Grape 400', async () => {
    const settings = await api('PUT', '/application/settings', { token: rootToken(), json: { stale_runner_cleanup_owner_group_id: 2147483648 } });
    expect(settings.status).toBe(400);
    expect(settings.body).toEqual({ error: 'stale_runner_cleanup_owner_group_id is invalid' });
    const made = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'project_type', project_id: 2147483648 } });
    expect(made.status).toBe(400);
    expect(made.body).toEqual({ error: 'project_id is invalid' });
    const placed = await api('POST', '/projects', { token: rootToken(), form: { name: 'bounds', namespace_id: PAST_INT8 } });
    expect(placed.status).toBe(400);
    expect(placed.body).toEqual({ error: 'namespace_id is invalid' });
  });

  it('keeps page numbers as GitLab does: a page past the end is empty', async () => {
    const res = await api('GET', '/runners/all', { token: rootToken(), query: { page: PAST_INT4, per_page: PAST_INT4 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('reads a keyset cursor past the column as "after every row", not as a database error', async () => {
    const jobs = await api('GET', `/runners/${runner}/jobs`, {
      token: rootToken(),
      query: { pagination: 'keyset', order_by: 'id', sort: 'asc', cursor: cursor(PAST_INT4, 'base64') },
    });
    expect(jobs.status).toBe(200);
    expect(jobs.body).toEqual([]);
    const events = await api('GET', '/audit_events', { token: rootToken(), query: { pagination: 'keyset', cursor: cursor(2 ** 40, 'base64url') } });
    expect(events.status).toBe(200);
    expect(events.body.length).toBeGreaterThan(0);
  });
});
