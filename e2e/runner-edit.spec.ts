// [RUNNERS] A runner's page and its edit page: the header (badges, creator), details, jobs filter, assigned
// projects (owner flagged, search, five a page), the edit form with the API's validation error beside the
// field and nothing half-saved, the token reset shown once, and what each role sees (admin, group owner,
// project maintainer, developer).
import { expect, test, type Page } from '@playwright/test';
import { checkPage, DEVELOPER, MAINTAINER, OWNER, rootApi, signedInAs } from './support/runner-seed';
import { uniq } from './support/session';

const details = (page: Page) => page.getByRole('region', { name: 'Runner details' });
const projectsList = (page: Page) => page.getByRole('list', { name: 'Assigned projects' });

test.describe('[RUNNERS] a runner page and its edit form', () => {
  // Several signed-in users and axe at two widths per page: longer than the default minute on a busy machine.
  test.setTimeout(180_000);

  test('[RUNNERS] edit with a validation error beside the field, nothing half-saved; reset token shown once', async ({ page, playwright, baseURL }) => {
    const api = await rootApi(page);
    const owner = await api.project('runner-owner');
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await api.project(`runner-other-${i}`));
    const description = uniq('edit-me');
    const runner = await api.runner({
      runner_type: 'project_type',
      project_id: owner.id,
      description,
      tag_list: 'linux',
      maintenance_note: 'Ask Ops',
      locked: false,
    });
    for (const p of others) await api.post(`/projects/${p.id}/runners`, { runner_id: runner.id });

    await page.goto(`/admin/runners/${runner.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`#${runner.id}`);
    const badges = page.getByTestId('runner-header-badges');
    await expect(badges).toContainText('Never contacted');
    await expect(badges).toContainText('Project');
    await expect(page.getByTestId('runner-created')).toContainText('by @root');
    await expect(details(page)).toContainText('Ask Ops');
    await expect(details(page)).toContainText('Token expiry');

    // Six projects, five a page, newest first; the owner (first assignment) flagged on page 2; search narrows.
    await expect(page.getByRole('heading', { name: /Assigned projects/ })).toContainText('(6)');
    await expect(projectsList(page).getByRole('listitem')).toHaveCount(5);
    await expect(projectsList(page)).not.toContainText('Owner');
    await page.getByRole('navigation', { name: 'Projects pagination' }).getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/projects_page=2/);
    await expect(projectsList(page).getByRole('listitem')).toHaveCount(1);
    await expect(projectsList(page).getByRole('listitem')).toContainText(owner.name);
    await expect(projectsList(page).getByRole('listitem')).toContainText('Owner');
    await page.getByRole('searchbox', { name: 'Search projects' }).fill(others[2].name);
    await expect(page).toHaveURL(/projects_search=/);
    await expect(projectsList(page).getByRole('listitem')).toHaveCount(1);
    await expect(projectsList(page)).toContainText(others[2].name);

    // The jobs status filter goes into the URL and the request.
    const jobsRequest = page.waitForRequest((r) => r.url().includes(`/api/v4/runners/${runner.id}/jobs`) && r.url().includes('status=failed'));
    await page.getByRole('group', { name: 'Job status' }).getByRole('radio', { name: 'Failed' }).check();
    await jobsRequest;
    await expect(page).toHaveURL(/jobs_status=failed/);
    await expect(page.getByText('No jobs with this status')).toBeVisible();
    await checkPage(page, 'runner-show-admin');

    // Edit: a timeout under ten minutes with a new description is refused as a whole, by the form itself
    // with the API's message (the API's own refusal is in tests/api), and nothing is sent.
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/runners/${runner.id}/edit$`));
    const form = page.getByRole('form', { name: 'Edit runner' });
    await form.getByLabel('Runner description').fill(`${description} renamed`);
    await form.getByLabel('Maximum job timeout').fill('100');
    const puts: string[] = [];
    page.on('request', (r) => r.method() === 'PUT' && r.url().endsWith(`/api/v4/runners/${runner.id}`) && puts.push(r.url()));
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.locator('#runner-maximum_timeout-error')).toHaveText('needs to be at least 10 minutes');
    await expect(form.getByLabel('Maximum job timeout')).toBeFocused();
    expect(puts).toEqual([]);
    await expect(form.getByLabel('Maximum job timeout')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Maximum job timeout')).toHaveAccessibleDescription(/needs to be at least 10 minutes/);
    expect(await api.get(`/runners/${runner.id}`)).toMatchObject({ description, maximum_timeout: null });
    await checkPage(page, 'runner-edit-error');

    await form.getByLabel('Maximum job timeout').fill('3600');
    await form.getByLabel('Lock to current projects').check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/runners/${runner.id}$`));
    await expect(details(page)).toContainText('3600 seconds');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`${description} renamed`);
    await expect(badges).toContainText('Locked');

    // Reset the token: shown once, the old one stops verifying, the new one works.
    await page.goto(`/admin/runners/${runner.id}/edit`);
    await page.getByRole('button', { name: 'Reset authentication token' }).click();
    await page.getByRole('dialog', { name: 'Reset authentication token?' }).getByRole('button', { name: 'Reset token' }).click();
    const tokenField = page.getByRole('textbox', { name: 'Runner authentication token' });
    await expect(tokenField).toHaveValue(/^glrt-/);
    const newToken = await tokenField.inputValue();
    expect(newToken).not.toBe(runner.token);
    await checkPage(page, 'runner-edit-token-reset');
    const agent = await playwright.request.newContext({ baseURL });
    expect((await agent.post('/api/v4/runners/verify', { data: { token: runner.token } })).status()).toBe(403);
    expect((await agent.post('/api/v4/runners/verify', { data: { token: newToken } })).status()).toBe(200);
    await agent.dispose();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Reset authentication token' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Runner authentication token' })).toHaveCount(0);
  });

  test("[RUNNERS] each role's view of a runner page: admin, group owner, project maintainer, developer read-only", async ({ page, browser }) => {
    const api = await rootApi(page);
    const group = await api.group('roles');
    const project = await api.project('roles-project', group.id);
    const owner = await api.user('owner');
    const maintainer = await api.user('maintainer');
    const developer = await api.user('developer');
    await api.member('groups', group.id, owner.id, OWNER);
    await api.member('projects', project.id, maintainer.id, MAINTAINER);
    await api.member('projects', project.id, developer.id, DEVELOPER);
    const groupRunner = await api.runner({
      runner_type: 'group_type',
      group_id: group.id,
      description: uniq('group-runner'),
      maintenance_note: 'group secret note',
    });
    const instanceRunner = await api.runner({ runner_type: 'instance_type', description: uniq('instance-runner'), maintenance_note: 'instance secret note' });
    const projectRunner = await api.runner({
      runner_type: 'project_type',
      project_id: project.id,
      description: uniq('project-runner'),
      maintenance_note: 'project secret note',
      paused: true,
    });

    // Admin: every action.
    await page.goto(`/admin/runners/${projectRunner.id}`);
    for (const name of ['Edit']) await expect(page.getByRole('link', { name })).toBeVisible();
    for (const name of ['Resume', 'Delete']) await expect(page.getByRole('button', { name })).toBeVisible();
    await expect(page.getByTestId('runner-header-badges')).toContainText('Paused');

    // Group owner, on the group's runner page.
    const ownerPage = await signedInAs(browser, owner.username);
    await ownerPage.goto(`/groups/${group.full_path}/-/runners/${groupRunner.id}`);
    await expect(ownerPage.getByRole('heading', { level: 1 })).toContainText(`#${groupRunner.id}`);
    await expect(ownerPage.getByTestId('runner-header-badges')).toContainText('Group');
    await expect(ownerPage.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/groups/${group.full_path}/-/runners/${groupRunner.id}/edit`);
    await expect(ownerPage.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(ownerPage.getByRole('button', { name: 'Delete' })).toBeVisible();
    await expect(details(ownerPage)).toContainText('group secret note');
    await checkPage(ownerPage, 'runner-show-group-owner');
    await ownerPage.context().close();

    // Project maintainer, on the project's runner page: may edit, resume and delete their one-project runner.
    const mPage = await signedInAs(browser, maintainer.username);
    await mPage.goto(`/${project.path_with_namespace}/-/runners/${projectRunner.id}`);
    await expect(mPage.getByRole('link', { name: 'Edit' })).toBeVisible();
    await expect(mPage.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(mPage.getByRole('button', { name: 'Delete' })).toBeVisible();
    await expect(details(mPage)).toContainText('project secret note');
    await expect(mPage.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'CI/CD', exact: true })).toHaveAttribute(
      'href',
      `/${project.path_with_namespace}/-/settings/ci_cd`,
    );
    await mPage.getByRole('link', { name: 'Edit' }).click();
    await expect(mPage.getByRole('form', { name: 'Edit runner' })).toBeVisible();
    await checkPage(mPage, 'runner-edit-maintainer');
    await mPage.context().close();

    // Developer: a project runner is not theirs to see (not found, HTTP 404, as GitLab answers); an instance
    // runner is read-only for them: no actions, no maintenance note, and its edit page says it is not theirs.
    const dPage = await signedInAs(browser, developer.username);
    const hidden = await dPage.goto(`/${project.path_with_namespace}/-/runners/${projectRunner.id}`);
    expect(hidden?.status()).toBe(404);
    await expect(dPage.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await dPage.goto(`/${project.path_with_namespace}/-/runners/${instanceRunner.id}`);
    await expect(dPage.getByRole('heading', { level: 1 })).toContainText(`#${instanceRunner.id}`);
    await expect(dPage.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    for (const name of ['Pause', 'Resume', 'Delete']) await expect(dPage.getByRole('button', { name })).toHaveCount(0);
    await expect(details(dPage)).toContainText('Token expiry');
    await expect(details(dPage)).not.toContainText('Maintenance note');
    await expect(dPage.getByText('instance secret note')).toHaveCount(0);
    await checkPage(dPage, 'runner-show-developer');
    await dPage.goto(`/${project.path_with_namespace}/-/runners/${instanceRunner.id}/edit`);
    await expect(dPage.getByText('You cannot edit this runner')).toBeVisible();
    await expect(dPage.getByRole('form', { name: 'Edit runner' })).toHaveCount(0);
    await dPage.context().close();
  });
});
