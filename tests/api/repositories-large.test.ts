// A 5,000-commit history (built with git fast-import) imports through the queue and lists correctly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { buildLinearRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';
import { inspect } from '../support/inspect';

const COUNT = 5000;
let repo: FixtureRepo;

beforeAll(() => {
  repo = buildLinearRepo(COUNT);
});
afterAll(() => removeRepo(repo));

describe('[REPOSITORIES] large import', () => {
  it(`imports ${COUNT} commits and pages through them in order`, { timeout: 120_000 }, async () => {
    const started = Date.now();
    const p = await importedProject(repo.dir);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(90_000);
    const first = await api('GET', `/projects/${p.id}/repository/commits`, { token: rootToken(), query: { per_page: 100 } });
    expect(first.body).toHaveLength(100);
    expect(first.body[0].id).toBe(repo.branches.main);
    expect(first.body[0].title).toBe(`Commit ${COUNT}`);
    expect(first.body[0].created_at).toMatch(/\+01:00$/);
    expect(first.body[99].title).toBe(`Commit ${COUNT - 99}`);
    const last = await api('GET', `/projects/${p.id}/repository/commits`, { token: rootToken(), query: { per_page: 100, page: COUNT / 100 } });
    expect(last.body.at(-1).title).toBe('Commit 1');
    expect(last.body.at(-1).parent_ids).toEqual([]);
    expect(last.headers.get('x-next-page')).toBe(String(COUNT / 100 + 1));
    const beyond = await api('GET', `/projects/${p.id}/repository/commits`, { token: rootToken(), query: { per_page: 100, page: COUNT / 100 + 1 } });
    expect(beyond.body).toEqual([]);
  });
});

describe('[REPOSITORIES] stored default-branch membership', () => {
  it('the default branch answers every filter exactly as the walked history does', { timeout: 120_000 }, async () => {
    const p = await importedProject(repo.dir);
    // The import stored main's reach: one row per commit, marked with the tip it covers.
    const [branch] = await inspect<{ membership_sha: string; n: number }>(
      `SELECT b.membership_sha, (SELECT count(*)::int FROM branch_commits m WHERE m.branch_id = b.id) AS n
         FROM branches b WHERE b.project_id = $1 AND b.name = 'main'`,
      [p.id],
    );
    expect(branch).toEqual({ membership_sha: repo.branches.main, n: COUNT });
    const page = async (ref: string, query: Record<string, string | number>) =>
      (await api('GET', `/projects/${p.id}/repository/commits`, { token: rootToken(), query: { ref_name: ref, per_page: 40, ...query } })).body.map(
        (c: { title: string }) => c.title,
      );
    const minute = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
    const oldSha = repo.sha(`main~${COUNT - 17}`);
    const cases: Record<string, string | number>[] = [
      {},
      { page: 3 },
      { search: 'Commit 4999' },
      // Matches only outside the newest 1,000 commits: answered from the trigram index.
      { search: 'Commit 17' },
      { search: 'Commit 17', page: 2 },
      { search: oldSha.slice(0, 8) },
      { search: 'COMMIT 1', page: 4 },
      { search: 'no such words' },
      { search: '100%' },
      { author: 'dev3@EXAMPLE' },
      { author: 'Dev 3', since: minute(100), until: minute(400) },
      { since: minute(10), until: minute(80) },
      { search: 'Commit 2', since: minute(1000), until: minute(1300), page: 2 },
    ];
    // The tip's SHA as ref_name names no branch, so those pages come from walking the history.
    for (const query of cases) expect(await page('main', query), JSON.stringify(query)).toEqual(await page(repo.branches.main, query));
    expect(await page('main', { search: 'Commit 17' })).toEqual(['Commit 1799', ...Array.from({ length: 39 }, (_, i) => `Commit ${1798 - i}`)]);
    expect(await page('main', { search: oldSha.slice(0, 8) })).toEqual(['Commit 17']);
    expect(await page('main', { since: minute(10), until: minute(80) })).toHaveLength(40);
  });
});
