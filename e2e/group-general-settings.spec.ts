// A group's General Settings (/groups/<path>/-/edit): the group's Owner reaches it from the group page, saves
// "Naming, visibility" and "Permissions and group features" each with its own button, and a reload (and the
// API, the same PUT /groups/:id) shows what was saved; a refused value shows GitLab's message under its field;
// a Maintainer gets the not-found page and no link. axe at 1280 and 390 px; at 390 px the save button is in
// reach without scrolling sideways. Screenshots with RUNWAY_E2E_SCREENSHOTS.
import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { expectNoSideScroll } from './support/page-checks';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

const expect = baseExpect.configure({ timeout: 30_000 });
const PASSWORD = 'group-general-settings-e2e-password-1';

interface Seed {
  group: { id: number; full_path: string; name: string };
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
      name: `General ${prefix}`,
      email: `${username}@example.com`,
      password: PASSWORD,
      skip_confirmation: true,
    });
  };
  const tag = uniq('ggs');
  const group = await post<Seed['group']>('/groups', { name: `Platform ${tag}`, path: tag, visibility: 'private' });
  await post('/projects', { name: 'App', path: 'app', namespace_id: group.id, visibility: 'private' });
  const [owner, maintainer] = [await user('owner'), await user('maint')];
  await post(`/groups/${group.id}/members`, { user_id: owner.id, access_level: 50 });
  await post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 });
  return { group, owner: owner.username, maintainer: maintainer.username };
}

async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

const editUrl = (fullPath: string) => `/groups/${fullPath}/-/edit`;
const naming = (page: Page) => page.getByRole('region', { name: 'Naming, visibility' });
const permissions = (page: Page) => page.getByRole('region', { name: 'Permissions and group features' });

test.describe('group general settings', () => {
  test.describe.configure({ timeout: 180_000 });

  test('an Owner saves each section and a reload shows it; a refused value shows its message inline', async ({ page, browser }) => {
    const s = await seed(page);
    const owner = await signedInAs(browser, s.owner);
    await owner.goto(`/groups/${s.group.full_path}`);
    await owner.getByRole('link', { name: /General settings/ }).click();
    await expect(owner).toHaveURL(new RegExp(`${editUrl(s.group.full_path)}$`));
    await expect(owner.getByRole('heading', { name: 'General Settings', level: 1 })).toBeVisible();
    await expect(naming(owner).getByLabel('Group name')).toHaveValue(s.group.name);
    await expect(naming(owner).getByLabel('Group ID')).toHaveValue(String(s.group.id));

    await expectNoSeriousA11yViolations(owner, 'group general settings at 1280 px');
    await owner.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousA11yViolations(owner, 'group general settings at 390 px');
    // At 390 px the page scrolls only down, and each section's save button is reachable and inside the viewport.
    await expectNoSideScroll(owner, 'group general settings at 390 px');
    for (const section of [naming(owner), permissions(owner)]) {
      const save = section.getByRole('button', { name: 'Save changes' });
      await save.scrollIntoViewIfNeeded();
      await expect(save).toBeInViewport({ ratio: 1 });
    }
    await owner.setViewportSize({ width: 1280, height: 900 });
    await screenshot(owner, 'group-general-settings');

    // "Naming, visibility"
    const newName = `${s.group.name} renamed`;
    await naming(owner).getByLabel('Group name').fill(newName);
    await naming(owner).getByLabel('Group description (optional)').fill('Builds and ships the platform');
    await naming(owner)
      .getByRole('radio', { name: /^Internal/ })
      .check();
    await naming(owner).getByRole('button', { name: 'Save changes' }).click();
    await expect(owner.getByText(`Group '${newName}' was successfully updated.`)).toBeVisible();

    // "Permissions and group features"
    const perms = permissions(owner);
    await perms.getByRole('checkbox', { name: 'Users can request access (if visibility is public or internal)' }).uncheck();
    await perms.getByRole('checkbox', { name: `Prevent sharing a project within ${newName} with other groups` }).check();
    await perms.getByRole('checkbox', { name: 'Group mentions are disabled' }).check();
    await perms.getByLabel('Roles allowed to create projects').selectOption('maintainer');
    await perms.getByLabel('Roles allowed to create subgroups').selectOption('owner');
    await perms.getByLabel('Time before enforced').fill('24');
    await perms.getByLabel('Initial default branch name').fill('trunk');
    await perms.getByRole('radio', { name: /^Fully protected after initial push/ }).check();
    await perms.getByRole('button', { name: 'Save changes' }).click();
    await expect(owner.getByText(`Group '${newName}' was successfully updated.`).first()).toBeVisible();

    // What the page saved is what the API reports.
    await expect
      .poll(async () => {
        const g = await jsonOf<any>(await page.request.get(`/api/v4/groups/${s.group.id}?with_projects=false`), 200);
        return [
          g.name,
          g.description,
          g.visibility,
          g.request_access_enabled,
          g.share_with_group_lock,
          g.mentions_disabled,
          g.project_creation_level,
          g.subgroup_creation_level,
          g.two_factor_grace_period,
          g.default_branch,
          g.default_branch_protection,
        ];
      })
      .toEqual([newName, 'Builds and ships the platform', 'internal', false, true, true, 'maintainer', 'owner', 24, 'trunk', 4]);

    await owner.reload();
    await expect(naming(owner).getByLabel('Group name')).toHaveValue(newName);
    await expect(naming(owner).getByRole('radio', { name: /^Internal/ })).toBeChecked();
    await expect(permissions(owner).getByLabel('Roles allowed to create projects')).toHaveValue('maintainer');
    await expect(permissions(owner).getByRole('checkbox', { name: `Prevent sharing a project within ${newName} with other groups` })).toBeChecked();
    await expect(permissions(owner).getByRole('radio', { name: /^Fully protected after initial push/ })).toBeChecked();
    await expect(permissions(owner).getByLabel('Time before enforced')).toHaveValue('24');

    // A refused value: GitLab's message under the field, nothing saved, and the section stays as typed.
    const grace = permissions(owner).getByLabel('Time before enforced');
    await grace.fill('-1');
    await permissions(owner).getByRole('button', { name: 'Save changes' }).click();
    await expect(permissions(owner).getByText('Two-factor grace period must be greater than or equal to 0')).toBeVisible();
    await expect(grace).toHaveAttribute('aria-invalid', 'true');
    await expect(grace).toHaveAccessibleDescription(/must be greater than or equal to 0/);
    await expectNoSeriousA11yViolations(owner, 'group general settings with a refused value');
    await screenshot(owner, 'group-general-settings-refused');
    const name = naming(owner).getByLabel('Group name');
    await name.fill('Bad/name');
    await naming(owner).getByRole('button', { name: 'Save changes' }).click();
    await expect(naming(owner).getByText(/^Name can contain only letters, digits/)).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    expect((await jsonOf<any>(await page.request.get(`/api/v4/groups/${s.group.id}?with_projects=false`), 200)).two_factor_grace_period).toBe(24);
  });

  test('a Maintainer gets the not-found page and no settings link', async ({ page, browser }) => {
    const s = await seed(page);
    const maintainer = await signedInAs(browser, s.maintainer);
    await maintainer.goto(`/groups/${s.group.full_path}`);
    await expect(maintainer.getByRole('link', { name: /Runners/ }).first()).toBeVisible();
    await expect(maintainer.getByRole('link', { name: /General settings/ })).toHaveCount(0);
    await maintainer.goto(editUrl(s.group.full_path));
    await expect(maintainer.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(maintainer.getByLabel('Group name')).toHaveCount(0);
  });
});
