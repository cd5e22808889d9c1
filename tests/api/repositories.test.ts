// Repository import (git mirror -> commits and branches) and the commits and branches API.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, rootToken, uniq } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { addProjectMember, createProject } from '../support/namespaces';
import { ALICE, addCommit, buildSampleRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject, runCli, waitForImport } from '../fixtures/imports';
import { standIn } from '../fixtures/stand-ins';
import { withLocalRequests } from '../support/local-requests';

let repo: FixtureRepo;
let project: { id: number; path_with_namespace: string; default_branch: string };

beforeAll(async () => {
  repo = buildSampleRepo();
  project = await importedProject(repo.dir);
});
afterAll(() => removeRepo(repo));

const commitsUrl = () => `/projects/${project.id}/repository/commits`;

describe('[REPOSITORIES] import', () => {
  it('imports every commit and branch, sets the default branch from HEAD, and finishes', async () => {
    const p = await api('GET', `/projects/${project.id}`, { token: rootToken() });
    expect(p.body.import_status).toBe('finished');
    expect(p.body.import_error).toBeNull();
    expect(p.body.default_branch).toBe('main');
    const branches = await api('GET', `/projects/${project.id}/repository/branches`, { token: rootToken() });
    expect(branches.body.map((b: any) => [b.name, b.commit.id])).toEqual([
      ['feature', repo.commits.f2],
      ['main', repo.commits.after],
      ['topic', repo.commits.t2],
    ]);
  });

  it('parses trailers, merges, offsets and non-ASCII names exactly', async () => {
    const f1 = await api('GET', `${commitsUrl()}/${repo.commits.f1}`, { token: rootToken() });
    expect(f1.status).toBe(200);
    expect(f1.body).toMatchObject({
      id: repo.commits.f1,
      short_id: repo.commits.f1.slice(0, 8),
      parent_ids: [repo.commits.docs],
      title: 'Add feature',
      author_name: 'Ålice Müller',
      authored_date: '2024-03-04T08:00:00.000+02:00',
      committer_name: 'Carol Ó Briain',
      committed_date: '2024-03-04T09:15:30.000+00:00',
      created_at: '2024-03-04T09:15:30.000+00:00',
      trailers: { 'Signed-off-by': 'Carol Ó Briain <carol@example.com>', 'Co-authored-by': '鈴木 Bob <bob@example.com>' },
      extended_trailers: {
        'Signed-off-by': ['Ålice Müller <alice@example.com>', 'Carol Ó Briain <carol@example.com>'],
        'Co-authored-by': ['鈴木 Bob <bob@example.com>'],
      },
    });
    const merge = await api('GET', `${commitsUrl()}/${repo.commits.merge}`, { token: rootToken() });
    expect(merge.body.parent_ids).toEqual([repo.commits.docs, repo.commits.f2]);
    expect(merge.body.author_name).toBe('鈴木 Bob');
    expect(merge.body.committed_date).toBe('2024-03-07T10:00:00.000-05:00');
    expect(merge.body.title).toBe("Merge branch 'feature'");
    expect(merge.body.trailers).toEqual({});
  });

  // On the embedded database the CLI works through the running test server's connection.
  it('re-import adds new commits and moves branches (runway import-repo)', async () => {
    const fresh = buildSampleRepo();
    try {
      const p = await importedProject(fresh.dir);
      const sha = addCommit(fresh, 'topic', 'Later work on topic\n\nSigned-off-by: Ålice Müller <alice@example.com>\n', {
        ...ALICE,
        date: '2024-04-01T10:00:00+02:00',
      });
      const env = { ...process.env, ...(inject('runwayEnv') as Record<string, string>) };
      const run = await runCli(['import-repo', '--project', p.path_with_namespace, '--url', fresh.dir], env as NodeJS.ProcessEnv);
      expect(run.status, run.stderr).toBe(0);
      const b = await api('GET', `/projects/${p.id}/repository/branches`, { token: rootToken(), query: { search: 'topic' } });
      expect(b.body.map((x: any) => [x.name, x.commit.id])).toEqual([['topic', sha]]);
      const c = await api('GET', `/projects/${p.id}/repository/commits/${sha}`, { token: rootToken() });
      expect(c.body.trailers).toEqual({ 'Signed-off-by': 'Ålice Müller <alice@example.com>' });
    } finally {
      removeRepo(fresh);
    }
  });

  it('a remote URL that cannot be reached ends failed with a fixed reason', async () => {
    const maint = await createUser();
    const path = uniq('remote');
    const closed = await standIn('127.0.0.1');
    const url = `http://127.0.0.1:${closed.port}/nothing.git`;
    try {
      // Loopback is this test's stand-in for an unreachable host: imports may reach it only when an admin allows it.
      const done = await withLocalRequests(true, async () => {
        const res = await api('POST', '/projects', { token: maint.token, json: { name: path, path, import_url: url } });
        expect(res.status, res.text).toBe(201);
        return waitForImport(res.body.id, maint.token);
      });
      expect(done.import_status).toBe('failed');
      expect(done.import_error).toBe(
        `Error importing repository ${url} into ${done.path_with_namespace} - Unable to access repository with the URL and credentials provided`,
      );
    } finally {
      await closed.close();
    }
  });

  it('local paths are refused for non-admins', async () => {
    const user = await createUser();
    const path = uniq('local');
    const res = await api('POST', '/projects', { token: user.token, json: { name: path, path, import_url: repo.dir } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: { import_url: ['is blocked: Requests to the local file system are not allowed'] } });
  });
});

