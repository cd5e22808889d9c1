// [RUNNERS] A group's CI/CD settings, section "Runners" (/groups/<path>/-/settings/ci_cd): the group owner
// switches instance runners off (confirming, as GitLab asks when the group has projects), allows overriding,
// sees the cascade on the group's projects, a subgroup under a locked parent shows both switches disabled
// with the way to the parent; Maintainers get the not-found page and no link from the group page.
// Seeded through the API as the administrator; axe and screenshots at 1280 and 390 px.
import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

// The CI machine is shared and slow: every page waits generously for its data.
const expect = baseExpect.configure({ timeout: 30_000 });

const PASSWORD = 'group-settings-e2e-password-1';

interface Seed {
  group: { id: number; full_path: string; name: string };
  sub: { id: number; full_path: string };
  project: { id: number };
  owner: string;
  maintainer: string;
}

async function seed(page: Page): Promise<Seed> {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => jsonOf<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  const user = async (prefix: string) => {
    const username = uniq(prefix).replace(/-/g, '_');
    return post<{ id: number; username: string }>('/users', {
      username,
      name: `Settings ${prefix}`,
      email: `${username}@example.com`,
      password: PASSWORD,
      skip_confirmation: true,
    });
  };
  const tag = uniq('gs');
  const group = await post<Seed['group']>('/groups', { name: `Platform ${tag}`, path: tag, visibility: 'private' });
  const sub = await post<Seed['sub']>('/groups', { name: 'Tools', path: 'tools', parent_id: group.id, visibility: 'private' });
  const project = await post<Seed['project']>('/projects', { name: 'App', path: 'app', namespace_id: group.id, visibility: 'private' });
  const [owner, maintainer] = [await user('owner'), await user('maint')];
  await post(`/groups/${group.id}/members`, { user_id: owner.id, access_level: 50 });
  await post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 });
  return { group, sub, project, owner: owner.username, maintainer: maintainer.username };
}

async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

async function checkState(page: Page, name: string) {
  await expectNoSeriousA11yViolations(page, `${name} at 1280 px`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page, `${name} at 390 px`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, name);
}

const settingsUrl = (fullPath: string) => `/groups/${fullPath}/-/settings/ci_cd`;
const instanceSwitch = (page: Page) => page.getByRole('switch', { name: 'Enable instance runners for this group' });
const overrideSwitch = (page: Page) => page.getByRole('switch', { name: 'Allow projects and subgroups to override the group setting' });
const projectShared = async (page: Page, id: number) =>
  (await jsonOf<{ shared_runners_enabled: boolean }>(await page.request.get(`/api/v4/projects/${id}`), 200)).shared_runners_enabled;
const groupSetting = async (page: Page, id: number) =>
  (await jsonOf<{ shared_runners_setting: string }>(await page.request.get(`/api/v4/groups/${id}`), 200)).shared_runners_setting;

