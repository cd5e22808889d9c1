// [RUNNERS] The stale-runner cleanup page (/admin/runners/cleanup): the rule in the URL, its preview with
// the count, a refused rule explained under its field, "Delete N stale runners" behind a confirmation
// with per-runner results, the last cleanups and the daily schedule; and the owner filters of the runner
// list. Runners are made through /api/v4 and aged in the database (the API cannot make a runner old).
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { expectNoSideScroll } from './support/page-checks';
import { checkPage, rootApi } from './support/runner-seed';
import { uniq } from './support/session';
import { filterRunners } from './support/runner-filters';

async function age(ids: number[], contacted: string | null, created: string) {
  const client = new pg.Client({ connectionString: process.env.RUNWAY_E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `UPDATE ci_runners SET created_at = now() - $2::interval,
              contacted_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() - $3::interval END WHERE id = ANY($1::int[])`,
      [ids, created, contacted],
    );
  } finally {
    await client.end();
  }
}

const preview = (page: Page) => page.getByRole('table', { name: 'Stale runners' });

test.describe('[RUNNERS] stale cleanup', () => {
  // Several axe passes at two widths on a loaded machine: more than the default minute.
  test.describe.configure({ timeout: 240_000 });
  test('[RUNNERS] stale cleanup previews the rule, deletes after confirming, records the run and keeps the schedule', async ({ page }) => {
    const api = await rootApi(page);
    const group = await api.group('cln');
    const tag = uniq('cln');
    const old = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} old` });
    const never = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} never` });
    const fresh = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} fresh` });
    await age([old.id], '100 days', '200 days');
    await age([never.id], null, '100 days');

    await page.goto('/admin/runners');
    await page.getByRole('link', { name: 'Clean up stale runners' }).click();
    await expect(page).toHaveURL(/\/admin\/runners\/cleanup$/);
    await expect(page.getByRole('heading', { name: 'Clean up stale runners' })).toBeVisible();

    // A refused rule: the API's words under the field (checked as typed, before any request).
    await page.getByLabel('Not contacted for at least (days)').fill('3');
    await page.getByLabel('Owner group ID').fill(String(group.id));
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(page.getByText('Days must be between 7 and 3650.')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByLabel('Not contacted for at least (days)')).toHaveAttribute('aria-invalid', 'true');
    await checkPage(page, 'runner-cleanup-refused');

    await page.getByLabel('Not contacted for at least (days)').fill('30');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`stale_days=30.*owner_group_id=${group.id}`));
    await expect(page.getByTestId('cleanup-count')).toHaveText('2 stale runners match this rule.', { timeout: 15_000 });
    await expect(preview(page).getByRole('row')).toHaveCount(3);
    await expect(preview(page)).toContainText(`${tag} old`);
    await expect(preview(page)).toContainText(`${tag} never`);
    await expect(preview(page)).not.toContainText(`${tag} fresh`);
    // At 390 px each runner of the preview is a card, its facts under their names; nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const card = preview(page)
      .getByRole('row')
      .filter({ hasText: `${tag} old` });
    for (const label of ['Runner', 'Type', 'Status', 'Last contact', 'Created', 'Owner'])
      await expect(card.locator(`td[data-label="${label}"]`), label).toBeVisible();
    await expectNoSideScroll(page, 'cleanup preview at 390 px');
    const region = page.getByRole('region', { name: 'Stale runners' });
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth), 'preview scrolls sideways').toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(preview(page).getByRole('columnheader', { name: 'Last contact' })).toBeVisible();
    await checkPage(page, 'runner-cleanup-preview');

    // Cancel keeps everything; confirming deletes and shows each runner's result.
    await page.getByRole('button', { name: 'Delete 2 stale runners' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 2 stale runners?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Delete 2 stale runners' }).click();
    await dialog.getByRole('button', { name: 'Delete runners' }).click();
    await expect(page.getByText('Deleted 2 of 2 matched runners.')).toBeVisible({ timeout: 20_000 });
    const results = page.getByRole('table', { name: 'Results of this cleanup' });
    await expect(results.getByText('Deleted', { exact: true })).toHaveCount(2);
    await expect(page.getByText('No stale runners', { exact: true })).toBeVisible({ timeout: 15_000 });
    expect((await page.request.get(`/api/v4/runners/${old.id}`)).status()).toBe(404);
    expect((await page.request.get(`/api/v4/runners/${fresh.id}`)).status()).toBe(200);

    // The run heads the last cleanups, its results behind a disclosure.
    const runs = page.getByRole('region', { name: 'Last cleanups' }).or(page.locator('section', { has: page.getByRole('heading', { name: 'Last cleanups' }) }));
    const latest = runs.getByRole('listitem').first();
    await expect(latest).toContainText('2 deleted');
    await latest.getByText('Show results').click();
    await expect(latest.getByRole('table')).toContainText(`${tag} never`);
    await checkPage(page, 'runner-cleanup-done');

    // The daily cleanup: off by default, on and off again, surviving a reload.
    const daily = page.getByRole('switch', { name: 'Delete stale runners every day' });
    await expect(daily).toHaveAttribute('aria-checked', 'false');
    await daily.click();
    await expect(daily).toHaveAttribute('aria-checked', 'true');
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Delete stale runners every day' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('switch', { name: 'Delete stale runners every day' }).click();
    await expect(page.getByRole('switch', { name: 'Delete stale runners every day' })).toHaveAttribute('aria-checked', 'false');
  });

  test('[RUNNERS] runner list filters by owner group and project from the URL', async ({ page }) => {
    const api = await rootApi(page);
    const group = await api.group('own');
    const project = await api.project('ownp', group.id);
    const tag = uniq('own');
    await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} group`, tag_list: [tag] });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} project`, tag_list: [tag] });
    await api.runner({ runner_type: 'instance_type', description: `${tag} instance`, tag_list: [tag] });

    await page.goto(`/admin/runners?tag_list=${tag}`);
    const table = page.getByRole('table', { name: 'Runners', exact: true });
    await expect(table.getByRole('row')).toHaveCount(4, { timeout: 15_000 });
    await filterRunners(page, 'Owner group ID', String(group.id));
    await expect(page).toHaveURL(new RegExp(`owner_group_id%5B%5D=${group.id}`));
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table).toContainText(`${tag} group`);

    await page.goto(`/admin/runners?tag_list=${tag}&owner_project_id=${project.id}`);
    await expect(page.getByRole('button', { name: `Remove filter Owner project ID = ${project.id}` })).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(2, { timeout: 15_000 });
    await expect(table).toContainText(`${tag} project`);

    // A bad id in the address is dropped from it.
    await page.goto(`/admin/runners?owner_group_id=abc`);
    await expect(page).toHaveURL(/\/admin\/runners$/, { timeout: 15_000 });
    await checkPage(page, 'runners-owner-filter-refused');
  });
});