describe('[REPOSITORIES] GET commits', () => {
  it('lists the default branch in git log order', async () => {
    const res = await api('GET', commitsUrl(), { token: rootToken() });
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.id)).toEqual([
      repo.commits.after,
      repo.commits.merge,
      repo.commits.f2,
      repo.commits.f1,
      repo.commits.docs,
      repo.commits.init,
    ]);
    // Trailers only with trailers=true, as GitLab does.
    expect(res.body[3].trailers).toEqual({});
  });

  it('ref_name, since/until, author, search, trailers=true', async () => {
    let res = await api('GET', commitsUrl(), { token: rootToken(), query: { ref_name: 'topic' } });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.t2, repo.commits.t1, repo.commits.docs, repo.commits.init]);
    res = await api('GET', commitsUrl(), {
      token: rootToken(),
      query: { ref_name: repo.commits.f2, since: '2024-03-02T00:00:00Z', until: '2024-03-04T12:00:00Z' },
    });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.f1, repo.commits.docs]);
    res = await api('GET', commitsUrl(), { token: rootToken(), query: { author: 'bob' } });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.merge, repo.commits.docs]);
    res = await api('GET', commitsUrl(), { token: rootToken(), query: { search: 'body of the FEATURE', trailers: true } });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.f1]);
    expect(res.body[0].trailers['Co-authored-by']).toBe('鈴木 Bob <bob@example.com>');
    res = await api('GET', commitsUrl(), { token: rootToken(), query: { ref_name: 'no-such-branch' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    for (const bad of ['-main', 'main branch']) {
      res = await api('GET', commitsUrl(), { token: rootToken(), query: { ref_name: bad } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'ref_name is invalid' });
    }
  });

  it('search also matches the start of a SHA (Runway extension), never a SHA fragment or a short prefix', async () => {
    let res = await api('GET', commitsUrl(), { token: rootToken(), query: { search: repo.commits.f2.slice(0, 7).toUpperCase() } });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.f2]);
    res = await api('GET', commitsUrl(), { token: rootToken(), query: { search: repo.commits.docs } });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.docs]);
    res = await api('GET', commitsUrl(), { token: rootToken(), query: { search: repo.commits.f2.slice(5, 15) } });
    expect(res.body).toEqual([]);
    // Three hex digits is too short to name a commit: only messages are searched ("add" is hex).
    res = await api('GET', commitsUrl(), { token: rootToken(), query: { search: 'add' } });
    expect(res.body.map((c: any) => c.id)).toEqual([repo.commits.f1, repo.commits.docs]);
  });

  it('paginates without totals; X-Next-Page when the page is full', async () => {
    const p1 = await api('GET', commitsUrl(), { token: rootToken(), query: { per_page: 3 } });
    expect(p1.body).toHaveLength(3);
    expect(p1.headers.get('x-total')).toBeNull();
    expect(p1.headers.get('x-total-pages')).toBeNull();
    expect(p1.headers.get('x-next-page')).toBe('2');
    expect(p1.headers.get('link')).not.toContain('rel="last"');
    const p2 = await api('GET', commitsUrl(), { token: rootToken(), query: { per_page: 3, page: 2 } });
    expect(p2.body.map((c: any) => c.id)).toEqual([repo.commits.f1, repo.commits.docs, repo.commits.init]);
    expect(p2.headers.get('x-next-page')).toBe('3');
    const p3 = await api('GET', commitsUrl(), { token: rootToken(), query: { per_page: 4, page: 2 } });
    expect(p3.body).toHaveLength(2);
    expect(p3.headers.get('x-next-page')).toBe('');
    const bad = await api('GET', commitsUrl(), { token: rootToken(), query: { per_page: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'per_page does not have a valid value' });
  });

  it('GET one commit by full or short SHA; 404 Commit Not Found', async () => {
    const short = await api('GET', `${commitsUrl()}/${repo.commits.docs.slice(0, 7)}`, { token: rootToken() });
    expect(short.status).toBe(200);
    expect(short.body.id).toBe(repo.commits.docs);
    expect(short.body.message).toBe('Add docs\n\nExplain the layout.\n');
    for (const sha of ['0000000000000000000000000000000000000000', 'nothex']) {
      const res = await api('GET', `${commitsUrl()}/${sha}`, { token: rootToken() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Commit Not Found' });
    }
  });
});

describe('[REPOSITORIES] GET branches', () => {
  it('Branch entity in GitLab order, merged/default/protected, search and pagination', async () => {
    const res = await api('GET', `/projects/${project.id}/repository/branches`, { token: rootToken(), query: { per_page: 2 } });
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-total-pages')).toBe('2');
    const [feature, main] = res.body;
    expect(Object.keys(feature)).toEqual([
      'name',
      'commit',
      'merged',
      'protected',
      'developers_can_push',
      'developers_can_merge',
      'can_push',
      'default',
      'web_url',
    ]);
    expect(feature).toMatchObject({ name: 'feature', merged: true, protected: false, default: false, can_push: true });
    expect(main).toMatchObject({ name: 'main', merged: false, protected: true, default: true });
    expect(feature.web_url).toMatch(new RegExp(`/${project.path_with_namespace}/-/tree/feature$`));
    const topic = await api('GET', `/projects/${project.id}/repository/branches`, { token: rootToken(), query: { search: 'opi' } });
    expect(topic.body.map((b: any) => [b.name, b.merged])).toEqual([['topic', false]]);
    const anchored = await api('GET', `/projects/${project.id}/repository/branches`, { token: rootToken(), query: { search: '^ma' } });
    expect(anchored.body.map((b: any) => b.name)).toEqual(['main']);
    const one = await api('GET', `/projects/${project.id}/repository/branches/feature`, { token: rootToken() });
    expect(one.body.commit.id).toBe(repo.commits.f2);
    const none = await api('GET', `/projects/${project.id}/repository/branches/nope`, { token: rootToken() });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: '404 Branch Not Found' });
  });
});

