// [REPOSITORY] A project's Commits and Branches pages, reached from the project's page: the history of a
// ref grouped by day with search, the branch switcher and Previous/Next; the branches with their badges and
// last commit, filtered by name. Seeds through the API: fixture repositories built with git are imported.
import { expect, test, type Page } from '@playwright/test';
import { buildHistoryRepo, removeRepo } from '../tests/fixtures/git-repos';
import { expectAccessible, screenshot } from './support/axe';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

async function importProject(page: Page, dir: string) {
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const path = uniq('repo-e2e');
  const p = await jsonOf<{ id: number; path_with_namespace: string }>(
    await page.request.post('/api/v4/projects', { data: { name: path, path, visibility: 'private', import_url: dir }, headers }),
    201,
  );
  await expect
    .poll(async () => (await jsonOf<{ import_status: string }>(await page.request.get(`/api/v4/projects/${p.id}`), 200)).import_status, { timeout: 60_000 })
    .toBe('finished');
  return p;
}

const commitItems = (page: Page) => page.locator('main ul[aria-label^="Commits on"] > li');

test('[REPOSITORY] the project page leads to its commits and branches, which list, search and page', async ({ page }) => {
  const repo = buildHistoryRepo(45, { 7: 'Handle unicode filenames' });
  try {
    await signIn(page);
    const project = await importProject(page, repo.dir);
    const path = project.path_with_namespace;

    await page.goto(`/${path}`);
    // The project page opens on the default branch's last commit, as GitLab's does.
    await expect(page.getByRole('region', { name: 'Last commit on main' })).toContainText('Change 45: routine upkeep');
    await page
      .getByRole('navigation', { name: 'Project pages' })
      .getByRole('link', { name: /^Commits/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/${path}/-/commits/main$`));
    await expect(page.getByRole('heading', { name: 'Commits', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: path.split('/').pop()! })).toBeVisible();
    // Newest first, 40 a page, grouped by the day they were authored (one commit a day here).
    await expect(commitItems(page)).toHaveCount(40);
    await expect(commitItems(page).first()).toContainText('Change 45: routine upkeep');
    await expect(page.getByRole('heading', { name: 'Feb 14, 2024', level: 2 })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'repository-commits');

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(commitItems(page)).toHaveCount(5);
    await expect(commitItems(page).last()).toContainText('Change 1: routine upkeep');

    // A search goes to the API and starts again at page 1.
    await page.getByRole('searchbox', { name: 'Search by message' }).fill('unicode');
    await expect(commitItems(page)).toHaveCount(1);
    await expect(commitItems(page).first()).toContainText('Change 7: Handle unicode filenames');
    await expect(page).not.toHaveURL(/page=2/);
    await page.getByRole('searchbox', { name: 'Search by message' }).fill('no such words anywhere');
    await expect(page.getByText('No commits match this search')).toBeVisible();

    // The branch switcher moves to another ref's history.
    await page.getByRole('combobox', { name: 'Switch branch' }).selectOption('topic');
    await expect(page).toHaveURL(new RegExp(`/${path}/-/commits/topic$`));
    await expect(commitItems(page).first()).toContainText('Topic work on top of main');
    // A commit's title leads to the commit page.
    await commitItems(page).first().getByRole('link', { name: 'Topic work on top of main' }).click();
    await expect(page).toHaveURL(new RegExp(`/${path}/-/commit/${repo.branches.topic}$`));

    await page.goto(`/${path}`);
    await page
      .getByRole('navigation', { name: 'Project pages' })
      .getByRole('link', { name: /^Branches/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/${path}/-/branches$`));
    await expect(page.getByRole('heading', { name: 'Branches', level: 1 })).toBeVisible();
    const branches = page.getByRole('list', { name: 'Branches' }).getByRole('listitem');
    await expect(branches).toHaveCount(3);
    const main = branches.filter({ has: page.getByRole('link', { name: 'main', exact: true }) });
    await expect(main).toContainText('default');
    await expect(main).toContainText('protected');
    await expect(main.getByRole('link', { name: `Commit ${repo.branches.main.slice(0, 8)}` })).toBeVisible();
    await expect(main).toContainText('Change 45: routine upkeep');
    await expectAccessible(page);
    await screenshot(page, 'repository-branches');

    await page.getByRole('searchbox', { name: 'Filter by branch name' }).fill('topic');
    await expect(branches).toHaveCount(2);
    await page.getByRole('link', { name: 'topic-2', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${path}/-/commits/topic-2$`));
    await expect(commitItems(page).first()).toContainText('Topic work on top of main');
  } finally {
    removeRepo(repo);
  }
});

test('[REPOSITORY] an empty project says so on both pages', async ({ page }) => {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const path = uniq('empty-repo');
  const p = await jsonOf<{ path_with_namespace: string }>(
    await page.request.post('/api/v4/projects', { data: { name: path, path, visibility: 'private' }, headers }),
    201,
  );
  await page.goto(`/${p.path_with_namespace}/-/branches`);
  await expect(page.getByText('There are no branches')).toBeVisible();
  await page.goto(`/${p.path_with_namespace}/-/commits`);
  await expect(page.getByRole('heading', { name: 'Commits', level: 1 })).toBeVisible();
  await expect(page.getByText(/This repository is empty|No commits in/)).toBeVisible();
  await expectAccessible(page);
});

test('[REPOSITORY] the default branch is listed first; the history of a branch that does not exist is not found', async ({ page }) => {
  // An import and five page loads: more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  const repo = buildHistoryRepo(3);
  try {
    await signIn(page);
    const project = await importProject(page, repo.dir);
    const path = project.path_with_namespace;
    // A default branch whose name sorts last: GitLab's branches page still lists it first.
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    expect((await page.request.put(`/api/v4/projects/${project.id}`, { data: { default_branch: 'topic-2' }, headers })).status()).toBe(200);
    await page.goto(`/${path}/-/branches`);
    const branches = page.getByRole('list', { name: 'Branches' }).getByRole('listitem');
    await expect(branches).toHaveCount(3);
    await expect(branches.first()).toContainText('topic-2');
    await expect(branches.first()).toContainText('default');
    await expect(branches.nth(1)).toContainText('main');
    await screenshot(page, 'repository-branches-default-first');

    // GitLab answers 404 for the commits of a ref that does not exist; the switcher never offers it.
    const missing = await page.request.get(`/${path}/-/commits/no-such-branch`);
    expect(missing.status()).toBe(404);
    await page.goto(`/${path}/-/commits/no-such-branch`);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Switch branch' })).toHaveCount(0);
    // A tag or commit SHA is a ref too.
    expect((await page.request.get(`/${path}/-/commits/${repo.branches.main}`)).status()).toBe(200);
    expect((await page.request.get(`/${path}/-/commits/topic`)).status()).toBe(200);
  } finally {
    removeRepo(repo);
  }
});
