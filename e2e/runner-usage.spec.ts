// [FLEET] The runner usage export in the browser (issue 33): an admin exports a period from the fleet
// dashboard and a group Owner from the group's runner list ("Export usage", at 390 px); the file downloads
// with the rows the API streams, a toast says what it holds, and a Maintainer is not offered the button.
// Jobs are dated in a month of 1999 that no other spec uses, so the files hold this spec's rows only.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { sql } from './support/page-checks';
import { checkPage, rootApi, signedInAs } from './support/runner-seed';

/** One finished job of `runnerId` in `projectId`: `seconds` long, finished at `finished`. */
async function job(runnerId: number, projectId: number, finished: string, seconds: number, status = 'success') {
  const [pipeline] = await sql(
    `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, updated_at)
     VALUES ((SELECT COALESCE(MAX(iid), 0) + 1 FROM ci_pipelines WHERE project_id = $1), $1, md5(random()::text), 'main', 'success', 'push', now()) RETURNING id`,
    [projectId],
  );
  await sql(
    `INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, started_at, finished_at, queued_duration)
     VALUES ($1, $2, $3, $4, 'test', 'job', 'main', $5::timestamptz - make_interval(secs => $6), $5::timestamptz, 30)`,
    [runnerId, projectId, pipeline.id, status, finished, seconds],
  );
}

async function exportFrom(page: Page, region: ReturnType<Page['getByRole']>, from: string, to: string) {
  await region.getByLabel('From').fill(from);
  await region.getByLabel('To').fill(to);
  const download = page.waitForEvent('download');
  await region.getByRole('button', { name: 'Export as CSV' }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
}

test.describe('[FLEET] runner usage export', () => {
  test.describe.configure({ timeout: 180_000 });

  test('[FLEET] an admin exports a period from the fleet dashboard; a group Owner from the group runner list at 390 px', async ({ page, browser }) => {
    const api = await rootApi(page);
    const group = await api.group('usage');
    const project = await api.project('usage-app', group.id);
    const [owner, maintainer] = [await api.user('usage_owner'), await api.user('usage_maint')];
    await api.member('groups', group.id, owner.id, 50);
    await api.member('groups', group.id, maintainer.id, 40);
    const runner = await api.runner({ runner_type: 'group_type', group_id: group.id, description: 'usage e2e runner' });
    await job(runner.id, project.id, '1999-06-10T10:00:00Z', 120);
    await job(runner.id, project.id, '1999-06-11T10:00:00Z', 360, 'failed');

    await page.goto('/admin/runners/dashboard');
    const panel = page.getByRole('region', { name: 'Runner usage' });
    await expect(panel.getByRole('button', { name: 'Export as CSV' })).toBeVisible();
    const admin = await exportFrom(page, panel, '1999-06-01', '1999-06-30');
    expect(admin.name).toBe('instance-runner-usage-1999-06-01-to-1999-06-30.csv');
    const lines = admin.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`${runner.id},group_type,usage e2e runner,${project.id},${project.path_with_namespace},2,1,50,8,4,1,0.5`);
    await expect(page.getByText(`Exported 1 row for 1 runner to ${admin.name}.`)).toBeVisible();
    await checkPage(page, 'fleet-usage-export');

    // The group Owner, on a phone: the dialog from the list's header.
    const ownerPage = await signedInAs(browser, owner.username);
    await ownerPage.setViewportSize({ width: 390, height: 844 });
    await ownerPage.goto(`/groups/${group.full_path}/-/runners`);
    const open = ownerPage.getByRole('button', { name: 'Export usage' });
    await open.click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Export runner usage' });
    const own = await exportFrom(ownerPage, dialog, '1999-06-11', '1999-06-11');
    expect(own.name).toBe(`${group.full_path}-runner-usage-1999-06-11-to-1999-06-11.csv`);
    expect(own.text.trimEnd().split('\r\n')[1]).toBe(
      `${runner.id},group_type,usage e2e runner,${project.id},${project.path_with_namespace},1,1,100,6,6,0.5,0.5`,
    );
    await ownerPage.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();

    // A Maintainer sees the list, not the export.
    const maintainerPage = await signedInAs(browser, maintainer.username);
    await maintainerPage.goto(`/groups/${group.full_path}/-/runners`);
    await expect(maintainerPage.getByRole('heading', { name: 'Runners', level: 1 })).toBeVisible();
    await expect(maintainerPage.getByRole('button', { name: 'Export usage' })).toHaveCount(0);
  });

  test('[FLEET] a period the API refuses is explained in the form', async ({ page }) => {
    await rootApi(page);
    await page.goto('/admin/runners/dashboard');
    const panel = page.getByRole('region', { name: 'Runner usage' });
    await panel.getByLabel('From').fill('1990-01-01');
    await panel.getByLabel('To').fill('1999-01-01');
    await panel.getByRole('button', { name: 'Export as CSV' }).click();
    await expect(panel.getByText('the period is longer than 366 days')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Export as CSV' })).toBeFocused();
  });
});
