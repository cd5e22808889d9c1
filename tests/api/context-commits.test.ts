// Merge request context commits: every status and body of GitLab's checklist, the permission matrix,
// and the race between two POSTs of the same SHA.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { api, baseUrl, rootToken } from '../support/api';
import { createToken, createUser, type TestUser } from '../support/users';
import { addGroupMember, addProjectMember, createGroup } from '../support/namespaces';
import { buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';

let repo: FixtureRepo;
let project: { id: number; path_with_namespace: string };
let users: Record<string, TestUser>;
let mrIid: number;
const base = () => `/projects/${project.id}/merge_requests/${mrIid}/context_commits`;

let branchNo = 0;
/** A branch no other test in this file has opened an MR from (GitLab allows one open MR per branch pair). */
const freshBranch = () => `ctx-${++branchNo}`;

async function newMr(source: string, target: string, token = rootToken(), extra: Record<string, unknown> = {}) {
  const res = await api('POST', `/projects/${project.id}/merge_requests`, {
    token,
    json: { source_branch: source, target_branch: target, title: `MR ${source}->${target}`, ...extra },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  repo = buildSampleRepo({ extraBranches: Array.from({ length: 12 }, (_, i) => `ctx-${i + 1}`) });
  project = await importedProject(repo.dir);
  // "author" starts as a Developer (to open the matrix MR) and is then lowered to Reporter.
  const roles: Record<string, number> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, author: 30, assignee: 20 };
  users = {};
  for (const [name, level] of Object.entries(roles)) {
    users[name] = await createUser();
    await addProjectMember(rootToken(), project.id, users[name].id, level);
  }
  users.admin = await createUser({ admin: true });
  users.outsider = await createUser();
  // Access through a group shared into the project (issue 24): the lower of the two levels counts.
  const shared: Record<string, [number, number]> = { shared_developer: [50, 30], shared_reporter: [40, 20], shared_assignee: [30, 20] };
  for (const [name, [level, groupAccess]] of Object.entries(shared)) {
    users[name] = await createUser();
    const group = await createGroup(rootToken());
    await addGroupMember(rootToken(), group.id, users[name].id, level);
    const res = await api('POST', `/projects/${project.id}/share`, { token: rootToken(), json: { group_id: group.id, group_access: groupAccess } });
    expect(res.status, res.text).toBe(201);
  }
  mrIid = (await newMr(freshBranch(), 'main')).iid;
});

afterAll(() => removeRepo(repo));

describe('[CONTEXT COMMITS] POST', () => {
  it('401 without a token, before parameter validation', async () => {
    const res = await api('POST', base(), { json: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('400 when commits is missing or empty', async () => {
    for (const [json, msg] of [
      [{}, 'commits is missing'],
      [{ commits: [] }, 'commits is empty'],
      [{ commits: '' }, 'commits is empty'],
      [{ commits: null }, 'commits is empty'],
    ] as const) {
      const res = await api('POST', base(), { token: rootToken(), json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toEqual({ error: msg });
    }
  });

  it('400 over 20 commits, before any lookup (even for an unknown project)', async () => {
    const commits = Array.from({ length: 21 }, (_, i) => `${i}`.padStart(40, 'a'));
    const expected = { message: 'Context commits array size should not be more than 20' };
    let res = await api('POST', base(), { token: rootToken(), json: { commits } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    res = await api('POST', `/projects/99999999/merge_requests/1/context_commits`, { token: rootToken(), json: { commits } });
    expect(res.body).toEqual(expected);
  });

  it('404 for an unknown project and for an unknown or non-numeric MR', async () => {
    let res = await api('POST', `/projects/99999999/merge_requests/1/context_commits`, { token: rootToken(), json: { commits: [repo.commits.init] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
    for (const iid of ['0', '99999', 'abc']) {
      res = await api('POST', `/projects/${project.id}/merge_requests/${iid}/context_commits`, { token: rootToken(), json: { commits: [repo.commits.init] } });
      expect(res.status, iid).toBe(404);
      expect(res.body).toEqual({ message: '404 Not found' });
    }
  });

  it('201 with Commit entities (trailers, web_url, offsets); accepts a unique short SHA and the URL-encoded path', async () => {
    const mr = await newMr(freshBranch(), 'main');
    const url = `/projects/${encodeURIComponent(project.path_with_namespace)}/merge_requests/${mr.iid}/context_commits`;
    const res = await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.f1.slice(0, 8), repo.commits.docs] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toHaveLength(2);
    const f1 = res.body[0];
    expect(Object.keys(f1)).toEqual([
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
    expect(f1).toEqual({
      id: repo.commits.f1,
      short_id: repo.commits.f1.slice(0, 8),
      created_at: '2024-03-04T09:15:30.000+00:00',
      parent_ids: [repo.commits.docs],
      title: 'Add feature',
      message:
        'Add feature\n\nBody of the feature commit.\n\nSigned-off-by: Ålice Müller <alice@example.com>\nCo-authored-by: 鈴木 Bob <bob@example.com>\nSigned-off-by: Carol Ó Briain <carol@example.com>\n',
      author_name: 'Ålice Müller',
      author_email: 'alice@example.com',
      authored_date: '2024-03-04T08:00:00.000+02:00',
      committer_name: 'Carol Ó Briain',
      committer_email: 'carol@example.com',
      committed_date: '2024-03-04T09:15:30.000+00:00',
      trailers: { 'Signed-off-by': 'Carol Ó Briain <carol@example.com>', 'Co-authored-by': '鈴木 Bob <bob@example.com>' },
      extended_trailers: {
        'Signed-off-by': ['Ålice Müller <alice@example.com>', 'Carol Ó Briain <carol@example.com>'],
        'Co-authored-by': ['鈴木 Bob <bob@example.com>'],
      },
      web_url: `${baseUrl()}/${project.path_with_namespace}/-/commit/${repo.commits.f1}`,
    });
    expect(res.body[1].id).toBe(repo.commits.docs);
    expect(res.body[1].authored_date).toBe('2024-03-02T09:30:00.000-05:00');

    // GET lists the stored snapshot in the order added, parent_ids null, UTC timestamps, no trailers/web_url.
    const list = await api('GET', url, { token: rootToken() });
    expect(list.status).toBe(200);
    expect(list.body.map((c: any) => c.id)).toEqual([repo.commits.f1, repo.commits.docs]);
    expect(list.body[0]).toEqual({
      id: repo.commits.f1,
      short_id: repo.commits.f1.slice(0, 8),
      created_at: '2024-03-04T09:15:30.000Z',
      parent_ids: null,
      title: 'Add feature',
      message: f1.message,
      author_name: 'Ålice Müller',
      author_email: 'alice@example.com',
      authored_date: '2024-03-04T06:00:00.000Z',
      committer_name: 'Carol Ó Briain',
      committer_email: 'carol@example.com',
      committed_date: '2024-03-04T09:15:30.000Z',
    });
    expect(list.headers.get('x-total')).toBe('2');
    expect(list.headers.get('x-total-pages')).toBe('1');
    expect(list.headers.get('x-page')).toBe('1');
    expect(list.headers.get('x-per-page')).toBe('20');
    expect(list.headers.get('x-next-page')).toBe('');
  });

  it('400 duplicates: stored full SHAs in Ruby array syntax, short SHAs matched by prefix', async () => {
    const mr = await newMr(freshBranch(), 'main');
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;
    expect((await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.init, repo.commits.docs] } })).status).toBe(201);
    let res = await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.init.slice(0, 10)] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Context commits: ["${repo.commits.init}"] are already created` });
    res = await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.docs, repo.commits.init, repo.commits.t1] } });
    expect(res.body).toEqual({ message: `Context commits: ["${repo.commits.init}", "${repo.commits.docs}"] are already created` });
  });

  it("400 One or more context commits' sha is not valid.", async () => {
    // A short and a full SHA of one commit find one commit for two ids, as a repeated SHA does.
    const shortAndFull = [repo.commits.t1.slice(0, 8), repo.commits.t1];
    for (const commits of [['invalid'], [repo.commits.t1, 'deadbeefdeadbeef'], [repo.commits.t1, repo.commits.t1], shortAndFull]) {
      const res = await api('POST', base(), { token: rootToken(), json: { commits } });
      expect(res.status, commits.join()).toBe(400);
      expect(res.body).toEqual({ message: "One or more context commits' sha is not valid." });
    }
  });

  it('accepts commits as a form array and as a comma-separated string', async () => {
    const mr = await newMr(freshBranch(), 'main');
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;
    let res = await api('POST', url, { token: rootToken(), form: { commits: [repo.commits.t1] } });
    expect(res.status, res.text).toBe(201);
    res = await api('POST', url, { token: rootToken(), form: { commits: `${repo.commits.t2}, ${repo.commits.f2}` } as never });
    expect(res.status, res.text).toBe(201);
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.t2, repo.commits.f2]);
    // Ruby's split drops a trailing empty field: "sha," is one commit.
    res = await api('POST', url, { token: rootToken(), json: { commits: `${repo.commits.after},` } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.after]);
  });

  it('403 insufficient_scope for a read_api token', async () => {
    const token = await createToken(users.developer.id, ['read_api']);
    const res = await api('POST', base(), { token, json: { commits: [repo.commits.init] } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });

  it('two concurrent POSTs of one SHA: one 201, one 400, one row', async () => {
    const mr = await newMr(freshBranch(), 'main');
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;
    for (const sha of [repo.commits.init, repo.commits.docs, repo.commits.t1]) {
      const results = await Promise.all([1, 2, 3].map(() => api('POST', url, { token: rootToken(), json: { commits: [sha] } })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 400, 400]);
      for (const r of results.filter((x) => x.status === 400)) {
        expect(r.body).toEqual({ message: `Context commits: ["${sha}"] are already created` });
      }
    }
    const list = await api('GET', url, { token: rootToken() });
    // Listed in the order they were added (GitLab's route pages by id), one row each.
    expect(list.body.map((c: any) => c.id)).toEqual([repo.commits.init, repo.commits.docs, repo.commits.t1]);
  });
});

describe('[CONTEXT COMMITS] GET and DELETE', () => {
  it("GET pages in insertion (id) order, as GitLab's route does, not by committed date, with full headers", async () => {
    const mr = await newMr(freshBranch(), 'main');
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;
    // Added in two requests: middle and oldest, then newest; committed 2024-03-07, 03-01 and 03-08. GitLab's
    // API pages merge_request.merge_request_context_commits with no order, which offset pagination orders by
    // id; only its model method context_commits (its own page) sorts by committed date.
    expect((await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.merge, repo.commits.init] } })).status).toBe(201);
    expect((await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.after] } })).status).toBe(201);
    const shas = [repo.commits.merge, repo.commits.init, repo.commits.after];
    const p1 = await api('GET', url, { token: rootToken(), query: { per_page: 2 } });
    expect(p1.body.map((c: any) => c.id)).toEqual(shas.slice(0, 2));
    expect(p1.headers.get('x-total')).toBe('3');
    expect(p1.headers.get('x-total-pages')).toBe('2');
    expect(p1.headers.get('x-next-page')).toBe('2');
    expect(p1.headers.get('link')).toContain('rel="next"');
    expect(p1.headers.get('link')).toContain('rel="last"');
    const p2 = await api('GET', url, { token: rootToken(), query: { per_page: 2, page: 2 } });
    expect(p2.body.map((c: any) => c.id)).toEqual(shas.slice(2));
    expect(p2.headers.get('x-prev-page')).toBe('1');
  });

  it('GET 404s', async () => {
    let res = await api('GET', `/projects/99999999/merge_requests/1/context_commits`, { token: rootToken() });
    expect(res.body).toEqual({ message: '404 Project Not Found' });
    res = await api('GET', `/projects/${project.id}/merge_requests/0/context_commits`, { token: rootToken() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Not found' });
  });

  it('DELETE: query or body; 204 empty; non-context real commit ignored; invalid 400; missing/empty 400; 401', async () => {
    const mr = await newMr(freshBranch(), 'main');
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`;
    await api('POST', url, { token: rootToken(), json: { commits: [repo.commits.f2, repo.commits.t2] } });
    let res = await api('DELETE', url, { json: { commits: [repo.commits.f2] } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
    res = await api('DELETE', url, { token: rootToken() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'commits is missing' });
    res = await api('DELETE', url, { token: rootToken(), json: { commits: [] } });
    expect(res.body).toEqual({ error: 'commits is empty' });
    res = await api('DELETE', url, { token: rootToken(), json: { commits: ['invalid'] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "One or more context commits' sha is not valid." });

    res = await api('DELETE', url, { token: rootToken(), query: { commits: [repo.commits.f2.slice(0, 12), repo.commits.init] } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    let list = await api('GET', url, { token: rootToken() });
    expect(list.body.map((c: any) => c.id)).not.toContain(repo.commits.f2);
    expect(list.body.map((c: any) => c.id)).toContain(repo.commits.t2);

    res = await api('DELETE', url, { token: rootToken(), json: { commits: [repo.commits.t2] } });
    expect(res.status).toBe(204);
    list = await api('GET', url, { token: rootToken() });
    expect(list.body.map((c: any) => c.id)).not.toContain(repo.commits.t2);
  });
});

describe('[CONTEXT COMMITS] permission matrix', () => {
  // Expected statuses per role on a private project: [GET, POST, DELETE].
  const matrix: Record<string, [number, number, number]> = {
    anonymous: [404, 401, 401],
    outsider: [404, 404, 404],
    guest: [403, 403, 403],
    reporter: [200, 403, 403],
    author: [200, 201, 204],
    assignee: [200, 201, 204],
    developer: [200, 201, 204],
    maintainer: [200, 201, 204],
    admin: [200, 201, 204],
    shared_developer: [200, 201, 204],
    shared_reporter: [200, 403, 403],
    // Reporter through a share and assigned to the MR: the assignee rule applies as for members.
    shared_assignee: [200, 201, 204],
  };

  let iid: number;
  beforeAll(async () => {
    // An MR authored by the reporter-level "author" (made by root for them via sudo) and assigned to "assignee".
    // Reporters cannot open MRs: "author" opens it as a Developer, then becomes a Reporter.
    const res = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: users.author.token,
      json: { source_branch: freshBranch(), target_branch: 'main', title: 'matrix MR', assignee_ids: [users.assignee.id, users.shared_assignee.id] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.author.id).toBe(users.author.id);
    expect(res.body.assignees.map((a: any) => a.id)).toEqual([users.assignee.id, users.shared_assignee.id]);
    iid = res.body.iid;
    // (No member-update endpoint is served yet, so the level is lowered in the database directly.)
    const client = new pg.Client({ connectionString: inject('inspectUrl') });
    await client.connect();
    try {
      const r = await client.query('UPDATE project_members SET access_level = 20 WHERE project_id = $1 AND user_id = $2', [project.id, users.author.id]);
      expect(r.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });

  for (const [role, [get, post, del]] of Object.entries(matrix)) {
    it(`${role}: GET ${get}, POST ${post}, DELETE ${del}`, async () => {
      const token = role === 'anonymous' ? undefined : users[role].token;
      const url = `/projects/${project.id}/merge_requests/${iid}/context_commits`;
      const r1 = await api('GET', url, { token });
      expect(r1.status, r1.text).toBe(get);
      if (get === 403) expect(r1.body).toEqual({ message: '403 Forbidden' });
      if (get === 404) expect(r1.body).toEqual({ message: '404 Project Not Found' });
      const r2 = await api('POST', url, { token, json: { commits: [repo.commits.after] } });
      expect(r2.status, r2.text).toBe(post);
      if (post === 403) expect(r2.body).toEqual({ message: '403 Forbidden' });
      const r3 = await api('DELETE', url, { token, json: { commits: [repo.commits.after] } });
      expect(r3.status, r3.text).toBe(del);
    });
  }
});
