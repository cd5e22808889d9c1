// [FLEET] The runner usage export (issue 33, GitLab Ultimate's runner usage report, streamed at once):
// GET /runners/usage (admins) and GET /groups/:id/runners/usage (group Owners) answer CSV per runner and
// project for jobs finished in a period. Jobs are dated in March 2001 so the instance-wide export of the
// shared test database holds this file's rows only; the values are checked exactly.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addGroupMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { createRunner, dbQuery } from './runners-admin-support';

const HEADER =
  'Runner ID,Runner type,Runner description,Project ID,Project path,Job count,Failed job count,Failed share (%),Total duration (minutes),Median duration (minutes),Total queued duration (minutes),Median queued duration (minutes)';
const MARCH = { from: '2001-03-01', to: '2001-03-31' };

/** Jobs of `runnerId` in `projectId`, each [finished at, seconds run, seconds queued, status]. */
async function jobs(runnerId: number, projectId: number, list: Array<[string, number, number, string]>) {
  const [pipeline] = await dbQuery<{ id: number }>(
    `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, updated_at)
     VALUES ((SELECT COALESCE(MAX(iid), 0) + 1 FROM ci_pipelines WHERE project_id = $1), $1, md5(random()::text), 'main', 'success', 'push', now()) RETURNING id`,
    [projectId],
  );
  for (const [finished, seconds, queued, status] of list) {
    await dbQuery(
      `INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, started_at, finished_at, queued_duration)
       VALUES ($1, $2, $3, $4, 'test', 'job', 'main', $5::timestamptz - make_interval(secs => $6), $5::timestamptz, $7)`,
      [runnerId, projectId, pipeline.id, status, finished, seconds, queued],
    );
  }
}

const rowsOf = (text: string) => text.trimEnd().split('\r\n');

