// [RUNNERS] A project's CI/CD settings, section "Runners" (/<project>/-/settings/ci_cd): enabling and disabling
// project runners (with the API's refusal for the owner project shown on the row), the group and instance
// runner switches changing what GET /projects/:id/runners lists, and who may see the page. Seeded through the
// API with the administrator's session; axe at 1280 and 390 px. With RUNWAY_E2E_SCREENSHOTS=<dir>, every state
// is saved at both widths.
import { expect, test, type APIResponse, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { csrfToken, signIn, uniq } from './support/session';

const PASSWORD = 'project-runners-e2e-password-1';

async function json<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

interface Seed {
  project: { id: number; path_with_namespace: string };
  sibling: { id: number };
  maintainer: string;
  developer: string;
  guest: string;
  outsider: string;
  runners: { instance: number; group: number; own: number; siblingOpen: number; siblingLocked: number };
}

/** A group with two projects, a maintainer of the group, a developer and a guest of the project, and runners of every kind. */
async function seed(page: Page): Promise<Seed> {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => json<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  const user = async (prefix: string) => {
    const username = uniq(prefix).replace(/-/g, '_');
    return post<{ id: number; username: string }>('/users', {
      username,
      name: `Runners ${prefix}`,
      email: `${username}@example.com`,
      password: PASSWORD,
      skip_confirmation: true,
    });
  };
  const tag = uniq('prs');
  const group = await post<{ id: number }>('/groups', { name: `Settings ${tag}`, path: tag, visibility: 'private' });
  const project = await post<{ id: number; path_with_namespace: string }>('/projects', {
    name: 'App',
    path: 'app',
    namespace_id: group.id,
    visibility: 'private',
  });
  const sibling = await post<{ id: number }>('/projects', { name: 'Tools', path: 'tools', namespace_id: group.id, visibility: 'private' });
  const [maintainer, developer, guest, outsider] = [await user('maint'), await user('dev'), await user('guest'), await user('outsider')];
  await post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 });
  await post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  await post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 });
  const runner = async (data: Record<string, unknown>) => (await post<{ id: number }>('/user/runners', data)).id;
  const runners = {
    instance: await runner({ runner_type: 'instance_type', description: `${tag} instance` }),
    group: await runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} group` }),
    own: await runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} own` }),
    siblingOpen: await runner({ runner_type: 'project_type', project_id: sibling.id, description: `${tag} sibling` }),
    siblingLocked: await runner({ runner_type: 'project_type', project_id: sibling.id, description: `${tag} locked`, locked: true }),
  };
  return { project, sibling, maintainer: maintainer.username, developer: developer.username, guest: guest.username, outsider: outsider.username, runners };
}

async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

/** Axe at 1280 px and 390 px, and the screenshots of both when asked for. */
async function checkState(page: Page, name: string) {
  await expectNoSeriousA11yViolations(page, `${name} at 1280 px`);
  const dir = process.env.RUNWAY_E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page, `${name} at 390 px`);
  if (dir) await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

const settingsUrl = (s: Seed) => `/${s.project.path_with_namespace}/-/settings/ci_cd`;
const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });
const row = (page: Page, name: string, runnerId: number) =>
  table(page, name)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: new RegExp(`^#${runnerId}\\b`) }) });

/** What GET /projects/:id/runners lists for the page's signed-in user. */
async function listedIds(page: Page, projectId: number): Promise<number[]> {
  const body = await json<{ id: number }[]>(await page.request.get(`/api/v4/projects/${projectId}/runners?per_page=100`), 200);
  return body.map((r) => r.id);
}

