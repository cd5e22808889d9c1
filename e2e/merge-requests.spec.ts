// [MERGE REQUESTS] A merge request's pages: Overview and Commits, the context-commits dialog (search on the
// server by title, SHA, author and dates; add and remove; the 20-commit limit; the API's refusals), the
// read-only view of a Reporter, the button for a Developer through a shared group, the not-found page for a non-member, the merge requests list and a commit.
// Seeds through the API: fixture repositories built with git are imported by the administrator.
import { expect, test, type APIResponse, type Browser, type Locator, type Page, type Request } from '@playwright/test';
import { buildHistoryRepo, buildSampleRepo, removeRepo } from '../tests/fixtures/git-repos';
import { expectAccessible, screenshot } from './support/axe';
import { expectNoSideScroll } from './support/page-checks';
import { csrfToken, signIn, uniq } from './support/session';

const PASSWORD = 'merge-requests-e2e-password-1';
const TITLES = { 7: 'Handle unicode filenames', 12: 'Speed up the cache', 25: 'Document the release process' };

async function json<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (res.status() === 204 ? undefined : await res.json()) as T;
}

/** The administrator's session, for seeding through /api/v4. */
async function rootApi(page: Page) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const call = async <T = any>(method: 'get' | 'post' | 'delete', path: string, data?: unknown, status = method === 'post' ? 201 : 200) =>
    json<T>(await page.request[method](`/api/v4${path}`, { data, headers }), status);
  return {
    call,
    user: async (prefix: string) => {
      const username = uniq(prefix).replace(/-/g, '_');
      return call<{ id: number; username: string }>('post', '/users', {
        username,
        name: `MR ${prefix}`,
        email: `${username}@example.com`,
        password: PASSWORD,
        skip_confirmation: true,
      });
    },
    /** Imports a local repository into a new private project and waits for the import to finish. */
    importProject: async (dir: string) => {
      const path = uniq('mr-e2e');
      const p = await call<{ id: number; path_with_namespace: string }>('post', '/projects', { name: path, path, visibility: 'private', import_url: dir });
      await expect.poll(async () => (await call<{ import_status: string }>('get', `/projects/${p.id}`)).import_status, { timeout: 60_000 }).toBe('finished');
      return p;
    },
    member: (projectId: number, userId: number, level: number) => call('post', `/projects/${projectId}/members`, { user_id: userId, access_level: level }),
    mergeRequest: (projectId: number, title: string, description = '', source = 'topic') =>
      call<{ iid: number }>('post', `/projects/${projectId}/merge_requests`, { title, description, source_branch: source, target_branch: 'main' }),
  };
}

