// The stale-runner cleanup (Runway extension): the preview is what a run removes, dry runs remove nothing,
// two runs at once remove each runner once without an error, validation and refusals are GitLab-shaped,
// and the daily schedule runs once per day however many workers try. Every rule is scoped to a group or
// project of its own, so the shared server's other runners are never touched.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { addJobs, addManager, createRunner, DAY, dbQuery, setRunnerTimes } from './runners-admin-support';

let admin: TestUser;
const cleanup = (method: 'GET' | 'POST', query: Record<string, string | number | boolean>, token = admin.token) =>
  method === 'GET' ? api('GET', '/runners/cleanup', { token, query }) : api('POST', '/runners/cleanup', { token, json: query });
const idsOf = (rows: { id: number }[]) => rows.map((r) => r.id);
const resultIds = (run: any, outcome: string) => run.results.filter((r: any) => r.result === outcome).map((r: any) => r.runner_id);

/** Group runners of a fresh group: stale ones and ones the rule must keep. */
async function fleet(groupId: number) {
  const r: Record<string, number> = {};
  r.staleOld = await createRunner('group_type', { groupId, tags: ['cleanup'] });
  await setRunnerTimes(r.staleOld, { contactedAgoMs: 100 * DAY, createdAgoMs: 200 * DAY });
  r.neverOld = await createRunner('group_type', { groupId });
  await setRunnerTimes(r.neverOld, { contactedAgoMs: null, createdAgoMs: 100 * DAY });
  r.contactedRecently = await createRunner('group_type', { groupId });
  await setRunnerTimes(r.contactedRecently, { contactedAgoMs: 10 * DAY, createdAgoMs: 200 * DAY });
  r.neverNew = await createRunner('group_type', { groupId });
  await setRunnerTimes(r.neverNew, { contactedAgoMs: null, createdAgoMs: 5 * DAY });
  return r;
}

beforeAll(async () => {
  admin = await createUser({ admin: true });
});

