// GET /runners/:id/jobs: JobBasicWithProject shape, status/system_id filters, ordering, Reporter+ row
// filtering, pagination (offset headers, no X-Total with system_id, keyset rules and limits).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addProjectMember, createGroup, createProject } from '../support/namespaces';
import { createUser, type TestUser } from '../support/users';
import { addJobs, addManager, createRunner, dbQuery, linkProject } from './runners-admin-support';

const JOB_KEYS = [
  'id',
  'status',
  'stage',
  'name',
  'ref',
  'tag',
  'coverage',
  'allow_failure',
  'created_at',
  'started_at',
  'finished_at',
  'erased_at',
  'duration',
  'queued_duration',
  'user',
  'commit',
  'pipeline',
  'web_url',
  'project',
];

let admin: TestUser;
let maintainer: TestUser;
let runner: number;
let p1: any;
let p2: any;
let success: number[];
let failed: number[];
let running: number[];
let onP2: number[];
let managerJobs: number[];

describe('[RUNNERS] GET /runners/:id/jobs', () => {
  beforeAll(async () => {
    const root = rootToken();
    [admin, maintainer] = await Promise.all([createUser({ admin: true }), createUser()]);
    const group = await createGroup(root);
    p1 = await createProject(root, { namespaceId: group.id });
    p2 = await createProject(root);
    await addProjectMember(root, p1.id, maintainer.id, 40);
    await addProjectMember(root, p2.id, maintainer.id, 10);
    runner = await createRunner('project_type', { projectId: p1.id });
    await linkProject(runner, p2.id);
    const m = await addManager(runner, { systemId: 's_jobsjobsjobs', version: '18.0.0' });
    success = await addJobs(runner, p1.id, 3, { status: 'success', userId: maintainer.id });
    failed = await addJobs(runner, p1.id, 2, { status: 'failed' });
    running = await addJobs(runner, p1.id, 1, { status: 'running' });
    onP2 = await addJobs(runner, p2.id, 2, { status: 'success' });
    managerJobs = await addJobs(runner, p1.id, 2, { status: 'success', managerId: m });
  });

  it('lists jobs as JobBasicWithProject in id ascending order by default', async () => {
    const res = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const everything = [...success, ...failed, ...running, ...onP2, ...managerJobs];
    expect(res.body.map((j: any) => j.id)).toEqual(everything);
    expect(res.headers.get('x-total')).toBe(String(everything.length));
    const first = res.body[0];
    expect(Object.keys(first)).toEqual(JOB_KEYS);
    expect(first).toMatchObject({ status: 'success', stage: 'test', ref: 'main', tag: false, coverage: null, allow_failure: false, queued_duration: 1.5 });
    expect(first.duration).toBeGreaterThan(500);
    expect(first.user).toMatchObject({ id: maintainer.id, username: maintainer.username });
    expect(Object.keys(first.pipeline)).toEqual(['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'web_url']);
    expect(first.pipeline.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(first.project).toEqual({
      id: p1.id,
      description: p1.description ?? null,
      name: p1.name,
      name_with_namespace: p1.name_with_namespace,
      path: p1.path,
      path_with_namespace: p1.path_with_namespace,
      created_at: p1.created_at,
    });
    expect(first.web_url).toMatch(new RegExp(`/${p1.path_with_namespace}/-/jobs/${first.id}$`));
    const failedJob = res.body.find((j: any) => j.id === failed[0]);
    expect(Object.keys(failedJob)).toEqual([...JOB_KEYS.slice(0, 17), 'failure_reason', 'web_url', 'project']);
    expect(failedJob.failure_reason).toBe('script_failure');
    expect(res.body.find((j: any) => j.id === running[0]).finished_at).toBeNull();
  });

  it("shows the pipeline commit as GitLab's Commit entity when the commit is known", async () => {
    const [{ sha }] = await dbQuery(`SELECT p.sha FROM ci_builds b JOIN ci_pipelines p ON p.id = b.pipeline_id WHERE b.id = $1`, [success[0]]);
    await dbQuery(
      `INSERT INTO commits (project_id, sha, parent_shas, author_name, author_email, authored_date, committer_name, committer_email, committed_date, title, message)
       VALUES ($1, $2, '{}', 'Ann', 'ann@example.com', '2026-01-02T03:04:05Z', 'Ann', 'ann@example.com', '2026-01-02T03:04:05Z', 'Fix it', 'Fix it\n\nBody')`,
      [p1.id, sha],
    );
    const res = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { status: 'success', per_page: 1 } });
    expect(Object.keys(res.body[0].commit)).toEqual([
      'id',
      'short_id',
      'created_at',
      'parent_ids',
      'title',
      'message',
      'author_name',
      'author_email',
      'authored_date',
      'committer_name',
      'committer_email',
      'committed_date',
      'trailers',
      'extended_trailers',
      'web_url',
    ]);
    expect(res.body[0].commit).toMatchObject({ id: sha, short_id: sha.slice(0, 8), title: 'Fix it', author_name: 'Ann' });
  });

  it('filters by status and orders by id when asked', async () => {
    const byStatus = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { status: 'failed' } });
    expect(byStatus.body.map((j: any) => j.id)).toEqual(failed);
    const desc = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { status: 'success', order_by: 'id' } });
    expect(desc.body.map((j: any) => j.id)).toEqual([...success, ...onP2, ...managerJobs].sort((a, b) => b - a));
    const asc = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { status: 'success', order_by: 'id', sort: 'asc' } });
    expect(asc.body.map((j: any) => j.id)).toEqual([...success, ...onP2, ...managerJobs]);
    for (const [query, error] of [
      [{ status: 'bogus' }, 'status does not have a valid value'],
      [{ order_by: 'name' }, 'order_by does not have a valid value'],
      [{ sort: 'up' }, 'sort does not have a valid value'],
    ] as const) {
      expect(await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query })).toMatchObject({ status: 400, body: { error } });
    }
  });

  it('filters by system_id without counting', async () => {
    const res = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { system_id: 's_jobsjobsjobs' } });
    expect(res.body.map((j: any) => j.id)).toEqual(managerJobs);
    expect(res.headers.get('x-total')).toBeNull();
    expect(res.headers.get('x-total-pages')).toBeNull();
    expect(res.headers.get('x-page')).toBe('1');
    const unknown = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { system_id: 'nope' } });
    expect(unknown).toMatchObject({ status: 200, body: [] });
  });

  it('shows non-admins only jobs of projects where they are Reporter+', async () => {
    const res = await api('GET', `/runners/${runner}/jobs`, { token: maintainer.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const got = res.body.map((j: any) => j.id);
    expect(got).toEqual([...success, ...failed, ...running, ...managerJobs]);
    expect(got).not.toEqual(expect.arrayContaining(onP2));
  });

  it('paginates with offsets, and enforces keyset and offset limits', async () => {
    const page2 = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { per_page: 3, page: 2 } });
    expect(page2.body.map((j: any) => j.id)).toEqual([failed[0], failed[1], running[0]]);
    expect(page2.headers.get('x-total-pages')).toBe('4');
    expect(page2.headers.get('x-prev-page')).toBe('1');
    expect(await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { pagination: 'keyset' } })).toMatchObject({
      status: 405,
      body: { error: 'Keyset pagination is not yet available for this type of request' },
    });
    const far = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { per_page: 100, page: 501 } });
    expect(far).toMatchObject({
      status: 405,
      body: {
        error:
          'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Ci::Build. Remaining records can be retrieved using keyset pagination.',
      },
    });
    const k1 = await api('GET', `/runners/${runner}/jobs`, { token: admin.token, query: { pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: 4 } });
    expect(k1.body.map((j: any) => j.id)).toEqual([...success, failed[0]]);
    const next = /<([^>]+)>; rel="next"/.exec(k1.headers.get('link') ?? '')![1];
    const k2 = await fetch(next, { headers: { 'PRIVATE-TOKEN': admin.token } });
    expect((await k2.json()).map((j: any) => j.id)).toEqual([failed[1], running[0], onP2[0], onP2[1]]);
  });

  it('answers 404 for a missing runner and 403 for the instance runner of a non-admin', async () => {
    expect(await api('GET', '/runners/999999999/jobs', { token: admin.token })).toMatchObject({ status: 404, body: { message: '404 Runner Not Found' } });
    const inst = await createRunner('instance_type');
    expect(await api('GET', `/runners/${inst}/jobs`, { token: maintainer.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - No access granted' },
    });
  });
});
