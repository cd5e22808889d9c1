// [SHELL] Issue 23's "every page usable at 390 px", for the pages no other spec checks at that width: the
// runner page's Jobs and Managers tables drawn as cards (each job's status and project, each manager's facts
// on screen, nothing scrolling sideways), a project's merge request list and commit page, and the runner pages of a group and a project.
import { expect, test, type Page } from '@playwright/test';
import { buildSampleRepo, removeRepo } from '../tests/fixtures/git-repos';
import { screenshot } from './support/axe';
import { expectNoSideScroll, sql } from './support/page-checks';
import { json, rootApi } from './support/runner-seed';
import { csrfToken, uniq } from './support/session';

const PHONE = { width: 390, height: 844 };

test('[RUNNERS] at 390 px the runner page lists its jobs as cards: status and project on screen, no sideways scrolling', async ({ page }) => {
  test.setTimeout(120_000);
  const api = await rootApi(page);
  const project = await api.project('phone-jobs');
  const runner = await api.runner({ runner_type: 'instance_type', description: uniq('phone-jobs') });
  const [pipeline] = await sql(
    `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, created_at, updated_at)
     VALUES (1, $1, 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', 'feature/a-branch-name-long-enough-to-wrap-on-a-phone', 'success', 'push', now(), now()) RETURNING id`,
    [project.id],
  );
  await sql(
    `INSERT INTO ci_builds (runner_id, project_id, pipeline_id, status, stage, name, ref, created_at, started_at, finished_at, queued_duration)
     SELECT $1, $2, $3, CASE WHEN g % 2 = 0 THEN 'failed' ELSE 'success' END, 'test', 'integration tests ' || g,
            'feature/a-branch-name-long-enough-to-wrap-on-a-phone', now() - interval '1 hour', now() - interval '59 minutes', now() - interval '30 minutes', 4.2
       FROM generate_series(1, 3) g`,
    [runner.id, project.id, pipeline.id],
  );
  await page.setViewportSize(PHONE);
  await page.goto(`/admin/runners/${runner.id}`);
  const jobs = page.getByRole('table', { name: 'Runner jobs' });
  await expect(jobs.getByText('integration tests 3')).toBeVisible({ timeout: 15_000 });
  await expectNoSideScroll(page, 'runner page with jobs');
  // The table itself is no wider than its box: no column is cut off behind a sideways scroll.
  const region = page.getByRole('region', { name: 'Runner jobs' });
  const { scroll, client } = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll, 'jobs table scrolls sideways').toBeLessThanOrEqual(client);
  const card = jobs.getByRole('row').filter({ hasText: 'integration tests 3' });
  for (const part of [card.getByText('Passed', { exact: true }), card.getByRole('link', { name: project.path_with_namespace })]) {
    await expect(part).toBeVisible();
    const box = (await part.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= PHONE.width, 'inside the screen').toBe(true);
  }
  // Each cell says what it is, as the column header would.
  await expect(card.locator('td[data-label="Project"]')).toBeVisible();
  // Runway has no job page: the job is text, not a link.
  await expect(card.getByRole('link', { name: /integration tests/ })).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(jobs.getByRole('columnheader', { name: 'Project' })).toBeVisible();
  // At desktop width too, a long ref or project path leaves every column on screen.
  const wide = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(wide.scroll, 'jobs table scrolls sideways at 1280 px').toBeLessThanOrEqual(wide.client);
  const finished = jobs.getByRole('columnheader', { name: 'Finished' });
  await finished.scrollIntoViewIfNeeded();
  await expect(finished).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'runner-jobs-cards');
});