describe('[RUNNERS] stale cleanup preview and run', () => {
  let group: any;
  let project: any;
  let r: Record<string, number>;

  beforeAll(async () => {
    group = await createGroup(rootToken());
    project = await createProject(rootToken(), { namespaceId: group.id });
    r = await fleet(group.id);
    // A stale project runner in the group's project: not owned by the group, so outside the rule.
    r.projectStale = await createRunner('project_type', { projectId: project.id });
    await setRunnerTimes(r.projectStale, { contactedAgoMs: 100 * DAY, createdAgoMs: 200 * DAY });
  });

  it('previews the runners stale for N days, with the count and GitLab pagination headers', async () => {
    const page1 = await cleanup('GET', { stale_days: 30, owner_group_id: group.id, per_page: 1 });
    expect(page1.status).toBe(200);
    expect(page1.headers.get('x-total')).toBe('2');
    expect(page1.headers.get('x-total-pages')).toBe('2');
    expect(page1.headers.get('x-next-page')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.headers.get('link')).toContain(`owner_group_id=${group.id}`);
    const page2 = await cleanup('GET', { stale_days: 30, owner_group_id: group.id, per_page: 1, page: 2 });
    expect([...idsOf(page1.body), ...idsOf(page2.body)]).toEqual([r.staleOld, r.neverOld]);
    expect(page1.body[0]).toMatchObject({ id: r.staleOld, runner_type: 'group_type', status: 'stale' });
    // A longer threshold reaches fewer runners; with_details carries contacted_at and the owner.
    const longer = await cleanup('GET', { stale_days: 150, owner_group_id: group.id, with_details: true });
    expect(idsOf(longer.body)).toEqual([]);
    const detailed = await cleanup('GET', { stale_days: 7, owner_group_id: group.id, with_details: true });
    expect(idsOf(detailed.body)).toEqual([r.staleOld, r.neverOld, r.contactedRecently]);
    expect(detailed.body[0]._runway.owner).toMatchObject({ id: group.id });
    const byProject = await cleanup('GET', { stale_days: 30, owner_project_id: project.id, type: 'project_type' });
    expect(idsOf(byProject.body)).toEqual([r.projectStale]);
    const wrongType = await cleanup('GET', { stale_days: 30, owner_group_id: group.id, type: 'instance_type' });
    expect(wrongType.body).toEqual([]);
  });

  it('reports without deleting on a dry run (the default)', async () => {
    const dry = await cleanup('POST', { stale_days: 30, owner_group_id: group.id });
    expect(dry.status).toBe(201);
    expect(dry.body).toMatchObject({
      trigger: 'manual',
      dry_run: true,
      rule: { stale_days: 30, runner_type: null, owner_group_id: group.id, owner_project_id: null },
      user: { id: admin.id },
      matched_count: 2,
      deleted_count: 0,
    });
    expect(resultIds(dry.body, 'would_delete')).toEqual([r.staleOld, r.neverOld]);
    for (const id of [r.staleOld, r.neverOld]) expect((await api('GET', `/runners/${id}`, { token: admin.token })).status).toBe(200);
    const explicit = await cleanup('POST', { stale_days: 30, owner_group_id: group.id, dry_run: true });
    expect(explicit.body.deleted_count).toBe(0);
  });

  it('removes exactly the previewed runners, with every side effect of a delete, and records the run', async () => {
    const manager = await addManager(r.staleOld, { systemId: 's_cleanup', contactedAgoMs: 100 * DAY });
    const jobs = await addJobs(r.staleOld, project.id, 2);
    const preview = idsOf((await cleanup('GET', { stale_days: 30, owner_group_id: group.id, per_page: 100 })).body);
    const run = await cleanup('POST', { stale_days: 30, owner_group_id: group.id, dry_run: false });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ dry_run: false, matched_count: 2, deleted_count: 2, skipped_count: 0, failed_count: 0 });
    expect(resultIds(run.body, 'deleted')).toEqual(preview);
    expect(run.body.results[0]).toMatchObject({ runner_id: r.staleOld, runner_type: 'group_type', result: 'deleted', message: null });
    for (const id of preview) expect((await api('GET', `/runners/${id}`, { token: admin.token })).status).toBe(404);
    for (const id of [r.contactedRecently, r.neverNew, r.projectStale]) {
      expect((await api('GET', `/runners/${id}`, { token: admin.token })).status).toBe(200);
    }
    // As DELETE /runners/:id: managers and taggings go, jobs stay without their runner.
    expect(await dbQuery('SELECT id FROM ci_runner_machines WHERE id = $1', [manager])).toEqual([]);
    expect(await dbQuery('SELECT 1 FROM ci_runner_taggings WHERE runner_id = $1', [r.staleOld])).toEqual([]);
    const kept = await dbQuery<{ runner_id: number | null }>('SELECT runner_id FROM ci_builds WHERE id = ANY($1::int[])', [jobs]);
    expect(kept).toEqual([{ runner_id: null }, { runner_id: null }]);
    // The run is listed first, with its results.
    const runs = await api('GET', '/runners/cleanup/runs', { token: admin.token, query: { per_page: 5 } });
    expect(runs.status).toBe(200);
    expect(runs.headers.get('x-total')).toBeTruthy();
    expect(runs.body[0]).toMatchObject({ id: run.body.id, deleted_count: 2, results: run.body.results });
    expect(runs.body[0].finished_at).not.toBeNull();
    const dryOnly = await api('GET', '/runners/cleanup/runs', { token: admin.token, query: { dry_run: true } });
    expect(dryOnly.body.every((x: any) => x.dry_run)).toBe(true);
    // Nothing is left to remove.
    expect((await cleanup('GET', { stale_days: 30, owner_group_id: group.id })).body).toEqual([]);
  });
});

