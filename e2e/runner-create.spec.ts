// [RUNNERS] Creating a runner and watching it connect: the create forms (instance, group, project) with the
// API's validation messages beside the fields, the register page (command with the configured external URL,
// the token shown once and kept out of the URL, a warning on leaving) turning to "registered" by itself when
// a scripted runner verifies its token.
import { expect, test, type Page } from '@playwright/test';
import { checkPage, MAINTAINER, OWNER, rootApi, signedInAs } from './support/runner-seed';
import { uniq } from './support/session';

const commandField = (page: Page) => page.getByRole('textbox', { name: 'Registration command' });

test.describe('[RUNNERS] create a runner and register it', () => {
  // Several signed-in users and axe at two widths per page: longer than the default minute on a busy machine.
  test.setTimeout(180_000);

  test('[RUNNERS] an admin creates an instance runner; the register page shows registered when the runner verifies, without a reload', async ({
    page,
    playwright,
    baseURL,
  }) => {
    await rootApi(page);
    await page.goto('/admin/runners');
    await page.getByRole('link', { name: 'New instance runner' }).click();
    await expect(page).toHaveURL(/\/admin\/runners\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New instance runner' })).toBeVisible();
    const form = page.getByRole('form', { name: 'New runner' });
    await expect(form.getByLabel('Lock to current projects')).toHaveCount(0);
    await checkPage(page, 'runner-new-instance');

    // No tags and untagged jobs refused, and a timeout under 600 s: both of the API's messages, each by its field.
    await form.getByLabel('Maximum job timeout').fill('100');
    await form.getByRole('button', { name: 'Create runner' }).click();
    await expect(form.locator('#runner-maximum_timeout-error')).toHaveText('needs to be at least 10 minutes');
    await expect(form.locator('#runner-tags-error')).toHaveText('can not be empty when runner is not allowed to pick untagged jobs');
    await expect(form.getByLabel('Maximum job timeout')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('alert')).toContainText('check tags, maximum job timeout');
    await checkPage(page, 'runner-new-errors');

    const description = uniq('created-in-e2e');
    await form.getByRole('textbox', { name: 'Tags' }).fill('docker, e2e');
    await form.getByLabel('Maximum job timeout').fill('3600');
    await form.getByLabel('Runner description').fill(description);
    await form.getByLabel('Maintenance note').fill('Made by the create spec');
    await form.getByRole('button', { name: 'Create runner' }).click();

    await expect(page).toHaveURL(/\/admin\/runners\/\d+\/register$/);
    const id = Number(/\/admin\/runners\/(\d+)\/register$/.exec(page.url())![1]);
    await expect(page.getByText('Runner created.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Register runner #${id}`);
    const command = await commandField(page).inputValue();
    expect(command).toMatch(new RegExp(`^gitlab-runner register --url ${baseURL} --token glrt-[\\w-]+$`));
    const token = command.split('--token ')[1];
    // The token is not in the address and no longer in storage: reloading could not show it again.
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), `runway.new-runner-token.${id}`)).toBeNull();
    await expect(page.getByRole('textbox', { name: 'Runner authentication token' })).toHaveValue(token);

    await page.getByRole('radio', { name: 'Windows' }).check();
    await expect(commandField(page)).toHaveValue(`.\\gitlab-runner.exe register --url ${baseURL} --token ${token}`);
    await expect(page).toHaveURL(/\?platform=windows$/);
    await page.getByRole('radio', { name: 'Linux' }).check();
    await expect(page.getByText('Waiting for the runner to connect…')).toBeVisible();
    await checkPage(page, 'runner-register-waiting');

    // The runner's settings arrived as typed.
    const saved = await (await page.request.get(`/api/v4/runners/${id}`)).json();
    expect(saved).toMatchObject({
      description,
      tag_list: expect.arrayContaining(['docker', 'e2e']),
      maximum_timeout: 3600,
      status: 'never_contacted',
      maintenance_note: 'Made by the create spec',
    });

    // A scripted gitlab-runner (no session) verifies the token: the page turns by itself, in the same document.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const agent = await playwright.request.newContext({ baseURL });
    const verify = await agent.post('/api/v4/runners/verify', { data: { token, system_id: 's_e2e0000000001' } });
    expect(verify.status(), await verify.text()).toBe(200);
    const verifiedAt = Date.now();
    await agent.dispose();
    // GitLab writes a first contact at once: the page hears of it from the live events, not its 3 s poll.
    await expect(page.getByRole('heading', { name: "You've registered a new runner!" })).toBeVisible({ timeout: 1_000 });
    console.log(`registered page: ${Date.now() - verifiedAt} ms after verify`);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expect(page.getByRole('textbox', { name: 'Runner authentication token' })).toHaveCount(0);
    await checkPage(page, 'runner-register-registered');
    await page.getByRole('link', { name: 'View runner', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/runners/${id}$`));
    await expect(page.getByRole('table', { name: 'Runner managers' })).toContainText('s_e2e0000000001');
  });

  test('[RUNNERS] a group owner creates a group runner and a project maintainer a locked project runner; leaving the register page warns', async ({
    page,
    browser,
  }) => {
    const api = await rootApi(page);
    const owner = await api.user('group-owner');
    const maintainer = await api.user('maintainer');
    const group = await api.group('runners-create');
    const project = await api.project('create-target', group.id);
    await api.member('groups', group.id, owner.id, OWNER);
    await api.member('projects', project.id, maintainer.id, MAINTAINER);

    const ownerPage = await signedInAs(browser, owner.username);
    await ownerPage.goto(`/groups/${group.full_path}/-/runners/new`);
    await expect(ownerPage.getByRole('heading', { level: 1, name: 'New group runner' })).toBeVisible();
    const groupForm = ownerPage.getByRole('form', { name: 'New runner' });
    await groupForm.getByLabel('Run untagged jobs').check();
    await groupForm.getByRole('button', { name: 'Create runner' }).click();
    await expect(ownerPage).toHaveURL(new RegExp(`/groups/${group.full_path}/-/runners/\\d+/register$`));
    await expect(commandField(ownerPage)).toHaveValue(/--token glrt-/);
    const groupRunnerId = Number(/runners\/(\d+)\/register/.exec(ownerPage.url())![1]);
    expect(await api.get(`/runners/${groupRunnerId}`)).toMatchObject({
      runner_type: 'group_type',
      run_untagged: true,
      groups: [expect.objectContaining({ id: group.id })],
    });
    await ownerPage.context().close();

    const mPage = await signedInAs(browser, maintainer.username);
    await mPage.goto(`/${project.path_with_namespace}/-/runners/new`);
    await expect(mPage.getByRole('heading', { level: 1, name: 'New project runner' })).toBeVisible();
    const form = mPage.getByRole('form', { name: 'New runner' });
    await form.getByRole('textbox', { name: 'Tags' }).fill('deploy');
    await form.getByLabel('Lock to current projects').check();
    await form.getByLabel('Protected').check();
    await form.getByLabel('Paused').check();
    await form.getByRole('button', { name: 'Create runner' }).click();
    await expect(mPage).toHaveURL(new RegExp(`/${project.path_with_namespace}/-/runners/\\d+/register$`));
    const id = Number(/runners\/(\d+)\/register/.exec(mPage.url())![1]);
    expect(await api.get(`/runners/${id}`)).toMatchObject({
      runner_type: 'project_type',
      locked: true,
      access_level: 'ref_protected',
      paused: true,
      tag_list: ['deploy'],
    });
    await checkPage(mPage, 'runner-register-project');

    // Leaving while the token is shown asks first (beforeunload).
    const dialog = new Promise<string>((resolve) => mPage.once('dialog', (d) => (resolve(d.type()), d.accept())));
    await mPage.close({ runBeforeUnload: true });
    expect(await dialog).toBe('beforeunload');

    // Opened again (another tab, or after leaving), the token is gone for good and the page says how to get one.
    const again = await signedInAs(browser, maintainer.username);
    await again.goto(`/${project.path_with_namespace}/-/runners/${id}/register`);
    await expect(again.getByText('The runner authentication token is no longer visible')).toBeVisible();
    await expect(again.getByRole('textbox', { name: 'Registration command' })).toHaveCount(0);
    await expect(again.getByText('Runner created.')).toHaveCount(0);
    await checkPage(again, 'runner-register-token-gone');
    await again.context().close();
  });
});
