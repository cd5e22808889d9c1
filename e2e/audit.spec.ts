// [AUDIT] The audit trail in the dashboard: a runner's Activity tab (who, what, before -> after, IP, when)
// and the Admin area's audit events page with its filters in the URL, filtered-empty and error states.
import { expect, test } from '@playwright/test';
import { checkPage, OWNER, rootApi, signedInAs } from './support/runner-seed';
import { csrfToken, uniq } from './support/session';

test.describe('[AUDIT] audit events pages', () => {
  test.setTimeout(180_000);

  test('[AUDIT] a runner page Activity tab lists its changes, newest first, with before and after', async ({ page }) => {
    const api = await rootApi(page);
    const group = await api.group('audit-group');
    const before = uniq('before');
    const runner = await api.runner({ runner_type: 'group_type', group_id: group.id, description: before, tag_list: 'linux' });
    const after = uniq('after');
    const put = await page.request.put(`/api/v4/runners/${runner.id}`, {
      data: { description: after, tag_list: ['linux', 'arm64'] },
      headers: { 'X-CSRF-Token': await csrfToken(page) },
    });
    expect(put.status()).toBe(200);

    await page.goto(`/admin/runners/${runner.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`#${runner.id}`);
    // Pausing from the page writes an event that the open Activity tab then shows.
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'Activity' }).click();
    await expect(page).toHaveURL(/tab=activity/);
    const table = page.getByRole('table', { name: 'Runner activity' });
    await expect(table.getByRole('row')).toHaveCount(4, { timeout: 15_000 });
    const rows = table.getByRole('row');
    await expect(rows.nth(1)).toContainText('Paused CI runner');
    await expect(rows.nth(2)).toContainText('Updated CI runner');
    await expect(rows.nth(2).getByRole('list', { name: 'Changes' })).toContainText(`description: ${before} → ${after}`);
    await expect(rows.nth(2).getByRole('list', { name: 'Changes' })).toContainText('tag_list: linux → arm64, linux');
    await expect(rows.nth(3)).toContainText('Created CI runner');
    await expect(rows.nth(1)).toContainText('Administrator');
    await checkPage(page, 'audit-runner-activity');

    // Back to Details: the facts are there again and the tab is out of the URL.
    await page.getByRole('tab', { name: 'Details' }).click();
    await expect(page.getByRole('region', { name: 'Runner details' })).toBeVisible();
    await expect(page).not.toHaveURL(/tab=activity/);
  });

  test('[AUDIT] the admin audit events page filters by entity and dates in the URL, with filtered-empty and error states', async ({ page, browser }) => {
    const api = await rootApi(page);
    const group = await api.group('audit-filter');
    const r1 = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('one') });
    await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('two') });

    // Linked from the Admin area.
    await page.goto('/admin');
    await page.getByRole('link', { name: /Audit events/ }).click();
    await expect(page).toHaveURL(/\/admin\/audit_logs$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Audit events' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Audit events' })).toBeVisible({ timeout: 15_000 });
    await checkPage(page, 'audit-admin-list');

    await page.getByLabel('Entity type').selectOption('Group');
    await page.getByLabel('Entity ID').fill(String(group.id));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(new RegExp(`entity_type=Group.*entity_id=${group.id}|entity_id=${group.id}.*entity_type=Group`));
    const table = page.getByRole('table', { name: 'Audit events' });
    await expect(table.getByRole('row')).toHaveCount(3, { timeout: 15_000 });
    await expect(table.getByRole('link', { name: `Runner #${r1.id}` })).toHaveAttribute('href', `/admin/runners/${r1.id}`);
    await expect(table).toContainText(`Group ${group.full_path}`);

    // A date range with nothing in it: the filtered-empty state, with the filters still there to clear.
    await page.getByLabel('From').fill('2999-01-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('No audit events match these filters')).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(/created_after=2999-01-01/);
    await checkPage(page, 'audit-admin-filtered-empty');

    // An entity ID without a type is refused in the form; an unknown type in the URL is dropped from it, as
    // the runner list drops what its API would refuse, instead of showing the API's parameter error.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/admin\/audit_logs$/);
    await page.getByLabel('Entity ID').fill('5');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('Choose an entity type for the entity ID.')).toBeVisible();
    await page.goto('/admin/audit_logs?entity_type=Bogus&entity_id=x&created_before=2999-01-01');
    await expect(page).toHaveURL(/\/admin\/audit_logs\?created_before=2999-01-01$/);
    await expect(page.getByRole('table', { name: 'Audit events' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('does not have a valid value')).toHaveCount(0);
    // A date the API refuses still shows its message, with the filters there to clear.
    await page.goto('/admin/audit_logs?created_after=not-a-date');
    await expect(page.getByText('Could not load audit events with these filters')).toBeVisible({ timeout: 15_000 });
    await checkPage(page, 'audit-admin-error');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByRole('table', { name: 'Audit events' })).toBeVisible({ timeout: 15_000 });

    // Group owners get the Activity tab of their runner; the admin page is not theirs (404).
    const owner = await api.user('audit-owner');
    await api.member('groups', group.id, owner.id, OWNER);
    const ownerPage = await signedInAs(browser, owner.username);
    const res = await ownerPage.goto('/admin/audit_logs');
    expect(res?.status()).toBe(404);
    await ownerPage.goto(`/groups/${group.full_path}/-/runners/${r1.id}?tab=activity`);
    await expect(ownerPage.getByRole('table', { name: 'Runner activity' }).getByRole('row')).toHaveCount(2, { timeout: 15_000 });
    await ownerPage.context().close();
  });

  test('[AUDIT] runners: an Entity type entry, deleted ones unlinked, a long tag kept inside the table at 1280 px', async ({ page }) => {
    const api = await rootApi(page);
    const group = await api.group('audit-runners');
    const kept = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('kept') });
    const gone = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('gone') });
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    // A 255-character tag (the longest the API takes) in an event's changes.
    const longTag = 't'.repeat(255);
    expect((await page.request.put(`/api/v4/runners/${kept.id}`, { data: { tag_list: [longTag] }, headers })).status()).toBe(200);
    expect((await page.request.delete(`/api/v4/runners/${gone.id}`, { headers })).status()).toBe(204);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/admin/audit_logs?entity_type=Group&entity_id=${group.id}`);
    const table = page.getByRole('table', { name: 'Audit events' });
    await expect(table.getByRole('row')).toHaveCount(5, { timeout: 15_000 });
    // The deleted runner's events name it, unlinked; the other's link to its page.
    await expect(table.getByText(`Runner #${gone.id} (deleted)`).first()).toBeVisible({ timeout: 15_000 });
    await expect(table.getByRole('link', { name: `Runner #${gone.id}` })).toHaveCount(0);
    await expect(table.getByRole('link', { name: `Runner #${kept.id}` }).first()).toHaveAttribute('href', `/admin/runners/${kept.id}`);
    // The Date column stays inside the table's box.
    const box = (await table.boundingBox())!;
    const frame = (await page.locator('main').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    for (const date of await table.locator('time').all()) {
      const d = (await date.boundingBox())!;
      expect(d.x + d.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    }
    await checkPage(page, 'audit-admin-runners');

    // Entity type "Runner" with its ID: that runner's own trail.
    await page.goto('/admin/audit_logs');
    await page.getByLabel('Entity type').selectOption({ label: 'Runner' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText("Enter the runner's ID.")).toBeVisible();
    await page.getByLabel('Entity ID').fill(String(kept.id));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(new RegExp(`entity_type=Ci(%3A%3A|::)Runner.*entity_id=${kept.id}|entity_id=${kept.id}.*entity_type=Ci(%3A%3A|::)Runner`));
    await expect(table.getByRole('row')).toHaveCount(3, { timeout: 15_000 });
    await expect(table).toContainText('Updated CI runner');
    await expect(table).toContainText('Created CI runner');
  });
});
