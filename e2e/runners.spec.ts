// [RUNNERS] The Runners pages: the list (filters in the URL), a runner's page (pause, edit with the API's
// validation errors, delete after confirmation), and what a non-admin owner sees.
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { csrfToken, signIn, uniq } from './support/session';

const RUNNERS_PAGE = '/admin/runners';
const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rowOf = (page: Page, text: string) => table(page).getByRole('row').filter({ has: page.getByText(text, { exact: true }) });
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
    project: async (name: string) => json<{ id: number; path_with_namespace: string }>(await page.request.post('/api/v4/projects', { data: { name, path: name }, headers }), 201),
    runner: async (data: Record<string, unknown>) => json<{ id: number; token: string }>(await page.request.post('/api/v4/user/runners', { data, headers }), 201),
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
    await page.getByLabel('Tags').fill(tag);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]tag_list=${tag}`));
    await expect(table(page).getByRole('row')).toHaveCount(4); // header + 3

    const alphaRow = rowOf(page, `${tag} alpha`);
    await expect(alphaRow.getByText('Never contacted')).toBeVisible();
    await expect(alphaRow.getByText('Paused')).toHaveCount(0);
    await expect(alphaRow.getByText('Instance')).toBeVisible();
    await expect(alphaRow.getByRole('link', { name: `#${alpha.id}` })).toBeVisible();
    const betaRow = rowOf(page, `${tag} beta`);
    await expect(betaRow.getByText('Never contacted')).toBeVisible();
    await expect(betaRow.getByText('Paused')).toBeVisible();
    await expect(rowOf(page, `${tag} gamma`).getByText('Project')).toBeVisible();

    // Type tabs: the URL and the rows follow.
    await page.getByRole('tab', { name: 'Project' }).click();
    await expect(page).toHaveURL(/[?&]type=project_type/);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, `${tag} gamma`)).toHaveCount(1);
    await page.getByRole('tab', { name: 'Instance' }).click();
    await expect(page).toHaveURL(/[?&]type=instance_type/);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await expect(rowOf(page, `${tag} gamma`)).toHaveCount(0);

    // Status and paused filters.
    await page.getByLabel('Status').selectOption('never_contacted');
    await expect(page).toHaveURL(/[?&]status=never_contacted/);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await page.getByLabel('Paused').selectOption('true');
    await expect(page).toHaveURL(/[?&]paused=true/);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, `${tag} beta`)).toHaveCount(1);
    await page.getByLabel('Status').selectOption('online');
    await expect(page.getByText('No runners match these filters')).toBeVisible();

    // The URL is the state: opening it directly shows the same rows; a bad version prefix shows the API's error.
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}&type=instance_type`);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    await expect(page.getByRole('tab', { name: 'Instance' })).toHaveAttribute('aria-selected', 'true');
    await page.goto(`${RUNNERS_PAGE}?version_prefix=V15`);
    await expect(page.getByRole('main').getByRole('alert')).toContainText('version_prefix is invalid');

    // Open alpha.
    await page.goto(`${RUNNERS_PAGE}?tag_list=${tag}`);
    await rowOf(page, `${tag} alpha`).getByRole('link', { name: `#${alpha.id}` }).click();
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

    // Edit: no tags while refusing untagged jobs is the API's validation error, shown by the tags field.
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit runner' });
    await form.getByRole('textbox', { name: 'Tags', exact: true }).fill('');
    await form.getByLabel('Run untagged jobs').uncheck();
    put = page.waitForResponse(isRunnerWrite('PUT', alpha.id));
    await form.getByRole('button', { name: 'Save changes' }).click();
    const refused = await put;
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toEqual({ message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } });
    await expect(form.locator('#runner-tags-error')).toHaveText('can not be empty when runner is not allowed to pick untagged jobs');
    await expect(form.getByRole('textbox', { name: 'Tags', exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('alert')).toContainText('check tags');

    await form.getByRole('textbox', { name: 'Tags', exact: true }).fill(`${tag}, edited`);
    await form.getByLabel('Maintenance note').fill('Replaced the disk');
    put = page.waitForResponse(isRunnerWrite('PUT', alpha.id));
    await form.getByRole('button', { name: 'Save changes' }).click();
    const saved = await put;
    expect(saved.status()).toBe(200);
    expect(await saved.json()).toMatchObject({ tag_list: expect.arrayContaining([tag, 'edited']), run_untagged: false, maintenance_note: 'Replaced the disk' });
    await expect(form).toHaveCount(0);
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
    await page.goto(`${RUNNERS_PAGE}/${alpha.id}`);
    await expect(page.getByText('Runner not found')).toBeVisible();
  });

  test('[RUNNERS] a maintainer sees the runners they own; a runner of two projects cannot be deleted by them', async ({ page, browser }) => {
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
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' }).click();
    await expect(owner).toHaveURL(new RegExp(`${RUNNERS_PAGE}$`));
    await expect(owner.getByText('The runners you manage')).toBeVisible();
    await expect(table(owner).getByRole('row')).toHaveCount(2); // header + their one runner
    await rowOf(owner, description).getByRole('link', { name: `#${runner.id}` }).click();
    await expect(owner.getByRole('heading', { level: 1 })).toContainText(description);
    await expect(owner.getByRole('region', { name: 'Runner details' })).toContainText(first.path_with_namespace);

    await owner.getByRole('button', { name: 'Delete' }).click();
    const dialog = owner.getByRole('dialog', { name: `Delete runner #${runner.id}?` });
    const refused = owner.waitForResponse(isRunnerWrite('DELETE', runner.id));
    await dialog.getByRole('button', { name: 'Delete runner' }).click();
    expect((await refused).status()).toBe(403);
    await expect(dialog.getByRole('alert')).toHaveText('403 Forbidden - Runner associated with more than one project');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(owner).toHaveURL(new RegExp(`${RUNNERS_PAGE}/${runner.id}$`));
    expect((await page.request.get(`/api/v4/runners/${runner.id}`)).status()).toBe(200);
    await context.close();
  });
});