test.describe('[RUNNERS] project settings', () => {
  // Each test seeds its own users, group, projects and runners and runs axe at two widths.
  test.describe.configure({ timeout: 180_000 });
  test('[RUNNERS] project settings: a maintainer enables and disables project runners; the owner project refuses', async ({ page, browser }) => {
    const s = await seed(page);
    const user = await signedInAs(browser, s.maintainer);
    await user.goto(settingsUrl(s));
    await expect(user.getByRole('heading', { name: 'Runners', level: 2 })).toBeVisible();
    await expect(row(user, 'Assigned project runners', s.runners.own)).toBeVisible();
    // Only the unlocked runner of the maintainer's other project is offered.
    await expect(row(user, 'Other available runners', s.runners.siblingOpen)).toBeVisible();
    await expect(row(user, 'Other available runners', s.runners.siblingLocked)).toHaveCount(0);
    await expect(table(user, 'Other available runners').getByRole('row')).toHaveCount(2);
    await checkState(user, 'project-runners-maintainer');

    await row(user, 'Other available runners', s.runners.siblingOpen).getByRole('button', { name: 'Enable for this project' }).click();
    await expect(row(user, 'Assigned project runners', s.runners.siblingOpen)).toBeVisible();
    await expect(user.getByText('No other project runners of your projects can be enabled here.')).toBeVisible();
    expect(await listedIds(user, s.project.id)).toContain(s.runners.siblingOpen);
    await checkState(user, 'project-runners-enabled');

    // The owner project cannot drop its own runner: the API's message shows on that row. GitLab's REST
    // answers non-admins with the policy's "No access granted" here (admins get the owner-project wording).
    await row(user, 'Assigned project runners', s.runners.own).getByRole('button', { name: 'Disable for this project' }).click();
    const refusal = row(user, 'Assigned project runners', s.runners.own).getByRole('alert');
    await expect(refusal).toHaveText('403 Forbidden - No access granted');
    await expect(row(user, 'Assigned project runners', s.runners.own)).toBeVisible();
    await checkState(user, 'project-runners-refused');

    await row(user, 'Assigned project runners', s.runners.siblingOpen).getByRole('button', { name: 'Disable for this project' }).click();
    await expect(row(user, 'Other available runners', s.runners.siblingOpen)).toBeVisible();
    await expect(row(user, 'Assigned project runners', s.runners.siblingOpen)).toHaveCount(0);
    expect(await listedIds(user, s.project.id)).not.toContain(s.runners.siblingOpen);
  });

  test("[RUNNERS] project settings: an administrator sees GitLab's owner-project message", async ({ page }) => {
    const s = await seed(page);
    await page.goto(settingsUrl(s));
    await row(page, 'Assigned project runners', s.runners.own).getByRole('button', { name: 'Disable for this project' }).click();
    await expect(row(page, 'Assigned project runners', s.runners.own).getByRole('alert')).toHaveText(
      '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead',
    );
  });

  test('[RUNNERS] project settings: the instance and group runner switches change what the project lists', async ({ page, browser }) => {
    const s = await seed(page);
    const user = await signedInAs(browser, s.maintainer);
    await user.goto(settingsUrl(s));
    const instance = user.getByRole('switch', { name: 'Turn on instance runners for this project' });
    const group = user.getByRole('switch', { name: 'Turn on group runners for this project' });
    await expect(instance).toBeChecked();
    await expect(group).toBeChecked();
    await expect(row(user, 'Available group runners', s.runners.group)).toBeVisible();
    await expect(row(user, 'Available instance runners', s.runners.instance)).toBeVisible();

    await instance.click();
    await expect(instance).not.toBeChecked();
    await expect(user.getByText('Instance runners are turned off for this project.')).toBeVisible();
    await expect.poll(() => listedIds(user, s.project.id)).not.toContain(s.runners.instance);

    await group.press('Space'); // the keyboard works the switch too
    await expect(group).not.toBeChecked();
    await expect(user.getByText('Group runners are turned off for this project.')).toBeVisible();
    const listed = await listedIds(user, s.project.id);
    expect(listed).not.toContain(s.runners.group);
    expect(listed).toContain(s.runners.own);
    await checkState(user, 'project-runners-switches-off');

    // The settings are stored: a reload shows them, and turning them back on lists the runners again.
    await user.reload();
    await expect(instance).not.toBeChecked();
    await instance.click();
    await group.click();
    await expect(row(user, 'Available instance runners', s.runners.instance)).toBeVisible();
    await expect(row(user, 'Available group runners', s.runners.group)).toBeVisible();
    expect(await listedIds(user, s.project.id)).toEqual(expect.arrayContaining([s.runners.instance, s.runners.group, s.runners.own]));
  });

  test('[RUNNERS] project settings: developers, guests and non-members get the not-found page, as in GitLab', async ({ page, browser }) => {
    const s = await seed(page);
    for (const username of [s.developer, s.guest]) {
      const user = await signedInAs(browser, username);
      await user.goto(settingsUrl(s));
      await expect(user.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expect(user.getByRole('switch')).toHaveCount(0);
      // The project page offers no CI/CD settings link to them either.
      await user.goto(`/${s.project.path_with_namespace}`);
      await expect(user.getByRole('heading', { name: 'App' })).toBeVisible();
      await expect(user.getByRole('link', { name: /CI\/CD settings/ })).toHaveCount(0);
      if (username === s.developer) await checkState(user, 'project-runners-developer');
    }
    // A non-member of the private project: not found, as for a project that does not exist.
    const outsider = await signedInAs(browser, s.outsider);
    await outsider.goto(settingsUrl(s));
    await expect(outsider.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(outsider.getByRole('table')).toHaveCount(0);
  });
});