describe('[RUNNERS] stale cleanup run twice at once', () => {
  it('removes each runner once and answers both without an error', async () => {
    const group = await createGroup(rootToken());
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) {
      const id = await createRunner('group_type', { groupId: group.id });
      ids.push(id);
    }
    await dbQuery(`UPDATE ci_runners SET created_at = now() - interval '90 days', contacted_at = now() - interval '60 days' WHERE id = ANY($1::int[])`, [ids]);
    const body = { stale_days: 30, owner_group_id: group.id, dry_run: false };
    const [a, b] = await Promise.all([cleanup('POST', body), cleanup('POST', body)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const deletedA: number[] = resultIds(a.body, 'deleted');
    const deletedB: number[] = resultIds(b.body, 'deleted');
    expect(deletedA.filter((id) => deletedB.includes(id))).toEqual([]);
    expect([...deletedA, ...deletedB].sort((x, y) => x - y)).toEqual(ids);
    expect(a.body.failed_count + b.body.failed_count).toBe(0);
    expect(a.body.deleted_count + b.body.deleted_count).toBe(ids.length);
    // The loser's share is reported as skipped, never as failed.
    expect(a.body.deleted_count + a.body.skipped_count).toBe(a.body.matched_count);
    expect(b.body.deleted_count + b.body.skipped_count).toBe(b.body.matched_count);
    const left = await dbQuery('SELECT id FROM ci_runners WHERE id = ANY($1::int[])', [ids]);
    expect(left).toEqual([]);
  });
});

describe('[RUNNERS] stale cleanup validation and access', () => {
  let owner: TestUser;
  let group: any;

  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(rootToken());
    await addGroupMember(rootToken(), group.id, owner.id, 50);
  });

  it('answers GitLab-shaped 400s for invalid rules', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const cases: [Record<string, string | number | boolean>, Record<string, string>][] = [
        [{}, { error: 'stale_days is missing' }],
        [{ stale_days: 6 }, { error: 'stale_days must be between 7 and 3650' }],
        [{ stale_days: 3651 }, { error: 'stale_days must be between 7 and 3650' }],
        [{ stale_days: 'old' }, { error: 'stale_days is invalid' }],
        [{ stale_days: 30, type: 'bogus' }, { error: 'type does not have a valid value' }],
        [{ stale_days: 30, owner_group_id: group.id, owner_project_id: 1 }, { error: 'owner_group_id, owner_project_id are mutually exclusive' }],
      ];
      for (const [query, body] of cases) {
        const res = await cleanup(method, query);
        expect({ method, query, status: res.status, body: res.body }).toEqual({ method, query, status: 400, body });
      }
    }
    const dry = await cleanup('POST', { stale_days: 30, dry_run: 'maybe' });
    expect(dry.status).toBe(400);
    expect(dry.body).toEqual({ error: 'dry_run is invalid' });
    const missingGroup = await cleanup('POST', { stale_days: 30, owner_group_id: 999_999_999 });
    expect(missingGroup.status).toBe(404);
    expect(missingGroup.body).toEqual({ message: '404 Group Not Found' });
    const missingProject = await cleanup('GET', { stale_days: 30, owner_project_id: 999_999_999 });
    expect(missingProject.body).toEqual({ message: '404 Project Not Found' });
  });

  it('refuses non-admins, group owners included (403), and anonymous callers (401)', async () => {
    for (const token of [owner.token]) {
      expect((await cleanup('GET', { stale_days: 30, owner_group_id: group.id }, token)).status).toBe(403);
      const post = await cleanup('POST', { stale_days: 30, owner_group_id: group.id, dry_run: false }, token);
      expect(post.status).toBe(403);
      expect(post.body).toEqual({ message: '403 Forbidden' });
      expect((await api('GET', '/runners/cleanup/runs', { token })).status).toBe(403);
    }
    expect((await api('GET', '/runners/cleanup', { query: { stale_days: 30 } })).status).toBe(401);
    expect((await api('POST', '/runners/cleanup', { json: { stale_days: 30 } })).status).toBe(401);
  });
});

