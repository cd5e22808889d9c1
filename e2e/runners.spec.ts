// [RUNNERS] The Runners pages: the list (filters in the URL), a runner's page (pause, edit with the API's
// validation errors, delete after confirmation), and what non-admins see of runners from their projects.
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { csrfToken, signIn, uniq } from './support/session';
import { filterRunners } from './support/runner-filters';

const RUNNERS_PAGE = '/admin/runners';
const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rowOf = (page: Page, text: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByText(text, { exact: true }) });
const isRunnerWrite = (method: string, id: number) => (r: { url(): string; request(): { method(): string } }) =>
  r.url().endsWith(`/api/v4/runners/${id}`) && r.request().method() === method;

async function json<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** Seeds through the API with the signed-in admin's session (cookie + CSRF token). */
function adminApi(page: Page, csrf: string) {
  const headers = { 'X-CSRF-Token': csrf };
  return {
    project: async (name: string) =>
      json<{ id: number; path_with_namespace: string }>(await page.request.post('/api/v4/projects', { data: { name, path: name }, headers }), 201),
    runner: async (data: Record<string, unknown>) =>
      json<{ id: number; token: string }>(await page.request.post('/api/v4/user/runners', { data, headers }), 201),
    post: async (path: string, data: Record<string, unknown>, status = 201) => json(await page.request.post(`/api/v4${path}`, { data, headers }), status),
  };
}

