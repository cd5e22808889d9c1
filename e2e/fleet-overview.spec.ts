// [FLEET] The fleet dashboard (/admin/runners/dashboard): reached from the runner list and the nav, its
// counts, charts with their data tables, versions linking to the filtered runner list, and its loading,
// error-with-retry and empty states; axe-clean at desktop width and at 390 px. With
// RUNWAY_E2E_SCREENSHOTS=<dir>, every state is also saved (and the charts once more on a dark surface).
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { PASSWORD, rootApi } from './support/runner-seed';
import { signIn, uniq } from './support/session';

const STATUS = '**/api/v4/runners/fleet/status';

async function checkA11y(page: Page, what: string) {
  await expectNoSeriousA11yViolations(page, what);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page, `${what} at 390 px`);
  await page.setViewportSize(size);
}

test.describe('[FLEET] fleet dashboard', () => {
  // Each test walks several states with axe at two widths: generous on a loaded CI machine.
  test.describe.configure({ timeout: 180_000 });

  test('[FLEET] counts, history, versions and work, each chart with a data table, linked from the runner list', async ({ page }) => {
    const api = await rootApi(page);
    const version = `18.${90 + Math.floor(Math.random() * 9)}.1`;
    const description = uniq('fleet-e2e');
    const runner = await api.runner({ runner_type: 'instance_type', description });
    // The runner connects once, reporting its version: a manager the versions panel counts.
    const verified = await page.request.post('/api/v4/runners/verify', {
      data: { token: runner.token, system_id: `s_${uniq('fleet').replace(/-/g, '')}`, info: { version, platform: 'linux', architecture: 'amd64' } },
    });
    expect(verified.status(), await verified.text()).toBe(200);

    await page.goto('/admin/runners');
    await page.getByRole('link', { name: 'Fleet dashboard' }).first().click();
    await expect(page).toHaveURL(/\/admin\/runners\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Fleet dashboard' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet dashboard' })).toHaveAttribute('aria-current', 'page');

    const counts = page.getByRole('list', { name: 'Runners by status now' });
    await expect(counts.getByRole('listitem')).toHaveCount(6, { timeout: 20_000 });
    await expect(counts.getByTestId('fleet-online')).toContainText(/Online\s*\d/);
    expect(Number((await counts.getByTestId('fleet-total').locator('span').nth(1).innerText()).replace(/,/g, ''))).toBeGreaterThanOrEqual(1);

    // The status history: 30 days in the chart's table (a header row and one row per day), today counted.
    const history = page.getByRole('table', { name: 'Runners by status per day, last 30 days' });
    await expect(history.getByRole('row')).toHaveCount(31, { timeout: 20_000 });
    await expect(history.getByRole('row').last()).not.toContainText('No snapshot', { timeout: 20_000 });
    await expect(page.getByRole('figure', { name: 'Runners by status per day, last 30 days' }).locator('.recharts-wrapper > svg')).toBeVisible({
      timeout: 20_000,
    });

    // Versions: the runner's version is the newest one seen, with a link to the runners running it.
    const versions = page.getByRole('table', { name: 'Runner managers by version' });
    const row = versions.getByRole('row').filter({ hasText: version });
    await expect(row).toContainText('Newest');
    await expect(page.getByRole('figure', { name: /Runner managers by version/ }).locator('.recharts-wrapper > svg')).toBeVisible();

    // Work: the jobs panel, its charts and data table, and both runner tables' panels.
    await expect(page.getByRole('table', { name: 'Jobs and queued duration per day, last 7 days' }).getByRole('row')).toHaveCount(8);
    await expect(page.getByRole('heading', { name: 'Busiest runners' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Runners with the longest queues' })).toBeVisible();
    await expect(page.getByRole('figure', { name: /Queued duration per day/ }).locator('.recharts-wrapper > svg')).toBeVisible();

    await checkA11y(page, 'the fleet dashboard');
    await screenshot(page, 'fleet-dashboard');
    if (process.env.RUNWAY_E2E_SCREENSHOTS) {
      // The charts on a dark surface: the page's panels carry dark variants and the charts read CSS colours.
      await page.evaluate(() => document.documentElement.classList.add('dark'));
      await page.locator('main').screenshot({ path: `${process.env.RUNWAY_E2E_SCREENSHOTS}/fleet-dashboard-dark.png`, style: 'main { background: #020617; }' });
      await page.evaluate(() => document.documentElement.classList.remove('dark'));
    }

    await row.getByRole('link', { name: `View runners on version ${version}` }).click();
    // The list's own form of the filter (version_prefix[]), so it is not rewritten after it opens.
    await expect(page).toHaveURL(new RegExp(`/admin/runners\\?version_prefix%5B%5D=${version.replace(/\./g, '\\.')}$`));
    await expect(page.getByRole('table', { name: 'Runners' }).getByRole('row').filter({ hasText: description })).toHaveCount(1, { timeout: 20_000 });
  });

  test('[FLEET] loading, an error with Try again, and an empty fleet', async ({ page }) => {
    await signIn(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(STATUS, async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) });
    });
    await page.goto('/admin/runners/dashboard');
    await expect(page.getByRole('status')).toContainText('Loading the runner counts');
    await screenshot(page, 'fleet-dashboard-loading');
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the runner counts' });
    await expect(alert).toContainText('Something went wrong on the server. Please try again.', { timeout: 20_000 });
    await checkA11y(page, 'the fleet dashboard error');
    await screenshot(page, 'fleet-dashboard-error');
    await page.unroute(STATUS);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(alert).toHaveCount(0);
    // The counts, or the empty state on an instance with no runners yet (this test seeds none).
    await expect(page.getByRole('list', { name: 'Runners by status now' }).or(page.getByText('No runners yet'))).toBeVisible({ timeout: 20_000 });

    // An instance with no runners: what the dashboard is for, and the way to the first runner.
    await page.route(STATUS, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ online: 0, offline: 0, stale: 0, never_contacted: 0, paused: 0, total: 0, counted_at: new Date().toISOString() }),
      }),
    );
    await page.reload();
    await expect(page.getByText('No runners yet')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('link', { name: 'New instance runner' })).toBeVisible();
    await checkA11y(page, 'the empty fleet dashboard');
    await screenshot(page, 'fleet-dashboard-empty');
  });

  test('[FLEET] a non-admin gets not-found and no Fleet dashboard entry', async ({ page, browser }) => {
    const api = await rootApi(page);
    const user = await api.user('fleetuser');
    const other = await (await browser.newContext()).newPage();
    await signIn(other, user.username, PASSWORD);
    await other.goto('/admin/runners/dashboard');
    await expect(other.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet dashboard' })).toHaveCount(0);
    // The whole Admin area is for administrators: the runner list too (and with it its Fleet dashboard button).
    await other.goto('/admin/runners');
    await expect(other.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Fleet dashboard' })).toHaveCount(0);
    await other.context().close();
  });
});