describe('[RUNNERS] stale cleanup schedule', () => {
  let runScheduledCleanup: (day?: Date) => Promise<number | null>;
  const settings = (json: Record<string, unknown>, token = rootToken()) => api('PUT', '/application/settings', { token, json });

  beforeAll(async () => {
    // The worker's function, run here against the test server's database as a second and third worker.
    process.env.DATABASE_URL = inject('inspectUrl');
    process.env.RUNWAY_DB_POOL_MAX = '2';
    ({ runScheduledCleanup } = await import('../../lib/runner-cleanup/schedule'));
  });

  afterAll(async () => {
    await settings({ stale_runner_cleanup_enabled: false, stale_runner_cleanup_owner_group_id: null });
    await (await import('../../lib/db/client')).disconnectDb();
  });

  it('is off by default and validates its rule as the API does', async () => {
    const got = await api('GET', '/application/settings', { token: rootToken() });
    expect(got.body).toMatchObject({ stale_runner_cleanup_enabled: false, stale_runner_cleanup_days: 90, stale_runner_cleanup_runner_type: null });
    expect((await settings({ stale_runner_cleanup_days: 3 })).body).toEqual({ message: { stale_runner_cleanup_days: ['must be between 7 and 3650'] } });
    expect((await settings({ stale_runner_cleanup_runner_type: 'bogus' })).body).toEqual({
      error: 'stale_runner_cleanup_runner_type does not have a valid value',
    });
    expect((await settings({ stale_runner_cleanup_owner_group_id: 999_999_999 })).body).toEqual({
      message: { stale_runner_cleanup_owner_group_id: ['does not exist'] },
    });
    expect((await settings({ stale_runner_cleanup_enabled: true }, admin.token)).status).toBe(200);
    expect((await settings({ stale_runner_cleanup_enabled: false })).status).toBe(200);
    const user = await createUser();
    expect((await settings({ stale_runner_cleanup_enabled: true }, user.token)).status).toBe(403);
    expect(await runScheduledCleanup(new Date('2099-01-01T00:00:00Z'))).toBeNull();
  });

  it('runs once per day across two workers and records what it removed', async () => {
    const group = await createGroup(rootToken());
    const r = await fleet(group.id);
    const set = await settings({ stale_runner_cleanup_enabled: true, stale_runner_cleanup_days: 30, stale_runner_cleanup_owner_group_id: group.id });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ stale_runner_cleanup_enabled: true, stale_runner_cleanup_days: 30, stale_runner_cleanup_owner_group_id: group.id });
    // Far-future days, so the server's own worker (which uses today) never takes them.
    const day = new Date(Date.UTC(2099, 0, 2 + Math.floor(Math.random() * 3000)));
    const outcomes = await Promise.all([runScheduledCleanup(day), runScheduledCleanup(day)]);
    const ran = outcomes.filter((x): x is number => x !== null);
    expect(ran).toHaveLength(1);
    expect(await runScheduledCleanup(day)).toBeNull();
    const rows = await dbQuery('SELECT id, trigger, dry_run, finished_at IS NOT NULL AS finished FROM runner_cleanup_runs WHERE scheduled_for = $1::date', [
      day,
    ]);
    expect(rows).toEqual([{ id: ran[0], trigger: 'schedule', dry_run: false, finished: true }]);
    const runs = await api('GET', '/runners/cleanup/runs', { token: admin.token, query: { per_page: 100 } });
    const run = runs.body.find((x: any) => x.id === ran[0]);
    expect(run).toMatchObject({ trigger: 'schedule', user: null, rule: { stale_days: 30, owner_group_id: group.id } });
    // The server's worker may have run today's cleanup meanwhile; between them, both stale runners are gone.
    expect(await dbQuery('SELECT id FROM ci_runners WHERE id = ANY($1::int[]) ORDER BY id', [[r.staleOld, r.neverOld]])).toEqual([]);
    expect(run.deleted_count + run.skipped_count).toBe(run.matched_count);
    const next = new Date(day.getTime() + DAY);
    expect(await runScheduledCleanup(next)).not.toBeNull();
  });
});