test.describe('[RUNNERS] runners pages', () => {
  test('[RUNNERS] list and filter runners, then pause, edit and delete one', async ({ page }) => {
    await signIn(page);
    const api = adminApi(page, await csrfToken(page));
    const tag = uniq('e2e-tag');
    const project = await api.project(uniq('runners-e2e'));
    const alpha = await api.runner({ runner_type: 'instance_type', description: `${tag} alpha`, tag_list: tag });
    await api.runner({ runner_type: 'instance_type', description: `${tag} beta`, tag_list: tag, paused: true });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} gamma`, tag_list: tag });

    // The menu leads to the list; the tag filter (typed in the form) goes into the URL.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' }).click();
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}$`));
    await expect(page.getByRole('heading', { name: 'Runners' })).toBeVisible();
    await filterRunners(page, 'Tag', tag);
    await expect(page).toHaveURL(new RegExp(`[?&]tag%5B%5D=${tag}`));
    await expect(table(page).getByRole('row')).toHaveCount(4); // header + 3

    const alphaRow = rowOf(page, `${tag} alpha`);
    await expect(alphaRow.getByText('Never contacted')).toBeVisible();
    await expect(alphaRow.getByText('Paused', { exact: true })).toHaveCount(0);
    await expect(alphaRow.getByText('Instance')).toBeVisible();
    await expect(alphaRow.getByRole('link', { name: `#${alpha.id}`, exact: true })).toBeVisible();
    const betaRow = rowOf(page, `${tag} beta`);
    await expect(betaRow.getByText('Never contacted')).toBeVisible();
    await expect(betaRow.getByText('Paused')).toBeVisible();
    await expect(rowOf(page, `${tag} gamma`).getByText('Project')).toBeVisible();

    // Type tabs: the URL and the rows follow.
    await page.getByRole('tab', { name: 'Project' }).click();
    await expect(page).toHaveURL(/[?&]runner_type%5B%5D=PROJECT_TYPE/);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, `${tag} gamma`)).toHaveCount(1);
    await page.getByRole('tab', { name: 'Instance' }).click();
    await expect(page).toHaveURL(/[?&]runner_type%5B%5D=INSTANCE_TYPE/);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await expect(rowOf(page, `${tag} gamma`)).toHaveCount(0);

    // Status and paused filters.
    await filterRunners(page, 'Status', 'Never contacted');
    await expect(page).toHaveURL(/[?&]status%5B%5D=NEVER_CONTACTED/);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await filterRunners(page, 'Paused', 'Yes');
    await expect(page).toHaveURL(/[?&]paused%5B%5D=true/);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, `${tag} beta`)).toHaveCount(1);
    await page.getByRole('button', { name: 'Remove filter Status = Never contacted' }).click();
    await filterRunners(page, 'Status', 'Online');
    await expect(page.getByText('No results found')).toBeVisible();

    // The URL is the state: opening it directly shows the same rows.
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}&type=instance_type`);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await expect(page.getByRole('tab', { name: 'Instance' })).toHaveAttribute('aria-selected', 'true');

    // Open alpha.
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}`);
    await rowOf(page, `${tag} alpha`)
      .getByRole('link', { name: `#${alpha.id}`, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}/${alpha.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`#${alpha.id}`);
    const badges = page.getByTestId('runner-header-badges');
    await expect(badges).toContainText('Never contacted');
    await expect(badges).not.toContainText('Paused');
    await expect(page.getByText('No managers yet')).toBeVisible();
    await expect(page.getByText('No jobs yet')).toBeVisible();

    // Pause, then resume: the badge follows.
    let put = page.waitForResponse(isRunnerWrite('PUT', alpha.id));
    await page.getByRole('button', { name: 'Pause' }).click();
    expect((await put).status()).toBe(200);
    await expect(badges).toContainText('Paused');
    put = page.waitForResponse(isRunnerWrite('PUT', alpha.id));
    await page.getByRole('button', { name: 'Resume' }).click();
    expect((await put).status()).toBe(200);
    await expect(badges).not.toContainText('Paused');
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();

    // Edit: no tags while refusing untagged jobs is the API's validation, checked by the form before sending
    // (the API's own refusal is in tests/api) and shown by the tags field.
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}/${alpha.id}/edit$`));
    const form = page.getByRole('form', { name: 'Edit runner' });
    await form.getByRole('textbox', { name: 'Tags', exact: true }).fill('');
    await form.getByLabel('Run untagged jobs').uncheck();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.locator('#runner-tags-error')).toHaveText('can not be empty when runner is not allowed to pick untagged jobs');
    await expect(form.getByRole('textbox', { name: 'Tags', exact: true })).toBeFocused();
    await expect(form.getByRole('textbox', { name: 'Tags', exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('alert')).toContainText('check tags');

    await form.getByRole('textbox', { name: 'Tags', exact: true }).fill(`${tag}, edited`);
    await form.getByLabel('Maintenance note').fill('Replaced the disk');
    put = page.waitForResponse(isRunnerWrite('PUT', alpha.id));
    await form.getByRole('button', { name: 'Save changes' }).click();
    const saved = await put;
    expect(saved.status()).toBe(200);
    expect(await saved.json()).toMatchObject({ tag_list: expect.arrayContaining([tag, 'edited']), run_untagged: false, maintenance_note: 'Replaced the disk' });
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}/${alpha.id}$`));
    const facts = page.getByRole('region', { name: 'Runner details' });
    await expect(facts.getByText('edited', { exact: true })).toBeVisible();
    await expect(facts.getByText('Replaced the disk')).toBeVisible();

    // Delete after confirming: back on the list, and gone from it.
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete runner #${alpha.id}?` });
    await expect(dialog).toBeVisible();
    const deleted = page.waitForResponse(isRunnerWrite('DELETE', alpha.id));
    await dialog.getByRole('button', { name: 'Delete runner' }).click();
    expect((await deleted).status()).toBe(204);
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}$`));
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}`);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await expect(rowOf(page, `${tag} alpha`)).toHaveCount(0);
    await expect(rowOf(page, `${tag} beta`)).toHaveCount(1);
    expect((await page.request.get(`/api/v4/runners/${alpha.id}`)).status()).toBe(404);
    // As GET /runners/:id, the page of a deleted runner answers 404.
    expect((await page.goto(`${RUNNERS_PAGE}/${alpha.id}`))?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('[RUNNERS] a bad filter in the address is dropped, and a page past the end explains itself and offers the way back', async ({ page }) => {
    await signIn(page);
    const api = adminApi(page, await csrfToken(page));
    const tag = uniq('e2e-states');
    for (const name of ['one', 'two', 'three']) await api.runner({ runner_type: 'instance_type', description: `${tag} ${name}`, tag_list: tag });

    // A bad version prefix in the address is dropped from it (normalised), not kept and ignored.
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}&version_prefix=V15`);
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}\\?tag%5B%5D=${tag}$`));
    await expect(table(page).getByRole('row')).toHaveCount(4);
    await expect(page.getByRole('button', { name: /Remove filter Version/ })).toHaveCount(0);

    // A page past the end says so and offers the last page (from X-Total-Pages), not "No runners".
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}&page=9999`);
    await expect(page.getByText('Page 9999 does not exist')).toBeVisible();
    await expect(page.getByText('There are 3 runners on 1 page.')).toBeVisible();
    await expect(page.getByText('No runners', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Go to last page' }).click();
    await expect(page).toHaveURL(new RegExp(`${RUNNERS_PAGE}\\?tag%5B%5D=${tag}$`));
    await expect(table(page).getByRole('row')).toHaveCount(4);
  });

  test('[RUNNERS] a maintainer opens their runner from the project; a runner of two projects cannot be deleted by them', async ({ page, browser }) => {
    await signIn(page);
    const api = adminApi(page, await csrfToken(page));
    const username = uniq('runner-owner');
    const password = 'runner-owner-password-1';
    const user = await api.post('/users', { username, name: 'Runner Owner', email: `${username}@example.com`, password });
    const first = await api.project(uniq('runners-one'));
    const second = await api.project(uniq('runners-two'));
    await api.post(`/projects/${first.id}/members`, { user_id: user.id, access_level: 40 });
    const description = uniq('shared-by-two');
    const runner = await api.runner({ runner_type: 'project_type', project_id: first.id, description });
    await api.post(`/projects/${second.id}/runners`, { runner_id: runner.id });
    // An instance runner the maintainer must not see.
    await api.runner({ runner_type: 'instance_type', description: uniq('not-theirs') });

    const context = await browser.newContext();
    const owner = await context.newPage();
    await signIn(owner, username, password);
    // The Admin area's list is not theirs (GitLab's 404, no menu entry): they go through the project.
    await expect(owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' })).toHaveCount(0);
    await owner.goto(RUNNERS_PAGE);
    await expect(owner.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await owner.goto(`/${first.path_with_namespace}/-/settings/ci_cd`);
    await owner
      .getByRole('table', { name: 'Assigned project runners', exact: true })
      .getByRole('link', { name: new RegExp(`^#${runner.id}\\b`) })
      .click();
    await expect(owner.getByRole('heading', { level: 1 })).toContainText(description);
    await expect(owner.getByRole('list', { name: 'Assigned projects' })).toContainText(first.path_with_namespace.split('/').pop()!);

    // They may pause and edit it and read its jobs; deleting a runner of two projects is not theirs to do,
    // so there is no Delete button to answer 403.
    await expect(owner.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(owner.getByRole('link', { name: 'Edit' })).toBeVisible();
    await expect(owner.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await expect(owner.getByText('No jobs yet')).toBeVisible();
    const denied = await owner.request.delete(`/api/v4/runners/${runner.id}`, { headers: { 'X-CSRF-Token': await csrfToken(owner) } });
    expect(denied.status()).toBe(403);
    expect((await page.request.get(`/api/v4/runners/${runner.id}`)).status()).toBe(200);
    await context.close();
  });

  test('[RUNNERS] a non-admin on an instance runner sees no actions they may not take and no broken jobs panel', async ({ page, browser }) => {
    await signIn(page);
    const api = adminApi(page, await csrfToken(page));
    const username = uniq('runner-viewer');
    const password = 'runner-viewer-password-1';
    await api.post('/users', { username, name: 'Runner Viewer', email: `${username}@example.com`, password });
    const description = uniq('instance-for-all');
    const runner = await api.runner({ runner_type: 'instance_type', description, tag_list: 'shared' });

    // A developer of a project: they see the instance runners available to it on the project's runner pages.
    const theirs = await api.project(uniq('viewers'));
    const viewerUser = await (await page.request.get(`/api/v4/users?username=${username}`)).json();
    await api.post(`/projects/${theirs.id}/members`, { user_id: viewerUser[0].id, access_level: 30 });
    const runnerPage = (id: number) => `/${theirs.path_with_namespace}/-/runners/${id}`;

    const context = await browser.newContext();
    const viewer = await context.newPage();
    await signIn(viewer, username, password);
    const jobsRequests: string[] = [];
    viewer.on('request', (r) => r.url().includes(`/api/v4/runners/${runner.id}/jobs`) && jobsRequests.push(r.url()));
    await viewer.goto(runnerPage(runner.id));
    await expect(viewer.getByRole('heading', { level: 1 })).toContainText(description);
    await expect(viewer.getByRole('region', { name: 'Runner details' })).toContainText('shared');
    await expect(viewer.getByText('No managers yet')).toBeVisible();
    for (const name of ['Pause', 'Resume', 'Delete']) await expect(viewer.getByRole('button', { name })).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(viewer.getByRole('heading', { name: 'Jobs' })).toHaveCount(0);
    await expect(viewer.getByText('Could not load runner jobs')).toHaveCount(0);
    await expect(viewer.getByText('403 Forbidden')).toHaveCount(0);
    expect(jobsRequests).toEqual([]);

    // A project runner of someone else's project: not readable, so not found (HTTP 404), as the API's answer
    // for it is a refusal and GitLab's page a 404: the page does not confirm that it exists.
    const project = await api.project(uniq('not-viewers'));
    const hidden = await api.runner({ runner_type: 'project_type', project_id: project.id, description: uniq('hidden') });
    const res = await viewer.goto(runnerPage(hidden.id));
    expect(res?.status()).toBe(404);
    await expect(viewer.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await context.close();
  });
});
