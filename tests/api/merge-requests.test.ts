// Merge requests: create (validation, branch checks, 409 for an open duplicate, iids under concurrency),
// list, show, and the commits of an MR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addProjectMember } from '../support/namespaces';
import { buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';

let repo: FixtureRepo;
let project: { id: number; path_with_namespace: string };
let dev: TestUser;
let reporter: TestUser;
const mrs = () => `/projects/${project.id}/merge_requests`;

beforeAll(async () => {
  repo = buildSampleRepo({ extraBranches: Array.from({ length: 9 }, (_, i) => `mr-${i + 1}`) });
  project = await importedProject(repo.dir);
  dev = await createUser();
  reporter = await createUser();
  await addProjectMember(rootToken(), project.id, dev.id, 30);
  await addProjectMember(rootToken(), project.id, reporter.id, 20);
});
afterAll(() => removeRepo(repo));

describe('[MERGE REQUESTS] create', () => {
  it('401, then Grape messages in declaration order', async () => {
    let res = await api('POST', mrs(), { json: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
    res = await api('POST', mrs(), { token: dev.token, json: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'title is missing, source_branch is missing, target_branch is missing' });
    res = await api('POST', mrs(), { token: dev.token, json: { title: 'x', source_branch: 'topic' } });
    expect(res.body).toEqual({ error: 'target_branch is missing' });
  });

  it('404 project, 403 for a reporter', async () => {
    let res = await api('POST', '/projects/99999999/merge_requests', { token: dev.token, json: { title: 't', source_branch: 'topic', target_branch: 'main' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
    res = await api('POST', mrs(), { token: reporter.token, json: { title: 't', source_branch: 'topic', target_branch: 'main' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });

  it('422 for the same branch or a missing branch; 409 for a second open MR of the same branches', async () => {
    let res = await api('POST', mrs(), { token: dev.token, json: { title: 't', source_branch: 'main', target_branch: 'main' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    res = await api('POST', mrs(), { token: dev.token, json: { title: 't', source_branch: 'nope', target_branch: 'gone' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: ['Source branch "nope" does not exist', 'Target branch "gone" does not exist'] });
    const first = await api('POST', mrs(), { token: dev.token, json: { title: 'First', source_branch: 'mr-1', target_branch: 'main' } });
    expect(first.status).toBe(201);
    res = await api('POST', mrs(), { token: dev.token, json: { title: 'Second', source_branch: 'mr-1', target_branch: 'main' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: [`Another open merge request already exists for this source branch: !${first.body.iid}`] });
  });

  it('201 with the MergeRequest entity in GitLab order', async () => {
    const res = await api('POST', mrs(), {
      token: dev.token,
      json: { title: 'Draft: Topic work', source_branch: 'topic', target_branch: 'main', description: 'Why', assignee_ids: [reporter.id] },
    });
    expect(res.status, res.text).toBe(201);
    const mr = res.body;
    expect(Object.keys(mr).slice(0, 12)).toEqual([
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'merged_by',
      'merge_user',
      'merged_at',
      'closed_by',
    ]);
    expect(mr).toMatchObject({
      project_id: project.id,
      title: 'Draft: Topic work',
      description: 'Why',
      state: 'opened',
      source_branch: 'topic',
      target_branch: 'main',
      source_project_id: project.id,
      target_project_id: project.id,
      draft: true,
      work_in_progress: true,
      sha: repo.commits.t2,
      reference: `!${mr.iid}`,
      references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${project.path_with_namespace}!${mr.iid}` },
      web_url: `${baseUrl()}/${project.path_with_namespace}/-/merge_requests/${mr.iid}`,
      user: { can_merge: true },
    });
    expect(mr.author).toEqual({
      id: dev.id,
      username: dev.username,
      public_email: null,
      name: expect.any(String),
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${baseUrl()}/${dev.username}`,
    });
    expect(mr.assignees.map((a: any) => a.id)).toEqual([reporter.id]);
    expect(mr.assignee.id).toBe(reporter.id);
    expect(mr.diff_refs).toEqual({ base_sha: repo.commits.after, head_sha: repo.commits.t2, start_sha: repo.commits.after });
  });

  it('reviewer_ids: the reviewers in the order given, in the UserBasic shape; users who cannot read the MR dropped', async () => {
    const outsider = await createUser();
    const res = await api('POST', mrs(), {
      token: dev.token,
      json: { title: 'Reviewed work', source_branch: 'mr-9', target_branch: 'main', reviewer_ids: [reporter.id, outsider.id, dev.id] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.reviewers.map((r: any) => r.id)).toEqual([reporter.id, dev.id]);
    expect(res.body.reviewers[0]).toEqual({
      id: reporter.id,
      username: reporter.username,
      public_email: null,
      name: expect.any(String),
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${baseUrl()}/${reporter.username}`,
    });
    expect(res.body.assignees).toEqual([]);
    // Read back, one and in the list.
    const one = await api('GET', `${mrs()}/${res.body.iid}`, { token: dev.token });
    expect(one.body.reviewers.map((r: any) => r.id)).toEqual([reporter.id, dev.id]);
    const list = await api('GET', mrs(), { token: dev.token, query: { per_page: 100 } });
    expect(list.body.find((m: any) => m.iid === res.body.iid).reviewers.map((r: any) => r.id)).toEqual([reporter.id, dev.id]);
  });

  it('allocates distinct iids under concurrency', async () => {
    const results = await Promise.all(
      ['mr-2', 'mr-3', 'mr-4', 'mr-5', 'mr-6'].map((b) =>
        api('POST', mrs(), { token: dev.token, json: { title: b, source_branch: b, target_branch: 'main' } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const iids = results.map((r) => r.body.iid);
    expect(new Set(iids).size).toBe(5);
  });

  it('one of two concurrent identical creates gets 409', async () => {
    const results = await Promise.all(
      [1, 2].map(() => api('POST', mrs(), { token: dev.token, json: { title: 'race', source_branch: 'mr-7', target_branch: 'main' } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('[MERGE REQUESTS] read', () => {
  it('lists newest first with full pagination headers, filters by state, simple view', async () => {
    const res = await api('GET', mrs(), { token: reporter.token, query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0].iid).toBeGreaterThan(res.body[1].iid);
    expect(Number(res.headers.get('x-total'))).toBeGreaterThanOrEqual(8);
    expect(res.headers.get('x-next-page')).toBe('2');
    const closed = await api('GET', mrs(), { token: reporter.token, query: { state: 'closed' } });
    expect(closed.body).toEqual([]);
    const opened = await api('GET', mrs(), { token: reporter.token, query: { state: 'opened', view: 'simple', per_page: 1 } });
    expect(Object.keys(opened.body[0])).toEqual(['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'web_url']);
    const bad = await api('GET', mrs(), { token: reporter.token, query: { state: 'bogus' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'state does not have a valid value' });
  });

  it('search (title or description) and author_id / author_username filter the list', async () => {
    const created = await api('POST', mrs(), {
      token: dev.token,
      json: { title: 'Searchable zebra change', description: 'Mentions a quokka', source_branch: 'mr-8', target_branch: 'main' },
    });
    expect(created.status, created.text).toBe(201);
    let res = await api('GET', mrs(), { token: reporter.token, query: { search: 'ZEBRA' } });
    expect(res.body.map((m: any) => m.iid)).toEqual([created.body.iid]);
    res = await api('GET', mrs(), { token: reporter.token, query: { search: 'quokka' } });
    expect(res.body.map((m: any) => m.iid)).toEqual([created.body.iid]);
    res = await api('GET', mrs(), { token: reporter.token, query: { author_username: dev.username.toUpperCase() } });
    expect(res.body.map((m: any) => m.author.id)).toContain(dev.id);
    expect(new Set(res.body.map((m: any) => m.author.id))).toEqual(new Set([dev.id]));
    res = await api('GET', mrs(), { token: reporter.token, query: { author_id: dev.id, search: 'zebra' } });
    expect(res.body.map((m: any) => m.iid)).toEqual([created.body.iid]);
    expect(res.headers.get('x-total')).toBe('1');
    res = await api('GET', mrs(), { token: reporter.token, query: { author_id: reporter.id } });
    expect(res.body).toEqual([]);
  });

  it('assignee_username (one value, as Community Edition) and reviewer_username filter the list', async () => {
    const [zebra] = (await api('GET', mrs(), { token: reporter.token, query: { search: 'zebra' } })).body;
    const [assignee, reviewer] = [await createUser(), await createUser()];
    await addProjectMember(rootToken(), project.id, assignee.id, 30);
    await addProjectMember(rootToken(), project.id, reviewer.id, 20);
    const put = await api('PUT', `${mrs()}/${zebra.iid}`, { token: dev.token, json: { assignee_ids: [assignee.id], reviewer_ids: [reviewer.id] } });
    expect(put.status, put.text).toBe(200);
    let res = await api('GET', mrs(), { token: reporter.token, query: { assignee_username: assignee.username.toUpperCase() } });
    expect(res.body.map((m: any) => m.iid)).toEqual([zebra.iid]);
    res = await api('GET', `${mrs()}?assignee_username[]=${assignee.username}`, { token: reporter.token });
    expect(res.body.map((m: any) => m.iid)).toEqual([zebra.iid]);
    res = await api('GET', mrs(), { token: reporter.token, query: { reviewer_username: reviewer.username } });
    expect(res.body.map((m: any) => m.iid)).toEqual([zebra.iid]);
    expect(res.headers.get('x-total')).toBe('1');
    res = await api('GET', mrs(), { token: reporter.token, query: { reviewer_username: assignee.username } });
    expect(res.body).toEqual([]);
    res = await api('GET', `${mrs()}?assignee_username[]=${assignee.username}&assignee_username[]=${reviewer.username}`, { token: reporter.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `assignee_username allows one value, but found 2: ${assignee.username}, ${reviewer.username}` });
  });

  it('GET one: 404 "Not found", 400 for a non-integer iid, 403 for a guest of a private project', async () => {
    let res = await api('GET', `${mrs()}/99999`, { token: reporter.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Not found' });
    res = await api('GET', `${mrs()}/abc`, { token: reporter.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'merge_request_iid is invalid' });
    const guest = await createUser();
    await addProjectMember(rootToken(), project.id, guest.id, 10);
    res = await api('GET', `${mrs()}/1`, { token: guest.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });

  it('GET .../commits lists source commits missing from the target, newest first', async () => {
    const created = await api('POST', mrs(), { token: dev.token, json: { title: 'feature into topic', source_branch: 'feature', target_branch: 'topic' } });
    expect(created.status, created.text).toBe(201);
    const res = await api('GET', `${mrs()}/${created.body.iid}/commits`, { token: reporter.token });
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.f2, repo.commits.f1]);
    expect(res.body[1].extended_trailers['Signed-off-by']).toHaveLength(2);
    expect(res.headers.get('x-total')).toBe('2');
    const one = await api('GET', `${mrs()}/${created.body.iid}`, { token: reporter.token });
    expect(one.body.sha).toBe(repo.commits.f2);
    expect(one.body.user).toEqual({ can_merge: false });
  });
});
