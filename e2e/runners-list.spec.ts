// [RUNNERS] The runner lists (/admin/runners, /groups/<path>/-/runners): filters, sort and tabs in the URL
// with their counts, bulk pause with a partial failure, the group list's inherited toggle, and axe at
// desktop and phone widths. Everything is seeded through /api/v4 with the signed-in admin's session.
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { filterRunners, searchRunners } from './support/runner-filters';
import { csrfToken, signIn, uniq } from './support/session';

const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rows = (page: Page) => table(page).getByRole('row');
const rowOf = (page: Page, text: string) => rows(page).filter({ has: page.getByText(text, { exact: true }) });
const count = (page: Page, type: string) => page.getByTestId(`count-${type}`);

async function json<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

function adminApi(page: Page, csrf: string) {
  const headers = { 'X-CSRF-Token': csrf };
  return {
    post: async <T = any>(path: string, data: Record<string, unknown>, status = 201) =>
      json<T>(await page.request.post(`/api/v4${path}`, { data, headers }), status),
    runner: async (data: Record<string, unknown>) =>
      json<{ id: number; token: string }>(await page.request.post('/api/v4/user/runners', { data, headers }), 201),
    remove: async (path: string) => expect((await page.request.delete(`/api/v4${path}`, { headers })).status()).toBe(204),
  };
}

async function setup(page: Page) {
  await signIn(page);
  return adminApi(page, await csrfToken(page));
}

