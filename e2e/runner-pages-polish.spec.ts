// [RUNNERS] Issue 23 on the runner pages: long tags refused by the form and wrapped on the runner page and its
// activity; switches that keep keyboard focus while they save; the cleanup preview set aside when the rule
// changes; a toast after deleting a runner; the new-runner form's single "Tags" and its Cancel; the jobs table
// as GitLab's; the register page's per-platform instructions; every page usable at 390 px.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSideScroll, sql } from './support/page-checks';
import { checkPage, rootApi } from './support/runner-seed';
import { csrfToken, uniq } from './support/session';

async function atPhoneWidth(page: Page, what: string, mainAction: ReturnType<Page['getByRole']>) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(mainAction).toBeVisible();
  await expectNoSideScroll(page, `${what} at 390 px`);
  const box = (await mainAction.boundingBox())!;
  expect(box.x + box.width, `${what}: main action inside the viewport`).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe('[RUNNERS] runner pages polish', () => {
  test.setTimeout(180_000);

  test('[RUNNERS] a tag over 255 characters is refused by the form; a 255-character one wraps on the runner page and its activity', async ({ page }) => {
    const api = await rootApi(page);
    await page.goto('/admin/runners/new');
    const form = page.getByRole('form', { name: 'New runner' });
    await form.getByRole('textbox', { name: 'Tags' }).fill(`linux, ${'t'.repeat(300)}`);
    await form.getByRole('button', { name: 'Create runner' }).click();
    await expect(form.getByText(/A tag can be at most 255 characters/)).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Tags' })).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/admin\/runners\/new$/);

    // The API refuses it too (a client that skips the form).
    const refused = await page.request.post('/api/v4/user/runners', {
      data: { runner_type: 'instance_type', tag_list: ['u'.repeat(300)] },
      headers: { 'X-CSRF-Token': await csrfToken(page) },
    });
    expect(refused.status()).toBe(400);

    const runner = await api.runner({ runner_type: 'instance_type', description: uniq('long-tag'), tag_list: ['x'.repeat(255)] });
    const put = await page.request.put(`/api/v4/runners/${runner.id}`, {
      data: { tag_list: ['y'.repeat(255)] },
      headers: { 'X-CSRF-Token': await csrfToken(page) },
    });
    expect(put.status()).toBe(200);
    await page.goto(`/admin/runners/${runner.id}`);
    await expect(page.getByRole('region', { name: 'Runner details' })).toContainText('yyyy');
    await expectNoSideScroll(page, 'runner page with a 255-character tag');
    await page.getByRole('tab', { name: 'Activity' }).click();
    const activity = page.getByRole('region', { name: 'Runner activity', exact: true });
    await expect(page.getByText('yyyyyyyy', { exact: false }).first()).toBeVisible();
    await expectNoSideScroll(page, 'runner activity with a 255-character tag');
    // The change's long token wraps inside its cell instead of widening the table.
    const wide = await activity.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(wide).toBeLessThanOrEqual(1);
  });

  test('[RUNNERS] a 255-character tag and a long creator username keep the runner list inside the page, actions in view', async ({ page }) => {
    const api = await rootApi(page);
    const creator = await api.user(`creator${'_long'.repeat(12)}`);
    const description = uniq('long-row');
    const runner = await api.runner({ runner_type: 'instance_type', description, tag_list: ['z'.repeat(255), 'linux'] });
    await sql('UPDATE ci_runners SET creator_id = $1 WHERE id = $2', [creator.id, runner.id]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/admin/runners?search=${description}`);
    const row = page.getByRole('row').filter({ hasText: description });
    await expect(row).toContainText(`@${creator.username}`);
    await expectNoSideScroll(page, 'runner list with a long tag and creator');
    const table = page.getByRole('table');
    const overflow = await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth);
    expect(overflow, 'the table is no wider than its box').toBeLessThanOrEqual(1);
    const del = row.getByRole('button', { name: 'Delete runner' });
    const box = (await del.boundingBox())!;
    expect(box.x + box.width, 'Delete inside the viewport').toBeLessThanOrEqual(1280);
  });

  test('[RUNNERS] a switch keeps keyboard focus while it saves and ignores a second press until then', async ({ page }) => {
    await rootApi(page);
    let puts = 0;
    await page.route('**/api/v4/application/settings', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      puts++;
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await page.goto('/admin/runners/cleanup');
    const toggle = page.getByRole('switch', { name: 'Delete stale runners every day' });
    await expect(toggle).toBeVisible();
    const before = await toggle.getAttribute('aria-checked');
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-busy', 'true');
    await expect(toggle).toBeFocused();
    await page.keyboard.press('Space'); // while saving: ignored, not queued
    await expect(toggle).not.toHaveAttribute('aria-busy', 'true', { timeout: 10_000 });
    await expect(toggle).toHaveAttribute('aria-checked', before === 'true' ? 'false' : 'true');
    expect(puts).toBe(1);
    await expect(toggle).toBeFocused();
    // The next Space works, from the same place: back to how it was.
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-checked', String(before), { timeout: 10_000 });
    expect(puts).toBe(2);
  });

  test('[RUNNERS] stale cleanup: an edited rule sets the preview aside, bad days are explained inline, the dialog states the previewed rule', async ({
    page,
  }) => {
    const api = await rootApi(page);
    const group = await api.group('cln-polish');
    const a = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('stale-a') });
    const b = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('stale-b') });
    await sql(`UPDATE ci_runners SET created_at = now() - interval '200 days', contacted_at = now() - interval '40 days' WHERE id = ANY($1::int[])`, [
      [a.id, b.id],
    ]);

    await page.goto(`/admin/runners/cleanup?stale_days=30&owner_group_id=${group.id}`);
    const days = page.getByLabel('Not contacted for at least (days)');
    const remove = page.getByRole('button', { name: 'Delete 2 stale runners' });
    await expect(remove).toBeVisible({ timeout: 15_000 });

    // 3 is below the minimum: said at once, under the field, and nothing can be deleted meanwhile.
    await days.fill('3');
    await expect(page.getByText('Days must be between 7 and 3650.')).toBeVisible();
    await expect(days).toHaveAttribute('aria-invalid', 'true');
    await expect(remove).toHaveCount(0);
    await expect(page.getByTestId('cleanup-count')).toContainText('The rule has changed');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(days).toBeFocused();
    await expect(page).toHaveURL(/stale_days=30/);

    // A valid but different rule: still no Delete until it is previewed.
    await days.fill('60');
    await expect(page.getByText('Days must be between 7 and 3650.')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Delete \d+ stale runner/ })).toHaveCount(0);

    // Back to the previewed rule: its Delete returns, and the dialog states that rule (30 days).
    await days.fill('30');
    await expect(remove).toBeVisible();
    await remove.click();
    const dialog = page.getByRole('dialog', { name: 'Delete 2 stale runners?' });
    await expect(dialog).toContainText('at least 30 days');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A new rule previewed: the count and the dialog follow it.
    await days.fill('45');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(page).toHaveURL(/stale_days=45/);
    await expect(page.getByTestId('cleanup-count')).toHaveText('0 stale runners match this rule.', { timeout: 15_000 });
    await atPhoneWidth(page, 'cleanup page', page.getByRole('button', { name: 'Preview', exact: true }));
    await checkPage(page, 'runner-cleanup-rule');
  });

  test('[RUNNERS] deleting a runner confirms with a toast on the list; the new-runner form has one "Tags" and a Cancel', async ({ page }) => {
    const api = await rootApi(page);
    const runner = await api.runner({ runner_type: 'instance_type', description: uniq('to-delete') });
    await page.goto(`/admin/runners/${runner.id}`);
    await atPhoneWidth(page, 'runner page', page.getByRole('button', { name: 'Delete' }));
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete runner' }).click();
    await expect(page).toHaveURL(/\/admin\/runners$/);
    await expect(page.getByText(`Runner #${runner.id} was deleted`)).toBeVisible();

    await page.goto('/admin/runners/new');
    const form = page.getByRole('form', { name: 'New runner' });
    await expect(form.getByText('Tags', { exact: true })).toHaveCount(1);
    await expect(form.getByRole('textbox', { name: 'Tags' })).toBeVisible();
    await atPhoneWidth(page, 'new runner form', form.getByRole('button', { name: 'Create runner' }));
    await checkPage(page, 'runner-new-form');
    await form.getByRole('link', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/admin\/runners$/);
  });

  test('[RUNNERS] the runner jobs table: status with icon and word, project and commit links, queued and finished, 30 a page', async ({ page }) => {
    const api = await rootApi(page);
    const project = await api.project('jobs-table');
    const runner = await api.runner({ runner_type: 'instance_type', description: uniq('busy') });
    const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const [pipeline] = await sql(
      `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, created_at, updated_at)
       VALUES (1, $1, $2, 'main', 'success', 'push', now() - interval '2 hours', now()) RETURNING id`,
      [project.id, sha],
    );
    await sql(
      `INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, created_at, started_at, finished_at, queued_duration)
       SELECT $1, $2, $3, CASE WHEN g % 5 = 0 THEN 'failed' ELSE 'success' END, 'test', 'unit ' || g, 'main',
              now() - interval '2 hours', now() - interval '2 hours' + interval '12 seconds', now() - interval '1 hour', 12.5
         FROM generate_series(1, 35) g`,
      [runner.id, project.id, pipeline.id],
    );
    await page.goto(`/admin/runners/${runner.id}`);
    const jobs = page.getByRole('table', { name: 'Runner jobs' });
    await expect(jobs.getByRole('row')).toHaveCount(31, { timeout: 15_000 });
    for (const header of ['Status', 'Job', 'Project', 'Commit', 'Queued', 'Finished'])
      await expect(jobs.getByRole('columnheader', { name: header })).toBeVisible();
    const first = jobs.getByRole('row').nth(1);
    await expect(first.getByText(/^(Passed|Failed)$/)).toBeVisible();
    await expect(first.locator('svg')).not.toHaveCount(0);
    await expect(first.getByRole('link', { name: project.path_with_namespace })).toHaveAttribute('href', `/${project.path_with_namespace}`);
    // The project has no repository, so the job's commit is shown unlinked (a link would lead to a 404).
    await expect(first.getByText(sha.slice(0, 8), { exact: true })).toBeVisible();
    await expect(first.getByRole('link', { name: sha.slice(0, 8) })).toHaveCount(0);
    await expect(first).toContainText('13s');
    await expect(first).toContainText('in 59m');
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' }).first().click();
    await expect(jobs.getByRole('row')).toHaveCount(6);
    // The status filter is a styled radio group, not a native select.
    await expect(page.locator('select')).toHaveCount(0);
    await page.getByRole('group', { name: 'Job status' }).getByRole('radio', { name: 'Failed' }).check();
    await expect(page).toHaveURL(/jobs_status=failed/);
    await expect(jobs.getByRole('row')).toHaveCount(8);
    await checkPage(page, 'runner-page-jobs');
  });

  test('[RUNNERS] the register page: install and register commands per platform, with the executor documentation', async ({ page, baseURL }) => {
    await rootApi(page);
    await page.goto('/admin/runners/new');
    await page.getByRole('form', { name: 'New runner' }).getByLabel('Run untagged jobs').check();
    await page.getByRole('button', { name: 'Create runner' }).click();
    await expect(page).toHaveURL(/\/register$/);
    const command = page.getByRole('textbox', { name: 'Registration command' });
    const token = (await command.inputValue()).split('--token ')[1];
    await expect(page.getByRole('link', { name: /Not sure which one to select/ })).toHaveAttribute('href', 'https://docs.gitlab.com/runner/executors/');
    await expect(page.getByLabel('Linux install commands', { exact: true })).toContainText('gitlab-runner-linux-amd64');
    await expect(page.getByRole('button', { name: 'Copy linux install commands' })).toBeVisible();

    await page.getByRole('radio', { name: 'Docker' }).check();
    await expect(command).toHaveValue(new RegExp(`^docker run .*gitlab/gitlab-runner register --url ${baseURL} --token ${token}$`));
    await expect(page.getByLabel('Docker install commands', { exact: true })).toContainText('gitlab/gitlab-runner:latest');
    await page.getByRole('radio', { name: 'Kubernetes' }).check();
    await expect(command).toHaveValue(
      `helm install --namespace gitlab-runner --create-namespace gitlab-runner gitlab/gitlab-runner --set gitlabUrl=${baseURL} --set runnerToken=${token}`,
    );
    await page.getByRole('radio', { name: 'macOS' }).check();
    await expect(page.getByLabel('macOS install commands', { exact: true })).toContainText('gitlab-runner-darwin-arm64');
    await checkPage(page, 'runner-register-platforms');
    await atPhoneWidth(page, 'register page', page.getByRole('button', { name: 'Copy registration command' }));
  });

  test('[RUNNERS] the fleet dashboard and the edit page fit a phone', async ({ page }) => {
    const api = await rootApi(page);
    const runner = await api.runner({ runner_type: 'instance_type', description: uniq('phone') });
    await page.goto(`/admin/runners/${runner.id}/edit`);
    await atPhoneWidth(page, 'edit page', page.getByRole('button', { name: 'Save changes' }));
    await checkPage(page, 'runner-edit-form');
    await page.goto('/admin/runners/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500);
    await expectNoSideScroll(page, 'fleet dashboard at 390 px');
    await checkPage(page, 'runner-fleet-dashboard');
  });
});