describe('[REPOSITORIES] read access', () => {
  let users: Record<string, TestUser>;
  beforeAll(async () => {
    users = { guest: await createUser(), reporter: await createUser(), outsider: await createUser() };
    await addProjectMember(rootToken(), project.id, users.guest.id, 10);
    await addProjectMember(rootToken(), project.id, users.reporter.id, 20);
  });

  it('private: anonymous and outsiders 404, guests 403, reporters 200', async () => {
    for (const [who, token, status] of [
      ['anonymous', undefined, 404],
      ['outsider', () => users.outsider.token, 404],
      ['guest', () => users.guest.token, 403],
      ['reporter', () => users.reporter.token, 200],
    ] as const) {
      for (const path of [commitsUrl(), `/projects/${project.id}/repository/branches`, `${commitsUrl()}/${repo.commits.init}`]) {
        const res = await api('GET', path, { token: typeof token === 'function' ? token() : undefined });
        expect(res.status, `${who} ${path}`).toBe(status);
        if (status === 403) expect(res.body).toEqual({ message: '403 Forbidden' });
        if (status === 404) expect(res.body).toEqual({ message: '404 Project Not Found' });
      }
    }
  });

  it('public: anonymous may read commits', async () => {
    const pub = buildSampleRepo();
    try {
      const p = await importedProject(pub.dir, { visibility: 'public' });
      const res = await api('GET', `/projects/${p.id}/repository/commits`);
      expect(res.status).toBe(200);
      expect(res.body[0].id).toBe(pub.commits.after);
    } finally {
      removeRepo(pub);
    }
  });

  it('an empty project lists no commits and no branches', async () => {
    const p = await createProject(rootToken());
    expect((await api('GET', `/projects/${p.id}/repository/commits`, { token: rootToken() })).body).toEqual([]);
    expect((await api('GET', `/projects/${p.id}/repository/branches`, { token: rootToken() })).body).toEqual([]);
  });
});