test.describe('[RUNNERS] runner lists', () => {
  test('[RUNNERS] filters, sort and type tabs with counts live in the URL; Back, Forward and reload keep them', async ({ page }) => {
    const api = await setup(page);
    const tag = uniq('lst');
    const project = await api.post('/projects', { name: uniq('lstp'), path: uniq('lstp') });
    const group = await api.post('/groups', { name: uniq('lstg'), path: uniq('lstg') });
    const alpha = await api.runner({ runner_type: 'instance_type', description: `${tag} alpha`, tag_list: [tag], paused: true });
    const beta = await api.runner({ runner_type: 'instance_type', description: `${tag} beta`, tag_list: [tag, 'linux'] });
    await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} gamma`, tag_list: [tag] });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} delta`, tag_list: [tag] });
    // A runner that verifies has contacted Runway: online.
    await api.post('/runners/verify', { token: beta.token }, 200);

    await page.goto('/admin/runners');
    await filterRunners(page, 'Tag', tag);
    await expect(page).toHaveURL(new RegExp(`tag%5B%5D=${tag}`));
    await expect(rows(page)).toHaveCount(5);
    await expect(count(page, 'all')).toHaveText('4');
    await expect(count(page, 'instance_type')).toHaveText('2');
    await expect(count(page, 'group_type')).toHaveText('1');
    await expect(count(page, 'project_type')).toHaveText('1');
    await expect(page.getByTestId('stat-online')).toHaveText('1');
    await expect(page.getByTestId('stat-offline')).toHaveText('0');
    // Newest first by default (GitLab's CREATED_DESC).
    await expect(rows(page).nth(1)).toContainText(`${tag} delta`);
    const betaRow = rowOf(page, `${tag} beta`);
    await expect(betaRow.getByText('Online')).toBeVisible();
    await expect(betaRow.getByText('Administrator')).toBeVisible();
    await expect(betaRow.getByText('linux', { exact: true })).toBeVisible();
    await expect(rowOf(page, `${tag} gamma`).getByRole('link', { name: group.name })).toBeVisible();
    await expect(rowOf(page, `${tag} alpha`).getByRole('button', { name: `Resume runner #${alpha.id}` })).toBeVisible();

    // Paused: the counts follow the filters.
    await filterRunners(page, 'Paused', 'Yes');
    await expect(page).toHaveURL(/paused%5B%5D=true/);
    await expect(rows(page)).toHaveCount(2);
    await expect(count(page, 'all')).toHaveText('1');
    await expect(count(page, 'group_type')).toHaveText('0');

    await page.getByRole('button', { name: 'Remove filter Paused = Yes' }).click();
    await expect(page).not.toHaveURL(/paused/);
    await page.getByRole('tab', { name: /Instance/ }).click();
    await expect(page).toHaveURL(/runner_type%5B%5D=INSTANCE_TYPE/);
    await expect(rows(page)).toHaveCount(3);
    await page.getByLabel('Sort by').selectOption('CREATED_ASC');
    await expect(page).toHaveURL(/sort=CREATED_ASC/);
    await expect(rows(page).nth(1)).toContainText(`${tag} alpha`);
    await searchRunners(page, 'BETA');
    await expect(page).toHaveURL(/search=BETA/);
    await expect(rows(page)).toHaveCount(2);
    await expect(count(page, 'instance_type')).toHaveText('1');

    await page.goBack();
    await expect(page).not.toHaveURL(/search=/);
    await expect(page.getByRole('button', { name: 'Remove filter Search = BETA' })).toHaveCount(0);
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).nth(1)).toContainText(`${tag} alpha`);
    await page.goBack();
    await expect(page).not.toHaveURL(/sort=/);
    await expect(rows(page).nth(1)).toContainText(`${tag} beta`);
    await page.goForward();
    await page.goForward();
    await expect(page).toHaveURL(/search=BETA/);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Remove filter Search = BETA' })).toBeVisible();
    await expect(page.getByLabel('Sort by')).toHaveValue('CREATED_ASC');
    await expect(page.getByRole('tab', { name: /Instance/ })).toHaveAttribute('aria-selected', 'true');
    await expect(rows(page)).toHaveCount(2);

    // Nothing matches: the filtered-empty state, with the way out.
    await filterRunners(page, 'Status', 'Stale');
    await expect(page.getByText('No results found')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/admin\/runners(\?sort=CREATED_ASC)?$/);
  });

  test("[RUNNERS] bulk pause reports each runner; one deleted meanwhile fails with the API's message", async ({ page }) => {
    const api = await setup(page);
    const tag = uniq('bulk');
    const ids: number[] = [];
    for (const n of ['one', 'two', 'three']) ids.push((await api.runner({ runner_type: 'instance_type', description: `${tag} ${n}`, tag_list: [tag] })).id);

    await page.goto(`/admin/runners?tag_list=${tag}`);
    await expect(rows(page)).toHaveCount(4);
    await page.getByRole('checkbox', { name: 'Select all runners on this page' }).check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await expect(bar).toContainText('3 runners selected');

    // Gone before the action runs.
    await api.remove(`/runners/${ids[1]}`);
    await bar.getByRole('button', { name: 'Pause selected' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'could not be paused' });
    await expect(alert).toContainText('Some runners could not be paused: 1 of 3 runners failed, 2 paused.');
    await expect(alert.getByRole('listitem')).toHaveText([
      `Runner #${ids[1]}: The runner could not be found. It may have been deleted, or you may not have access to it.`,
    ]);

    // The list and counts refresh: two rows left, both paused.
    await expect(rows(page)).toHaveCount(3);
    await expect(count(page, 'all')).toHaveText('2');
    for (const id of [ids[0], ids[2]]) await expect(page.getByRole('button', { name: `Resume runner #${id}` })).toBeVisible();

    // Resume them again, then delete them after confirmation.
    await page.getByRole('checkbox', { name: `Select runner #${ids[0]}`, exact: true }).check();
    await page.getByRole('checkbox', { name: `Select runner #${ids[2]}`, exact: true }).check();
    await bar.getByRole('button', { name: 'Resume selected' }).click();
    await expect(page.getByRole('status').filter({ hasText: '2 runners resumed.' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Pause runner #${ids[0]}` })).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select all runners on this page' }).check();
    await bar.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 runners?' }).getByRole('button', { name: 'Permanently delete 2 runners' }).click();
    await expect(page.getByText('Get started with runners').or(page.getByText('No results found'))).toBeVisible();
    await expect(count(page, 'all')).toHaveText('0');
  });

  test('[RUNNERS] group list: "Show only inherited" toggles GitLab\'s membership, in the URL', async ({ page }) => {
    const api = await setup(page);
    const tag = uniq('grl');
    const parent = await api.post('/groups', { name: uniq('par'), path: uniq('par') });
    const group = await api.post('/groups', { name: uniq('grp'), path: uniq('grp'), parent_id: parent.id });
    const project = await api.post('/projects', { name: uniq('grpp'), path: uniq('grpp'), namespace_id: group.id });
    await api.runner({ runner_type: 'instance_type', description: `${tag} instance`, tag_list: [tag] });
    await api.runner({ runner_type: 'group_type', group_id: parent.id, description: `${tag} parent`, tag_list: [tag] });
    const own = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} own`, tag_list: [tag] });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} project`, tag_list: [tag] });

    await page.goto(`/groups/${group.full_path}`);
    await page
      .getByRole('main')
      .getByRole('link', { name: /Runners/ })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/groups/${group.full_path}/-/runners$`));
    await expect(page.getByRole('link', { name: 'New group runner' })).toHaveAttribute('href', `/groups/${group.full_path}/-/runners/new`);
    await expect(page.getByRole('tab')).toHaveText([/^All/, /^Group/, /^Project/]);

    await filterRunners(page, 'Tag', tag);
    // Without the tag the group's own two runners also make 3 rows: wait for the filter itself.
    await expect(page).toHaveURL(new RegExp(`tag%5B%5D=${tag}`));
    const toggle = page.getByRole('switch', { name: 'Show only inherited' });
    await expect(toggle).toBeChecked();
    await expect(rows(page)).toHaveCount(3);
    await expect(rowOf(page, `${tag} own`).getByRole('link', { name: `#${own.id}`, exact: true })).toHaveAttribute(
      'href',
      `/groups/${group.full_path}/-/runners/${own.id}`,
    );
    await expect(count(page, 'project_type')).toHaveText('1');

    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect(page).toHaveURL(/membership=all_available/);
    await expect(rows(page)).toHaveCount(5);
    await expect(count(page, 'group_type')).toHaveText('2');
    await expect(rowOf(page, `${tag} instance`).getByText('Administrator')).toBeVisible();
    await page.goBack();
    await expect(toggle).toBeChecked();
    await expect(rows(page)).toHaveCount(3);
  });

  test('[RUNNERS] a group Maintainer sees the group list read-only: no New group runner, no actions, no checkboxes', async ({ page, browser }) => {
    const api = await setup(page);
    const tag = uniq('mnt');
    const username = uniq('grp-maint');
    const password = 'group-maintainer-password-1';
    const user = await api.post('/users', { username, name: 'Group Maintainer', email: `${username}@example.com`, password });
    const group = await api.post('/groups', { name: uniq('mntg'), path: uniq('mntg') });
    await api.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 40 });
    const runner = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} group`, tag_list: [tag] });

    const context = await browser.newContext();
    const maintainer = await context.newPage();
    await signIn(maintainer, username, password);
    await maintainer.goto(`/groups/${group.full_path}/-/runners`);
    await expect(rowOf(maintainer, `${tag} group`).getByRole('link', { name: `#${runner.id}`, exact: true })).toBeVisible();
    await expect(maintainer.getByRole('link', { name: 'New group runner' })).toHaveCount(0);
    await expect(maintainer.getByRole('button', { name: `Pause runner #${runner.id}` })).toHaveCount(0);
    await expect(maintainer.getByRole('button', { name: `Delete runner #${runner.id}` })).toHaveCount(0);
    await expect(maintainer.getByRole('checkbox')).toHaveCount(0);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`[RUNNERS] the lists and their states pass axe (${viewport.width} px)`, async ({ page }) => {
      test.setTimeout(120_000); // four pages, each with axe, on a shared machine
      await page.setViewportSize(viewport);
      const api = await setup(page);
      const tag = uniq('axe');
      const group = await api.post('/groups', { name: uniq('axeg'), path: uniq('axeg') });
      await api.runner({ runner_type: 'instance_type', description: `${tag} paused`, tag_list: [tag, 'docker'], paused: true });
      await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} group`, tag_list: [tag] });
      const shot = (name: string) => page.screenshot({ path: `test-results/shots/runners-${name}-${viewport.width}.png`, fullPage: true });

      await page.goto(`/admin/runners?tag_list=${tag}`);
      await expect(rows(page)).toHaveCount(3);
      await page.getByRole('checkbox', { name: 'Select all runners on this page' }).check();
      await expectNoSeriousA11yViolations(page, 'runners list with a selection');
      await shot('list');
      await page.goto(`/admin/runners?tag_list=${tag}&status=online`);
      await expect(page.getByText('No results found')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'runners list, filtered empty');
      await shot('filtered-empty');
      await page.goto(`/groups/${group.full_path}/-/runners`);
      await expect(rows(page)).toHaveCount(2);
      await expectNoSeriousA11yViolations(page, 'group runners list');
      await shot('group');
      await page.goto(`/groups/${group.full_path}/-/runners?membership=all_available&tag_list=${tag}`);
      await expect(rows(page)).toHaveCount(3);
      await shot('group-all');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'no sideways scrolling of the page').toBeLessThanOrEqual(0);
    });
  }
});