test.describe('[RUNNERS] group settings', () => {
  test.describe.configure({ timeout: 180_000 });

  test('[RUNNERS] group settings: an owner turns instance runners off and on, and allows overriding', async ({ page, browser }) => {
    const s = await seed(page);
    const owner = await signedInAs(browser, s.owner);
    // The group page leads owners to the settings.
    await owner.goto(`/groups/${s.group.full_path}`);
    await owner.getByRole('link', { name: /CI\/CD settings/ }).click();
    await expect(owner).toHaveURL(new RegExp(`${settingsUrl(s.group.full_path)}$`));
    await expect(owner.getByRole('heading', { name: 'Runners', level: 2 })).toBeVisible();
    await expect(owner.getByRole('link', { name: 'View group runners' })).toHaveAttribute('href', `/groups/${s.group.full_path}/-/runners`);
    await expect(owner.getByRole('link', { name: 'New group runner' })).toHaveAttribute('href', `/groups/${s.group.full_path}/-/runners/new`);
    await expect(instanceSwitch(owner)).toBeChecked();
    // Overriding means nothing while instance runners are on.
    await expect(overrideSwitch(owner)).toBeDisabled();
    await checkState(owner, 'group-settings-enabled');

    // Off: the group has a project and a subgroup, so GitLab's confirmation comes first; Cancel keeps them on.
    await instanceSwitch(owner).click();
    const dialog = owner.getByRole('dialog', { name: `Are you sure you want to disable instance runners for ${s.group.name}?` });
    await expect(dialog).toContainText('Instance runners will be disabled for all projects and subgroups in this group.');
    await checkState(owner, 'group-settings-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(instanceSwitch(owner)).toBeChecked();
    expect(await groupSetting(owner, s.group.id)).toBe('enabled');

    await instanceSwitch(owner).click();
    await dialog.getByRole('button', { name: 'Yes, disable instance runners' }).click();
    await expect(dialog).toBeHidden();
    await expect(instanceSwitch(owner)).not.toBeChecked();
    await expect(overrideSwitch(owner)).toBeEnabled();
    await expect.poll(() => groupSetting(owner, s.group.id)).toBe('disabled_and_unoverridable');
    expect(await projectShared(owner, s.project.id)).toBe(false);
    await checkState(owner, 'group-settings-disabled');

    // Overridable: the project may turn them back on, which the project's settings page offers.
    await overrideSwitch(owner).press('Space');
    await expect(overrideSwitch(owner)).toBeChecked();
    await expect.poll(() => groupSetting(owner, s.group.id)).toBe('disabled_and_overridable');
    await owner.reload();
    await expect(overrideSwitch(owner)).toBeChecked();
    await expect(instanceSwitch(owner)).not.toBeChecked();

    await instanceSwitch(owner).click();
    await expect(instanceSwitch(owner)).toBeChecked();
    await expect.poll(() => groupSetting(owner, s.group.id)).toBe('enabled');
    expect(await projectShared(owner, s.project.id)).toBe(true);
  });

  test('[RUNNERS] group settings: a subgroup under a locked parent shows both switches disabled, with the way to the parent', async ({ page }) => {
    const s = await seed(page);
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    await jsonOf(await page.request.put(`/api/v4/groups/${s.group.id}`, { data: { shared_runners_setting: 'disabled_and_unoverridable' }, headers }), 200);
    await page.goto(settingsUrl(s.sub.full_path));
    await expect(instanceSwitch(page)).toBeDisabled();
    await expect(instanceSwitch(page)).not.toBeChecked();
    await expect(overrideSwitch(page)).toBeDisabled();
    const help = page.getByText('Instance runners are disabled. Go to').first();
    await expect(help).toBeVisible();
    // The help's own link (the breadcrumb names the parent too, linking to its page).
    await expect(help.getByRole('link', { name: s.group.name })).toHaveAttribute('href', settingsUrl(s.group.full_path));
    await checkState(page, 'group-settings-locked-by-parent');
  });

  test('[RUNNERS] group settings: a refused change shows the API message beside the switches', async ({ page }) => {
    const s = await seed(page);
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    const setGroup = async (id: number, setting: string) =>
      jsonOf(await page.request.put(`/api/v4/groups/${id}`, { data: { shared_runners_setting: setting }, headers }), 200);
    // Parent overridable, subgroup off: the subgroup's owner may allow overriding ...
    await setGroup(s.group.id, 'disabled_and_overridable');
    await page.goto(settingsUrl(s.sub.full_path));
    await expect(overrideSwitch(page)).toBeEnabled();
    await expect(overrideSwitch(page)).not.toBeChecked();
    // ... until someone locks the parent while the page is open: the API refuses, in GitLab's words.
    await setGroup(s.group.id, 'disabled_and_unoverridable');
    await overrideSwitch(page).click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText(
      'Validation failed: Allow descendants override disabled shared runners cannot be enabled because parent group does not allow it Refresh the page and try again.',
    );
    await expect(overrideSwitch(page)).not.toBeChecked();
    await checkState(page, 'group-settings-refused');
  });

  test('[RUNNERS] group settings: maintainers get the not-found page and no settings link', async ({ page, browser }) => {
    const s = await seed(page);
    const maintainer = await signedInAs(browser, s.maintainer);
    await maintainer.goto(`/groups/${s.group.full_path}`);
    await expect(maintainer.getByRole('link', { name: /^Runners/ })).toBeVisible();
    await expect(maintainer.getByRole('link', { name: /CI\/CD settings/ })).toHaveCount(0);
    await maintainer.goto(settingsUrl(s.group.full_path));
    await expect(maintainer.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(maintainer.getByRole('switch')).toHaveCount(0);
    await checkState(maintainer, 'group-settings-not-found');
  });
});