describe('[FLEET] runner usage export', () => {
  let owner: TestUser, maintainer: TestUser, outsider: TestUser;
  let group: { id: number; full_path: string }, p1: { id: number; path_with_namespace: string }, p2: { id: number; path_with_namespace: string };
  let other: { id: number; path_with_namespace: string };
  const r = {} as Record<'group' | 'sub' | 'project' | 'foreign' | 'instance', number>;

  beforeAll(async () => {
    const root = rootToken();
    [owner, maintainer, outsider] = await Promise.all([createUser(), createUser(), createUser()]);
    group = await createGroup(root, { visibility: 'private' });
    const sub = await createGroup(root, { parentId: group.id, visibility: 'private' });
    p1 = await createProject(root, { namespaceId: group.id });
    p2 = await createProject(root, { namespaceId: sub.id });
    other = await createProject(root);
    const elsewhere = await createGroup(root);
    await addGroupMember(root, group.id, owner.id, 50);
    await addGroupMember(root, group.id, maintainer.id, 40);
    r.group = await createRunner('group_type', { groupId: group.id, description: 'build, "fast" pool' });
    r.sub = await createRunner('group_type', { groupId: sub.id, description: '=HYPERLINK("x")' });
    r.project = await createRunner('project_type', { projectId: p1.id, description: 'p1 runner' });
    r.foreign = await createRunner('group_type', { groupId: elsewhere.id, description: 'foreign' });
    r.instance = await createRunner('instance_type', { description: 'shared' });
    await jobs(r.group, p1.id, [
      ['2001-03-10T10:00:00Z', 60, 10, 'success'],
      ['2001-03-10T11:00:00Z', 120, 20, 'failed'],
      ['2001-03-10T12:00:00Z', 300, 30, 'success'],
      // Before and after the period: not counted.
      ['2001-02-28T23:59:59Z', 999, 99, 'success'],
    ]);
    await jobs(r.group, p2.id, [
      ['2001-03-31T23:59:59Z', 600, 6, 'success'],
      ['2001-04-01T00:00:00Z', 999, 99, 'success'],
    ]);
    await jobs(r.sub, p2.id, [
      ['2001-03-05T00:00:00Z', 30, 3, 'failed'],
      ['2001-03-06T00:00:00Z', 90, 9, 'canceled'],
    ]);
    await jobs(r.project, p1.id, [['2001-03-15T00:00:00Z', 240, 0, 'success']]);
    await jobs(r.foreign, other.id, [['2001-03-15T00:00:00Z', 60, 60, 'success']]);
    await jobs(r.instance, other.id, [['2001-03-20T00:00:00Z', 180, 12, 'failed']]);
  });

  const expected = () => ({
    group1: `${r.group},group_type,"build, ""fast"" pool",${p1.id},${p1.path_with_namespace},3,1,33.3,8,2,1,0.33`,
    group2: `${r.group},group_type,"build, ""fast"" pool",${p2.id},${p2.path_with_namespace},1,0,0,10,10,0.1,0.1`,
    // A description a spreadsheet would run as a formula is written as text.
    sub: `${r.sub},group_type,"'=HYPERLINK(""x"")",${p2.id},${p2.path_with_namespace},2,1,50,2,1,0.2,0.1`,
    project: `${r.project},project_type,p1 runner,${p1.id},${p1.path_with_namespace},1,0,0,4,4,0,0`,
    foreign: `${r.foreign},group_type,foreign,${other.id},${other.path_with_namespace},1,0,0,1,1,1,1`,
    instance: `${r.instance},instance_type,shared,${other.id},${other.path_with_namespace},1,1,100,3,3,0.2,0.2`,
  });

  it("exports a group's runners (its own, its subgroups' and its projects') to an Owner, per runner and project", async () => {
    const res = await api('GET', `/groups/${group.id}/runners/usage`, { token: owner.token, query: MARCH });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="${group.full_path.replace(/\//g, '-')}-runner-usage-2001-03-01-to-2001-03-31.csv"`,
    );
    expect(res.headers.get('x-runway-usage-runners')).toBe('3');
    const e = expected();
    expect(rowsOf(res.text)).toEqual([HEADER, e.group1, e.group2, e.sub, e.project]);
  });

  it('exports every runner to an admin, filtered by runner type when asked', async () => {
    const all = await api('GET', '/runners/usage', { token: rootToken(), query: MARCH });
    expect(all.status, all.text).toBe(200);
    const e = expected();
    expect(rowsOf(all.text)).toEqual([HEADER, e.group1, e.group2, e.sub, e.project, e.foreign, e.instance]);
    expect(all.headers.get('x-runway-usage-runners')).toBe('5');
    const groups = await api('GET', '/runners/usage', { token: rootToken(), query: { ...MARCH, runner_type: 'group_type' } });
    expect(rowsOf(groups.text)).toEqual([HEADER, e.group1, e.group2, e.sub, e.foreign]);
    // A day: one job.
    const day = await api('GET', '/runners/usage', { token: rootToken(), query: { from: '2001-03-20', to: '2001-03-20' } });
    expect(rowsOf(day.text)).toEqual([HEADER, e.instance]);
  });

  it('defaults to the last full month (UTC), as GitLab does', async () => {
    const res = await api('GET', '/runners/usage', { token: rootToken() });
    expect(res.status).toBe(200);
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="instance-runner-usage-${iso(first)}-to-${iso(last)}.csv"`);
    expect(rowsOf(res.text)[0]).toBe(HEADER);
  });

  it('refuses Maintainers, non-admins and anonymous callers, and hides private groups from outsiders', async () => {
    expect((await api('GET', `/groups/${group.id}/runners/usage`, { token: maintainer.token, query: MARCH })).status).toBe(403);
    expect((await api('GET', `/groups/${group.id}/runners/usage`, { token: outsider.token, query: MARCH })).status).toBe(404);
    expect((await api('GET', `/groups/${group.id}/runners/usage`, { query: MARCH })).status).toBe(401);
    const user = await api('GET', '/runners/usage', { token: owner.token, query: MARCH });
    expect([user.status, user.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('validates the period and the runner type with GitLab-shaped 400s', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ from: '2001-03-31', to: '2001-03-01' }, 'to must be on or after from'],
      [{ from: '2001-01-01', to: '2002-01-02' }, 'the period is longer than 366 days'],
      [{ from: 'March' }, 'from is invalid'],
      [{ runner_type: 'shared' }, 'runner_type does not have a valid value'],
    ];
    for (const [query, error] of cases) {
      const res = await api('GET', '/runners/usage', { token: rootToken(), query });
      expect([res.status, res.body], JSON.stringify(query)).toEqual([400, { error }]);
    }
    // A calendar year fits.
    expect((await api('GET', '/runners/usage', { token: rootToken(), query: { from: '2000-01-01', to: '2000-12-31' } })).status).toBe(200);
  });

  it('audits each export on its scope, as GitLab does (ci_runner_usage_export)', async () => {
    expect((await api('GET', `/groups/${group.id}/runners/usage`, { token: owner.token, query: { ...MARCH, runner_type: 'group_type' } })).status).toBe(200);
    const events = await api('GET', '/audit_events', { token: rootToken(), query: { entity_type: 'Group', entity_id: String(group.id), per_page: '100' } });
    expect(events.status, events.text).toBe(200);
    const exports = (events.body as Array<{ event_name: string; author_id: number; details: Record<string, unknown> }>).filter(
      (e) => e.event_name === 'ci_runner_usage_export' && e.details.runner_type === 'group_type',
    );
    expect(exports.length).toBeGreaterThanOrEqual(1);
    expect(exports[0]).toMatchObject({
      author_id: owner.id,
      details: { custom_message: 'Generated CI runner usage report', from_date: '2001-03-01', to_date: '2001-03-31', runner_type: 'group_type' },
    });
  });
});
