// A 5,000-commit history (built with git fast-import) imports through the queue and lists correctly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { buildLinearRepo, removeRepo, type FixtureRepo } from '../fixtures/git-repos';
import { importedProject } from '../fixtures/imports';

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