async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Add or remove previously merged commits' });
const dialogRows = (page: Page) => dialog(page).getByRole('list', { name: 'Commits in main' }).getByRole('listitem');
const contextList = (page: Page) => page.getByRole('list', { name: 'Previously merged commits' }).getByRole('listitem');
/** Presses Tab (Shift+Tab with `back`) until `target` has focus, as a keyboard user would; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 40, back = false) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}
const isContextWrite = (method: string) => (r: Request) => r.method() === method && new URL(r.url()).pathname.endsWith('/context_commits');

test.describe('[MERGE REQUESTS] merge request pages', () => {
  // The first test walks the whole workflow (five searches, two saves, axe twice): more than the default minute on a busy machine.
  test.describe.configure({ timeout: 120_000 });
  let repo: ReturnType<typeof buildHistoryRepo>;
  test.beforeAll(() => {
    repo = buildHistoryRepo(30, TITLES);
  });
  test.afterAll(() => removeRepo(repo));

  test('[MERGE REQUESTS] a developer finds commits by title, SHA, author and date, adds three and removes one', async ({ page, browser }) => {
    const api = await rootApi(page);
    const dev = await api.user('dev');
    const project = await api.importProject(repo.dir);
    await api.member(project.id, dev.id, 30);
    const mr = await api.mergeRequest(project.id, 'Topic: build on the cache work', 'Needs the cache change\nfor context.');
    const base = `/${project.path_with_namespace}/-/merge_requests/${mr.iid}`;

    const user = await signedInAs(browser, dev.username);
    await user.goto(base);
    await expect(user.getByRole('heading', { level: 1, name: 'Topic: build on the cache work' })).toBeVisible();
    await expect(user.getByText('Open', { exact: true })).toBeVisible();
    await expect(user.getByText('Needs the cache change')).toBeVisible();
    await expect(user.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await expectAccessible(user);
    await screenshot(user, 'mr-overview');

    await user.getByRole('link', { name: 'Commits', exact: true }).click();
    await expect(user).toHaveURL(new RegExp(`${base}/commits$`));
    await expect(user.getByRole('list', { name: 'Commits', exact: true }).getByRole('listitem')).toHaveCount(1);
    await expect(user.getByText('Topic work on top of main')).toBeVisible();
    await expect(user.getByText('No previously merged commits.')).toBeVisible();
    await expectAccessible(user);
    await screenshot(user, 'mr-commits-empty');

    // Keyboard only: focus the button, open, search, tick, save.
    const open = user.getByRole('button', { name: 'Add previously merged commits' });
    await open.focus();
    await user.keyboard.press('Enter');
    await expect(dialog(user)).toBeVisible();
    await expect(dialogRows(user)).toHaveCount(30);
    await expect(dialog(user).getByRole('tab', { name: 'Commits in main' })).toHaveAttribute('aria-selected', 'true');
    const search = dialog(user).getByLabel('Search by commit title or SHA');
    await expect(search).toBeFocused();
    await expectAccessible(user);
    await screenshot(user, 'mr-dialog');

    // By title: the search runs on the server (ref_name and search in the request).
    const searched = user.waitForRequest((r) => r.url().includes('/repository/commits?') && r.url().includes('search=unicode'));
    await user.keyboard.type('unicode');
    expect(new URL((await searched).url()).searchParams.get('ref_name')).toBe('main');
    await expect(dialogRows(user)).toHaveCount(1);
    await expect(dialogRows(user)).toContainText('Change 7: Handle unicode filenames');
    // By SHA prefix.
    await search.fill(repo.shas[11].slice(0, 10));
    await expect(dialogRows(user)).toHaveCount(1);
    await expect(dialogRows(user)).toContainText('Change 12: Speed up the cache');
    // Nothing found.
    await search.fill('no such commit anywhere');
    await expect(dialog(user).getByText('No commits found')).toBeVisible();
    await screenshot(user, 'mr-dialog-empty');
    await search.fill('');
    // By author: Carol wrote every third commit.
    await dialog(user).getByLabel('Author', { exact: true }).fill('carol');
    await expect(dialogRows(user)).toHaveCount(10);
    await dialog(user).getByLabel('Author', { exact: true }).fill('');
    // By date: days 10 to 12.
    await dialog(user).getByLabel('Committed after').fill('2024-01-10');
    await dialog(user).getByLabel('Committed before').fill('2024-01-12');
    await expect(dialogRows(user)).toHaveCount(3);
    await expect(dialogRows(user).first()).toContainText('Change 12');

    const posts: Request[] = [];
    const deletes: Request[] = [];
    user.on('request', (r) => {
      if (isContextWrite('POST')(r)) posts.push(r);
      if (isContextWrite('DELETE')(r)) deletes.push(r);
    });
    for (const n of [12, 11, 10]) {
      await dialog(user)
        .getByRole('checkbox', { name: new RegExp(`^Change ${n}: `) })
        .focus();
      await user.keyboard.press('Space');
    }
    await expect(dialog(user).getByRole('tab', { name: /Selected commits\s*3/ })).toBeVisible();
    await expect(dialog(user).getByText('3 commits to add')).toBeVisible();
    await dialog(user).getByRole('button', { name: 'Save changes' }).focus();
    await user.keyboard.press('Enter');
    await expect(dialog(user)).toBeHidden();
    await expect(user.getByText('Context commits saved: 3 commits added.')).toBeVisible();
    await expect(open).toBeFocused();
    await expect(contextList(user)).toHaveCount(3);
    expect(posts).toHaveLength(1);
    expect(deletes).toHaveLength(0);
    expect(posts[0].postDataJSON()).toEqual({ commits: [repo.shas[11], repo.shas[10], repo.shas[9]] });
    await screenshot(user, 'mr-commits-with-context');

    // A reload shows what was saved; the dialog shows it ticked; unticking one removes it.
    await user.reload();
    await expect(contextList(user)).toHaveCount(3);
    await open.click();
    await expect(dialog(user).getByRole('tab', { name: /Selected commits\s*3/ })).toBeVisible();
    await expect(dialog(user).getByRole('checkbox', { name: /^Change 11: / })).toBeChecked();
    await dialog(user)
      .getByRole('tab', { name: /Selected commits/ })
      .click();
    await dialog(user)
      .getByRole('checkbox', { name: /^Change 11: / })
      .uncheck();
    await expect(dialog(user).getByText('1 commit to remove')).toBeVisible();
    await expect(dialog(user).getByRole('listitem').filter({ hasText: 'Change 11' })).toContainText('Will be removed');
    await screenshot(user, 'mr-dialog-selected');
    await dialog(user).getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog(user)).toBeHidden();
    await expect(user.getByText('Context commits saved: 1 commit removed.')).toBeVisible();
    await expect(contextList(user)).toHaveCount(2);
    await expect(contextList(user).filter({ hasText: 'Change 11' })).toHaveCount(0);
    expect(posts).toHaveLength(1);
    expect(deletes).toHaveLength(1);
    const stored = await api.call<{ id: string }[]>('get', `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`);
    expect(stored.map((c) => c.id).sort()).toEqual([repo.shas[11], repo.shas[9]].sort());
  });

  test('[MERGE REQUESTS] keyboard only: open, search, tick and save with Tab, Space and Enter; Escape closes; focus returns to the button', async ({
    page,
  }) => {
    const api = await rootApi(page);
    const project = await api.importProject(repo.dir);
    const mr = await api.mergeRequest(project.id, 'Keyboard only');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}/commits`);
    const open = page.getByRole('button', { name: 'Add previously merged commits' });
    await expect(open).toBeEnabled();
    // From the top of the page to the button with Tab alone.
    await page.locator('body').focus();
    await tabTo(page, open, 80);
    await page.keyboard.press('Enter');
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByLabel('Search by commit title or SHA')).toBeFocused();

    // Escape closes without saving and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();
    await expect(open).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog(page)).toBeVisible();
    await page.keyboard.type('cache');
    await expect(dialogRows(page)).toHaveCount(1);
    const box = dialog(page).getByRole('checkbox', { name: /^Change 12: Speed up the cache/ });
    await tabTo(page, box);
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
    await expect(dialog(page).getByText('1 commit to add')).toBeVisible();
    const saveButton = dialog(page).getByRole('button', { name: 'Save changes' });
    await tabTo(page, saveButton);
    await page.keyboard.press('Enter');
    await expect(dialog(page)).toBeHidden();
    await expect(open).toBeFocused();
    await expect(contextList(page)).toHaveCount(1);
    await expect(contextList(page)).toContainText('Change 12: Speed up the cache');
  });

  test('[MERGE REQUESTS] reopening the dialog before the browser reports the last close keeps it open', async ({ page }) => {
    const api = await rootApi(page);
    const project = await api.importProject(repo.dir);
    const mr = await api.mergeRequest(project.id, 'Quick reopen');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}/commits`);
    const open = page.getByRole('button', { name: 'Add previously merged commits' });
    await open.click();
    await expect(dialog(page)).toBeVisible();
    // Escape, then the button, in the moment between the dialog closing and the browser's close event: a fast
    // keyboard user (and CI once) did this. The late close event must not shut the reopened dialog.
    await page.evaluate(async () => {
      const el = document.querySelector('dialog[open]') as HTMLDialogElement;
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Add previously merged commits')!;
      await new Promise<void>((resolve) => {
        new MutationObserver((_, observer) => {
          if (el.open) return;
          observer.disconnect();
          button.click();
          resolve();
        }).observe(el, { attributes: true, attributeFilter: ['open'] });
        el.dispatchEvent(new Event('cancel', { cancelable: true }));
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByLabel('Search by commit title or SHA')).toBeFocused();
  });

  test('[MERGE REQUESTS] the dialog stops at 20 new commits and shows the API refusal without saving anything', async ({ page }) => {
    const api = await rootApi(page);
    const project = await api.importProject(repo.dir);
    const mr = await api.mergeRequest(project.id, 'Limit check');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}/commits`);
    await page.getByRole('button', { name: 'Add previously merged commits' }).click();
    await expect(dialogRows(page)).toHaveCount(30);
    const boxes = dialog(page).getByRole('list', { name: 'Commits in main' }).getByRole('checkbox');
    for (let i = 0; i < 20; i++) await boxes.nth(i).check();
    await expect(dialog(page).getByText('You have selected 20 new commits, the most that can be added at once.')).toBeVisible();
    // The 21st cannot be ticked; the ticked ones can still be unticked.
    await expect(boxes.nth(20)).toBeDisabled();
    await expect(boxes.nth(0)).toBeEnabled();
    await expectAccessible(page);
    await screenshot(page, 'mr-dialog-limit');

    // Another client adds one of the ticked commits first: GitLab's failure wording with the API's reason, and
    // nothing is saved.
    await boxes.nth(1).uncheck();
    await api.call('post', `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`, { commits: [repo.shas[29]] });
    await dialog(page).getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog(page).getByRole('alert')).toHaveText(`Failed to create context commits. Context commits: ["${repo.shas[29]}"] are already created.`);
    await expect(dialog(page)).toBeVisible();
    await screenshot(page, 'mr-dialog-error');
    let stored = await api.call<{ id: string }[]>('get', `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`);
    expect(stored.map((c) => c.id)).toEqual([repo.shas[29]]);

    // The refused save refreshed the MR's context commits: the other client's commit now comes ticked, and
    // unticking it asks for its removal. When the DELETE fails after the POST succeeded, the dialog says
    // exactly what was saved.
    await expect(dialog(page).getByText('18 commits to add')).toBeVisible();
    await boxes.nth(0).uncheck();
    await expect(dialog(page).getByText('18 commits to add, 1 commit to remove')).toBeVisible();
    await page.route(/\/context_commits\?commits/, (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"500 Internal Server Error"}' })
        : route.continue(),
    );
    await dialog(page).getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog(page).getByRole('alert')).toContainText(
      `Saved: 18 commits added. Failed to remove context commits (${repo.shas[29].slice(0, 8)}). Something went wrong on the server. Please try again.`,
    );
    await expectAccessible(page);
    await screenshot(page, 'mr-dialog-partial');
    stored = await api.call<{ id: string }[]>('get', `/projects/${project.id}/merge_requests/${mr.iid}/context_commits?per_page=100`);
    expect(stored).toHaveLength(19);
    expect(stored.map((c) => c.id)).toContain(repo.shas[29]);
    // What was saved is now in the list; saving again only retries the removal.
    await expect(dialog(page).getByText('1 commit to remove')).toBeVisible();
    await page.unroute(/\/context_commits\?commits/);
    await dialog(page).getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(contextList(page)).toHaveCount(18);
  });

  test('[MERGE REQUESTS] a reporter sees context commits without the button; a non-member gets not found', async ({ page, browser }) => {
    const api = await rootApi(page);
    const [reporter, outsider] = [await api.user('reporter'), await api.user('outsider')];
    const project = await api.importProject(repo.dir);
    await api.member(project.id, reporter.id, 20);
    const mr = await api.mergeRequest(project.id, 'Read-only view');
    await api.call('post', `/projects/${project.id}/merge_requests/${mr.iid}/context_commits`, { commits: [repo.shas[6], repo.shas[24]] });
    const url = `/${project.path_with_namespace}/-/merge_requests/${mr.iid}/commits`;

    const user = await signedInAs(browser, reporter.username);
    await user.goto(url);
    await expect(contextList(user)).toHaveCount(2);
    // Newest committed first, as GitLab lists them (they were added oldest first).
    await expect(contextList(user)).toHaveText([/Change 25: Document the release process/, /Change 7: Handle unicode filenames/]);
    await expect(user.getByRole('button', { name: 'Add previously merged commits' })).toHaveCount(0);
    await expectAccessible(user);
    await screenshot(user, 'mr-commits-reporter');
    // A context commit links to its commit page.
    await contextList(user).getByRole('link', { name: 'Change 7: Handle unicode filenames' }).click();
    await expect(user).toHaveURL(new RegExp(`/-/commit/${repo.shas[6]}$`));
    await expect(user.getByRole('heading', { level: 1, name: 'Change 7: Handle unicode filenames' })).toBeVisible();

    // An API failure is an error with a retry, not a blank page.
    await user.route(/\/context_commits\?/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"500 Internal Server Error"}' }),
    );
    await user.goto(url);
    await expect(user.getByRole('alert').filter({ hasText: 'Could not load the previously merged commits' })).toContainText(
      'Something went wrong on the server. Please try again.',
    );
    await screenshot(user, 'mr-commits-error');

    const stranger = await signedInAs(browser, outsider.username);
    await stranger.goto(url);
    await expect(stranger.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await stranger.goto(`/${project.path_with_namespace}/-/merge_requests`);
    await expect(stranger.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('[MERGE REQUESTS] a Developer only through a group shared into the project gets the context-commits button', async ({ page, browser }) => {
    // The project entity's permissions leave shares out; the page reads the level members/all/:user_id gives.
    const api = await rootApi(page);
    const dev = await api.user('shared-dev');
    const project = await api.importProject(repo.dir);
    const team = await api.call<{ id: number }>('post', '/groups', { name: uniq('MR team'), path: uniq('mr-team'), visibility: 'private' });
    await api.call('post', `/groups/${team.id}/members`, { user_id: dev.id, access_level: 30 });
    await api.call('post', `/projects/${project.id}/share`, { group_id: team.id, group_access: 30 });
    const mr = await api.mergeRequest(project.id, 'Shared team view');

    const user = await signedInAs(browser, dev.username);
    await user.goto(`/${project.path_with_namespace}/-/merge_requests/${mr.iid}/commits`);
    await expect(user.getByRole('button', { name: 'Add previously merged commits' })).toBeVisible();
    await user.getByRole('button', { name: 'Add previously merged commits' }).click();
    await expect(dialog(user)).toBeVisible();
  });

  test('[MERGE REQUESTS] the page shows assignees and reviewers; a Reporter assignee adds context commits; inverted dates are explained; 390 px', async ({
    page,
    browser,
  }) => {
    const api = await rootApi(page);
    const [reporter, reviewer] = [await api.user('assignee'), await api.user('reviewer')];
    const project = await api.importProject(repo.dir);
    await api.member(project.id, reporter.id, 20);
    await api.member(project.id, reviewer.id, 30);
    const mr = await api.call<{ iid: number; reviewers: { id: number }[] }>('post', `/projects/${project.id}/merge_requests`, {
      title: 'Assigned to a reporter',
      source_branch: 'topic',
      target_branch: 'main',
      assignee_ids: [reporter.id],
      reviewer_ids: [reviewer.id],
    });
    expect(mr.reviewers.map((r) => r.id)).toEqual([reviewer.id]);
    const base = `/${project.path_with_namespace}/-/merge_requests/${mr.iid}`;

    const user = await signedInAs(browser, reporter.username);
    await user.goto(base);
    await expect(user.getByRole('heading', { level: 1, name: 'Assigned to a reporter' })).toBeVisible();
    const details = user.getByRole('complementary', { name: 'Merge request details' });
    await expect(details.getByRole('list', { name: 'Assignees' })).toContainText(`@${reporter.username}`);
    await expect(details.getByRole('list', { name: 'Reviewers' })).toContainText(`@${reviewer.username}`);
    await expect(user.getByText('requested to merge')).toBeVisible();
    await expectAccessible(user);
    await screenshot(user, 'mr-overview-people');

    // The Reporter is an assignee, so the Commits tab offers the dialog (GitLab's update_merge_request).
    await user.getByRole('link', { name: 'Commits', exact: true }).click();
    await user.getByRole('button', { name: 'Add previously merged commits' }).click();
    await expect(dialogRows(user)).toHaveCount(30);
    const after = dialog(user).getByLabel('Committed after');
    const before = dialog(user).getByLabel('Committed before');
    await after.fill('2024-01-20');
    await before.fill('2024-01-10');
    await expect(dialog(user).getByRole('alert')).toHaveText('The “Committed after” date must be on or before the “Committed before” date.');
    await expect(after).toHaveAttribute('aria-invalid', 'true');
    await expect(before).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog(user).getByText('No commits found')).toHaveCount(0);
    await expectAccessible(user);
    await screenshot(user, 'mr-dialog-inverted-dates');
    await before.fill('2024-01-22');
    await expect(dialog(user).getByRole('alert')).toHaveCount(0);
    await expect(dialogRows(user)).toHaveCount(3);
    await dialogRows(user).filter({ hasText: 'Change 21' }).getByRole('checkbox').check();
    await dialog(user).getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog(user)).toBeHidden();
    await expect(contextList(user)).toHaveCount(1);

    // 390 px: nothing scrolls sideways; the title, the people and the main action fit the screen.
    await user.setViewportSize({ width: 390, height: 844 });
    for (const url of [base, `${base}/commits`]) {
      await user.goto(url);
      await expect(user.getByRole('heading', { level: 1, name: 'Assigned to a reporter' })).toBeVisible();
      const widths = await user.evaluate(() => [document.scrollingElement!.scrollWidth, document.scrollingElement!.clientWidth]);
      expect(widths[0], `page width of ${url} at 390 px`).toBeLessThanOrEqual(widths[1]);
    }
    const add = user.getByRole('button', { name: 'Add previously merged commits' });
    await add.scrollIntoViewIfNeeded();
    const box = (await add.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await expectAccessible(user);
    await add.click();
    await expect(dialogRows(user)).toHaveCount(30);
    const dialogWidths = await user.evaluate(() => [document.scrollingElement!.scrollWidth, document.scrollingElement!.clientWidth]);
    expect(dialogWidths[0]).toBeLessThanOrEqual(dialogWidths[1]);
    await expectAccessible(user);
  });

  test('[MERGE REQUESTS] the list: state tabs with counts and sort; the filtered search by keyboard and mouse, in the URL; filtered-empty; 390 px', async ({
    page,
    browser,
  }) => {
    const api = await rootApi(page);
    const dev = await api.user('author');
    const project = await api.importProject(repo.dir);
    await api.member(project.id, dev.id, 30);
    // Root's MR is assigned to the developer, who reviews it too.
    await api.call('post', `/projects/${project.id}/merge_requests`, {
      title: 'Alpha change by root',
      source_branch: 'topic',
      target_branch: 'main',
      assignee_ids: [dev.id],
      reviewer_ids: [dev.id],
    });
    const devPage = await signedInAs(browser, dev.username);
    const devHeaders = { 'X-CSRF-Token': await csrfToken(devPage) };
    await json(
      await devPage.request.post(`/api/v4/projects/${project.id}/merge_requests`, {
        data: { title: 'Beta change by dev', description: 'Touches the zebra crossing.', source_branch: 'topic-2', target_branch: 'main' },
        headers: devHeaders,
      }),
      201,
    );

    const listUrl = `/${project.path_with_namespace}/-/merge_requests`;
    const params = (name: string) => new URL(page.url()).searchParams.getAll(name);
    const chip = (name: string, value: string) => page.getByRole('button', { name: `Remove filter ${name} = ${value}` });
    await page.goto(listUrl);
    const rows = page.getByRole('table', { name: 'Merge requests' }).getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(page.getByRole('tab', { name: /Open\s*2/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: /Merged\s*0/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: /All\s*2/ })).toBeVisible();
    // One filtered-search bar; the old separate fields are gone.
    await expect(page.getByRole('searchbox')).toHaveCount(0);
    await expectAccessible(page);
    await screenshot(page, 'mr-list');

    // Keyboard only: type part of a token's name, Enter picks it, the user suggestion is picked with Enter.
    const box = page.getByRole('combobox', { name: 'Search or filter merge requests' });
    await box.focus();
    await expect(page.getByRole('listbox', { name: 'Filters' }).getByRole('option')).toHaveText([
      /^Author/,
      /^Assignee/,
      /^Reviewer/,
      /^Source branch/,
      /^Target branch/,
    ]);
    await page.keyboard.type('aut');
    await page.keyboard.press('Enter');
    const author = page.getByRole('combobox', { name: 'Author: choose or type a value' });
    await expect(author).toBeFocused();
    await page.keyboard.type(dev.username.slice(0, 12));
    await expect(page.getByRole('option', { name: new RegExp(`@${dev.username}`) })).toHaveAttribute('aria-selected', 'true');
    const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
    if (dir) await page.screenshot({ path: `${dir}/mr-list-author-suggestions-desktop.png` });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]author_username=${dev.username}(&|$)`));
    await expect(chip('Author', dev.username)).toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Beta change by dev');
    await expect(page.getByRole('tab', { name: /Open\s*1/ })).toBeVisible();
    await expect(box).toBeFocused();
    // Author is taken: the list offers it no more.
    await expect(page.getByRole('option', { name: /^Author/ })).toHaveCount(0);

    // Free text searches titles and descriptions: Enter on the text, then the filtered-empty state.
    await page.keyboard.type('zebra');
    await expect(page.getByRole('option', { name: /Search for “zebra”\s*in titles and descriptions/ })).toBeVisible();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]search=zebra/);
    await expect(chip('Search', 'zebra')).toBeVisible();
    await expect(rows).toHaveCount(2);
    await page.keyboard.type('crossing by nobody');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]search=crossing\+by\+nobody/);
    await expect(page.getByText('No merge requests match these filters')).toBeVisible();
    await expect(page.getByRole('tab', { name: /All\s*0/ })).toBeVisible();
    await expect(box).toBeFocused();
    await expectAccessible(page);
    await screenshot(page, 'mr-list-filtered-empty');

    // Backspace on the empty box removes the last chip; focus stays in the box.
    await box.focus();
    await page.keyboard.press('Backspace');
    await expect(chip('Search', 'crossing by nobody')).toHaveCount(0);
    // The chip goes at once; the address follows when the router has the page.
    await expect.poll(() => params('search')).toEqual([]);
    await expect(rows).toHaveCount(2);
    await expect(box).toBeFocused();
    // Back and Forward step through the filters; a reload keeps them.
    await page.goBack();
    await expect(chip('Search', 'crossing by nobody')).toBeVisible();
    await page.goForward();
    await expect(chip('Search', 'crossing by nobody')).toHaveCount(0);
    await page.reload();
    await expect(chip('Author', dev.username)).toBeVisible();
    await expect(rows.nth(1)).toContainText('Beta change by dev');
    await screenshot(page, 'mr-list-filtered');

    // A chip's button removes it and leaves focus in the box, not on <body>.
    await chip('Author', dev.username).click();
    await expect(rows).toHaveCount(3);
    expect(params('author_username')).toEqual([]);
    await expect(box).toBeFocused();

    // By mouse: Assignee (GitLab's assignee_username[]), then a branch from the project's branches.
    await box.fill('Assi');
    await page.getByRole('option', { name: /^Assignee/ }).click();
    await page.getByRole('combobox', { name: 'Assignee: choose or type a value' }).fill(dev.username);
    await page.getByRole('option', { name: new RegExp(`@${dev.username}`) }).click();
    await expect.poll(() => params('assignee_username[]')).toEqual([dev.username]);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Alpha change by root');
    await box.fill('Source');
    await page.getByRole('option', { name: /^Source branch/ }).click();
    await page.getByRole('combobox', { name: 'Source branch: choose or type a value' }).fill('topic');
    await page.getByRole('option', { name: 'topic', exact: true }).click();
    await expect.poll(() => params('source_branches[]')).toEqual(['topic']);
    await expect(rows).toHaveCount(2);
    // Each token takes one value, as the API does: a token in force is offered no more.
    await box.fill('branch');
    await expect(page.getByRole('option', { name: /^Target branch/ })).toBeVisible();
    await expect(page.getByRole('option', { name: /^Source branch/ })).toHaveCount(0);

    // "Clear filters" in the filtered-empty state; focus goes to the page, not <body>.
    await page.goto(`${listUrl}?reviewer_username=${dev.username}&source_branches[]=topic-2`);
    await expect(page.getByText('No merge requests match these filters')).toBeVisible();
    // The empty state's own button (the bar's, beside the sort, comes first).
    await expect(page.getByRole('button', { name: 'Clear filters' })).toHaveCount(2);
    await page.getByRole('button', { name: 'Clear filters' }).last().click();
    await expect(rows).toHaveCount(3);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);

    // GitLab's plain forms and unknown parameters are rewritten to the normal form.
    await page.goto(`${listUrl}?target_branch=main&reviewer_username=${dev.username}&label_name[]=bug`);
    await expect(chip('Reviewer', dev.username)).toBeVisible();
    await expect(chip('Target branch', 'main')).toBeVisible();
    await expect.poll(() => decodeURIComponent(new URL(page.url()).search)).toBe(`?reviewer_username=${dev.username}&target_branches[]=main`);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Alpha change by root');

    // 390 px: the filters wait behind a toggle that counts them.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(box).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Filter (2)' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(box).toBeVisible();
    await expect(chip('Target branch', 'main')).toBeVisible();
    await expectNoSideScroll(page, 'merge request list with filters open');
    if (dir) await page.screenshot({ path: `${dir}/mr-list-filters-open-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });

    await page.goto(listUrl);
    await page.getByLabel('Sort by').selectOption('title_asc');
    await expect(rows.nth(1)).toContainText('Alpha change by root');
    await page.getByRole('tab', { name: /Merged/ }).click();
    await expect(page).toHaveURL(/[?&]state=merged/);
    await expect(page.getByText('No merged merge requests')).toBeVisible();
    await screenshot(page, 'mr-list-empty');
    // The URL is the state.
    await page.reload();
    await expect(page.getByRole('tab', { name: /Merged/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Sort by')).toHaveValue('title_asc');
    await page.getByRole('tab', { name: /All/ }).click();
    await page.getByRole('link', { name: 'Alpha change by root' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Alpha change by root' })).toBeVisible();
  });

  test('[MERGE REQUESTS] a commit page shows message, trailers, parents, author and committer', async ({ page }) => {
    const sample = buildSampleRepo();
    try {
      const api = await rootApi(page);
      const project = await api.importProject(sample.dir);
      await page.goto(`/${project.path_with_namespace}/-/commit/${sample.commits.f1}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Add feature' })).toBeVisible();
      await expect(page.getByText('Body of the feature commit.')).toBeVisible();
      await expect(page.getByText(sample.commits.f1, { exact: true })).toBeVisible();
      const details = page.locator('dl');
      await expect(details).toContainText('Ålice Müller <alice@example.com> authored');
      await expect(details).toContainText('Carol Ó Briain <carol@example.com> committed');
      await expect(details).toContainText('Co-authored-by');
      await details.getByRole('link', { name: sample.commits.docs.slice(0, 8) }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Add docs' })).toBeVisible();
      await expectAccessible(page);
      await screenshot(page, 'commit');
      await page.goto(`/${project.path_with_namespace}/-/commit/${'0'.repeat(40)}`);
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    } finally {
      removeRepo(sample);
    }
  });
});