test('[RUNNERS] at 390 px the runner page lists its managers as cards, each fact under its name; a table at desktop width', async ({ page }) => {
  const api = await rootApi(page);
  const runner = await api.runner({ runner_type: 'instance_type', description: uniq('phone-managers') });
  // Two machines connect with the runner's token: two managers, with version, platform and address.
  const systemIds = [1, 2].map((n) => `s_${uniq(`m${n}`).replace(/-/g, '')}0123456789abcdef`);
  for (const system_id of systemIds) {
    const verified = await page.request.post('/api/v4/runners/verify', {
      data: { token: runner.token, system_id, info: { version: '18.4.1', revision: 'a1b2c3d4', platform: 'linux', architecture: 'amd64' } },
    });
    expect(verified.status(), await verified.text()).toBe(200);
  }
  await page.setViewportSize(PHONE);
  await page.goto(`/admin/runners/${runner.id}`);
  const managers = page.getByRole('table', { name: 'Runner managers' });
  await expect(managers.getByText(systemIds[1])).toBeVisible({ timeout: 15_000 });
  await expectNoSideScroll(page, 'runner page with managers');
  const region = page.getByRole('region', { name: 'Runner managers' });
  const { scroll, client } = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll, 'managers table scrolls sideways').toBeLessThanOrEqual(client);
  const card = managers.getByRole('row').filter({ hasText: systemIds[0] });
  for (const label of ['System ID', 'Status', 'Version', 'Platform', 'IP address', 'Last contact']) {
    const fact = card.locator(`td[data-label="${label}"]`);
    await expect(fact, label).toBeVisible();
    const box = (await fact.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= PHONE.width, `${label} inside the screen`).toBe(true);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'runner-managers-cards');
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(managers.getByRole('columnheader', { name: 'Last contact' })).toBeVisible();
});

test('[SHELL] at 390 px the merge request list, a commit, and the group and project runner pages fit the screen', async ({ page }) => {
  test.setTimeout(180_000);
  const api = await rootApi(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const sample = buildSampleRepo();
  try {
    const path = uniq('phone-repo');
    const project = await api.post<{ id: number; path_with_namespace: string }>('/projects', {
      name: path,
      path,
      visibility: 'private',
      import_url: sample.dir,
    });
    await expect
      .poll(async () => (await json<{ import_status: string }>(await page.request.get(`/api/v4/projects/${project.id}`, { headers }), 200)).import_status, {
        timeout: 60_000,
      })
      .toBe('finished');
    const group = await api.group('phone-group');
    const groupRunner = await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('phone-group-runner') });
    const projectRunner = await api.runner({ runner_type: 'project_type', project_id: project.id, description: uniq('phone-project-runner') });
    await page.setViewportSize(PHONE);
    const pages: [string, string, (p: Page) => ReturnType<Page['getByRole']>][] = [
      ['merge-requests', `/${project.path_with_namespace}/-/merge_requests`, (p) => p.getByRole('heading', { name: 'Merge requests', level: 1 })],
      ['commit', `/${project.path_with_namespace}/-/commit/${sample.commits.f1}`, (p) => p.getByText(sample.commits.f1, { exact: true })],
      ['group-runner', `/groups/${group.full_path}/-/runners/${groupRunner.id}`, (p) => p.getByRole('button', { name: 'Delete' })],
      ['group-runner-edit', `/groups/${group.full_path}/-/runners/${groupRunner.id}/edit`, (p) => p.getByRole('button', { name: 'Save changes' })],
      ['group-runner-new', `/groups/${group.full_path}/-/runners/new`, (p) => p.getByRole('button', { name: 'Create runner' })],
      ['project-runner', `/${project.path_with_namespace}/-/runners/${projectRunner.id}`, (p) => p.getByRole('button', { name: 'Delete' })],
      ['project-runner-new', `/${project.path_with_namespace}/-/runners/new`, (p) => p.getByRole('button', { name: 'Create runner' })],
    ];
    for (const [name, url, main] of pages) {
      await test.step(name, async () => {
        await page.goto(url);
        await expect(main(page)).toBeVisible();
        await expectNoSideScroll(page, name);
        const box = (await main(page).boundingBox())!;
        expect(box.x + box.width, `${name}: main content inside the screen`).toBeLessThanOrEqual(PHONE.width);
        await screenshot(page, `phone-${name}`);
      });
    }
  } finally {
    removeRepo(sample);
  }
});
