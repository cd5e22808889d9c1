// [RUNNERS] A project's CI/CD settings, section "Runners" (/<project>/-/settings/ci_cd), in GitLab's tabbed
// layout: counts on the tabs, full runner rows (status, lock, tags, version, last contact), only the actions
// that will work (no "Disable" on the owner project or, for non-admins, on a locked runner), refusals in plain
// words on the row, the group and instance runner switches, who may see the page, and the page at 390 px.
// Seeded through the API with the administrator's session; axe at 1280 and 390 px. With
// RUNWAY_E2E_SCREENSHOTS=<dir>, every state is saved at both widths.
import { expect, test, type APIResponse, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expectIconActions } from './support/page-checks';
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
  runners: { instance: number; group: number; own: number; siblingOpen: number; siblingLocked: number; lockedShared: number };
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
    lockedShared: await runner({ runner_type: 'project_type', project_id: sibling.id, description: `${tag} locked shared`, tag_list: 'docker,linux' }),
  };
  // The administrator enables it here and then locks it: assigned to the project, but not the project's to drop.
  await post(`/projects/${project.id}/runners`, { runner_id: runners.lockedShared });
  expect((await page.request.put(`/api/v4/runners/${runners.lockedShared}`, { data: { locked: true }, headers })).status()).toBe(200);
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

/** The runner's row, paging forward to it: the instance list holds the runners every other spec makes too. */
async function rowOnItsPage(page: Page, name: string, runnerId: number) {
  const target = row(page, name, runnerId);
  const firstLink = table(page, name).getByRole('link').first();
  const next = page.getByRole('tabpanel').getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' });
  await expect(firstLink).toBeVisible();
  for (let turned = 0; turned < 50 && !(await target.count()); turned++) {
    if (!(await next.isVisible()) || (await next.isDisabled())) break;
    const before = (await firstLink.textContent()) ?? '';
    await next.click();
    await expect(firstLink).not.toHaveText(before);
  }
  return target;
}

/** What GET /projects/:id/runners lists for the page's signed-in user. */
async function listedIds(page: Page, projectId: number): Promise<number[]> {
  const body = await json<{ id: number }[]>(await page.request.get(`/api/v4/projects/${projectId}/runners?per_page=100`), 200);
  return body.map((r) => r.id);
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

/** The document never scrolls sideways: everything fits the viewport's width. */
async function expectNoHorizontalScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    clientWidth: document.scrollingElement!.clientWidth,
  }));
  expect(scrollWidth, 'page width at this viewport').toBeLessThanOrEqual(clientWidth);
}

/** A locator lies fully inside the viewport's width. */
async function expectWithinViewport(page: Page, locator: ReturnType<Page['locator']>) {
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

test.describe('[RUNNERS] project settings', () => {
  // Each test seeds its own users, group, projects and runners and runs axe at two widths.
  test.describe.configure({ timeout: 180_000 });
  test('[RUNNERS] project settings: tabs with counts, full rows, and only the actions that will work', async ({ page, browser }) => {
    const s = await seed(page);
    const user = await signedInAs(browser, s.maintainer);
    await user.goto(settingsUrl(s));
    await expect(user.getByRole('heading', { name: 'Runners', level: 2 })).toBeVisible();
    // GitLab's four tabs, each with its count: own + locked shared; the sibling's open runner; one group; instance ones.
    await expect(tab(user, 'Assigned project runners')).toHaveAttribute('aria-selected', 'true');
    await expect(tab(user, 'Assigned project runners')).toHaveText(/^Assigned project runners\s*2$/);
    await expect(tab(user, 'Other available project runners')).toHaveText(/^Other available project runners\s*1$/);
    await expect(tab(user, 'Group')).toHaveText(/^Group\s*1$/);
    await expect(tab(user, 'Instance')).toHaveText(/^Instance\s*\d+$/);

    // The owner project's runner: no "Disable for this project" (GitLab hides it; the runner is removed
    // instead), but the owner's maintainer may edit, pause and remove it.
    const own = row(user, 'Assigned project runners', s.runners.own);
    await expect(own.getByText('Never contacted')).toBeVisible();
    await expect(own.getByText('Version')).toBeVisible();
    await expect(own.getByText('Last contact')).toBeVisible();
    await expect(own.getByRole('button', { name: /^Disable/ })).toHaveCount(0);
    await expect(own.getByRole('link', { name: /^Edit runner #/ })).toBeVisible();
    await expect(own.getByRole('button', { name: /^Pause runner #/ })).toBeVisible();
    await expect(own.getByRole('button', { name: /^Remove runner #/ })).toBeVisible();
    // The runner lists' row actions: icon buttons with names and tooltips, Remove drawn as destructive.
    const ownActions = own.getByRole('group', { name: /^Actions for runner #\d+/ });
    await expectIconActions(ownActions, /^Remove/);
    // Pause from the keyboard: the button keeps focus (now Resume, its tooltip shown), and back.
    await ownActions.getByRole('link', { name: /^Edit runner #/ }).focus();
    await user.keyboard.press('Tab');
    const pause = ownActions.getByRole('button', { name: /^Pause runner #/ });
    await expect(pause).toBeFocused();
    await expect(pause.getByRole('tooltip')).toHaveText('Pause from accepting jobs');
    await expect(pause.getByRole('tooltip')).toBeVisible();
    await user.keyboard.press('Enter');
    await expect(user.getByText(`Runner #${s.runners.own} paused.`)).toBeVisible();
    await expect(ownActions.getByRole('button', { name: /^Resume runner #/ })).toBeFocused();
    await user.keyboard.press('Enter');
    await expect(user.getByText(`Runner #${s.runners.own} resumed.`)).toBeVisible();
    await expect(ownActions.getByRole('button', { name: /^Pause runner #/ })).toBeFocused();
    // A locked runner of another project: shown as locked (label and tooltip), with its tags, and not offered
    // for disabling, which the API refuses a non-admin ("Runner is locked").
    const locked = row(user, 'Assigned project runners', s.runners.lockedShared);
    await expect(locked.getByText('Locked', { exact: true })).toBeVisible();
    await expect(locked.getByTitle(/^Locked: available to its current projects only/)).toBeVisible();
    await expect(locked.getByText('docker')).toBeVisible();
    await expect(locked.getByRole('button', { name: /^Disable/ })).toHaveCount(0);
    await expect(user.getByText(/Forbidden/)).toHaveCount(0);
    await checkState(user, 'project-runners-maintainer');

    // Other available project runners: only the unlocked one of the maintainer's other project, to enable.
    await tab(user, 'Other available project runners').click();
    await expect(row(user, 'Other available project runners', s.runners.siblingOpen)).toBeVisible();
    await expect(row(user, 'Other available project runners', s.runners.siblingLocked)).toHaveCount(0);
    await expect(table(user, 'Other available project runners').getByRole('row')).toHaveCount(2);
    await checkState(user, 'project-runners-available');
    await row(user, 'Other available project runners', s.runners.siblingOpen)
      .getByRole('button', { name: /^Enable runner #\d+ .* for this project$/ })
      .click();
    await expect(user.getByText(`Runner #${s.runners.siblingOpen} was enabled for this project.`)).toBeVisible();
    await expect(user.getByText('No project runners are available to be assigned to this project.')).toBeVisible();
    await expect(tab(user, 'Assigned project runners')).toHaveText(/3$/);
    expect(await listedIds(user, s.project.id)).toContain(s.runners.siblingOpen);

    // Assigned now, unlocked, not owned here: this one can be disabled, and it goes back to the other tab.
    await tab(user, 'Assigned project runners').click();
    await row(user, 'Assigned project runners', s.runners.siblingOpen)
      .getByRole('button', { name: /^Disable runner #/ })
      .click();
    await expect(row(user, 'Assigned project runners', s.runners.siblingOpen)).toHaveCount(0);
    await expect(tab(user, 'Other available project runners')).toHaveText(/1$/);
    expect(await listedIds(user, s.project.id)).not.toContain(s.runners.siblingOpen);
  });

  test('[RUNNERS] project settings: a refusal the page could not foresee is worded plainly on the row', async ({ page, browser }) => {
    const s = await seed(page);
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    await page.request.post(`/api/v4/projects/${s.project.id}/runners`, { data: { runner_id: s.runners.siblingOpen }, headers });
    const user = await signedInAs(browser, s.maintainer);
    await user.goto(settingsUrl(s));
    const target = row(user, 'Assigned project runners', s.runners.siblingOpen);
    await expect(target.getByRole('button', { name: /^Disable runner #/ })).toBeVisible();
    // Someone locks the runner meanwhile: the API refuses with "403 Forbidden - Runner is locked".
    expect((await page.request.put(`/api/v4/runners/${s.runners.siblingOpen}`, { data: { locked: true }, headers })).status()).toBe(200);
    await target.getByRole('button', { name: /^Disable runner #/ }).click();
    await expect(target.getByRole('alert')).toHaveText(
      'Failed to unassign runner from project. This runner is locked to its current projects: only an administrator can enable or disable it for other projects.',
    );
    await expect(user.getByText(/Forbidden/)).toHaveCount(0);
    await checkState(user, 'project-runners-refused');
  });

  test('[RUNNERS] project settings: a refused "Enable for this project" keeps the row and says why', async ({ page, browser }) => {
    const s = await seed(page);
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    const user = await signedInAs(browser, s.maintainer);
    // The list the user acts on is one the live updates have not refreshed yet (they would drop the runner once
    // it is locked): the page's event stream is held back, so the lock reaches the user only as the refusal.
    await user.route('**/api/v4/runners/events**', (route) => route.abort());
    await user.goto(settingsUrl(s));
    await tab(user, 'Other available project runners').click();
    const target = row(user, 'Other available project runners', s.runners.siblingOpen);
    const enable = target.getByRole('button', { name: /^Enable runner #/ });
    await expect(enable).toBeVisible();
    // Someone locks the runner meanwhile: the API refuses with "403 Forbidden - Runner is locked", and the
    // row the user acted on stays with the reason (re-reading the list would make it vanish unexplained).
    expect((await page.request.put(`/api/v4/runners/${s.runners.siblingOpen}`, { data: { locked: true }, headers })).status()).toBe(200);
    // The page addresses the project by its path (GitLab's URL-encoded id), as it was opened.
    const refused = user.waitForResponse((r) => /\/api\/v4\/projects\/[^/]+\/runners$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST');
    await enable.click();
    expect((await refused).status()).toBe(403);
    await expect(target.getByRole('alert')).toHaveText(
      'Failed to assign runner to project. This runner is locked to its current projects: only an administrator can enable or disable it for other projects.',
    );
    await expect(target).toBeVisible();
  });

  test('[RUNNERS] project settings: an administrator may disable a locked runner, never on its owner project', async ({ page }) => {
    const s = await seed(page);
    await page.goto(settingsUrl(s));
    await expect(row(page, 'Assigned project runners', s.runners.own).getByRole('button', { name: /^Disable/ })).toHaveCount(0);
    await row(page, 'Assigned project runners', s.runners.lockedShared)
      .getByRole('button', { name: /^Disable runner #/ })
      .click();
    await expect(row(page, 'Assigned project runners', s.runners.lockedShared)).toHaveCount(0);
    await expect(page.getByText(`Runner #${s.runners.lockedShared} was disabled for this project.`)).toBeVisible();
  });

  test('[RUNNERS] project settings: the instance and group runner switches change what the project lists', async ({ page, browser }) => {
    const s = await seed(page);
    const user = await signedInAs(browser, s.maintainer);
    await user.goto(`${settingsUrl(s)}?tab=group`);
    const group = user.getByRole('switch', { name: 'Turn on group runners for this project' });
    await expect(group).toBeChecked();
    await expect(row(user, 'Group runners', s.runners.group)).toBeVisible();
    await group.press('Space'); // the keyboard works the switch too
    await expect(group).not.toBeChecked();
    await expect(user.getByText('Group runners are turned off for this project.')).toBeVisible();
    await expect(tab(user, 'Group')).toHaveText(/0$/);
    expect(await listedIds(user, s.project.id)).not.toContain(s.runners.group);

    await tab(user, 'Instance').click();
    const instance = user.getByRole('switch', { name: 'Turn on instance runners for this project' });
    await expect(instance).toBeChecked();
    await expect(await rowOnItsPage(user, 'Instance runners', s.runners.instance)).toBeVisible();
    await instance.click();
    await expect(instance).not.toBeChecked();
    await expect(user.getByText('Instance runners are turned off for this project.')).toBeVisible();
    await expect.poll(() => listedIds(user, s.project.id)).not.toContain(s.runners.instance);
    const listed = await listedIds(user, s.project.id);
    expect(listed).toContain(s.runners.own);
    await checkState(user, 'project-runners-switches-off');

    // The settings are stored: a reload shows them, and turning them back on lists the runners again.
    await user.reload();
    await expect(instance).not.toBeChecked();
    await instance.click();
    await expect(await rowOnItsPage(user, 'Instance runners', s.runners.instance)).toBeVisible();
    await tab(user, 'Group').click();
    await group.click();
    await expect(row(user, 'Group runners', s.runners.group)).toBeVisible();
    expect(await listedIds(user, s.project.id)).toEqual(expect.arrayContaining([s.runners.instance, s.runners.group, s.runners.own]));
  });

  test('[RUNNERS] project settings: at 390 px nothing scrolls sideways, and the keyboard reaches every tab and action', async ({ page, browser }) => {
    const s = await seed(page);
    const user = await signedInAs(browser, s.maintainer);
    await user.setViewportSize({ width: 390, height: 844 });
    await user.goto(settingsUrl(s));
    await expect(row(user, 'Assigned project runners', s.runners.own)).toBeVisible();
    await expectNoHorizontalScroll(user);
    await expectWithinViewport(user, user.getByRole('link', { name: 'New project runner', exact: true }));
    await expectWithinViewport(user, row(user, 'Assigned project runners', s.runners.own).getByRole('button', { name: /^Remove runner #/ }));

    // Tabs: one tab stop, arrow keys move and select.
    await tab(user, 'Assigned project runners').focus();
    await user.keyboard.press('ArrowRight');
    await expect(tab(user, 'Other available project runners')).toBeFocused();
    await expect(tab(user, 'Other available project runners')).toHaveAttribute('aria-selected', 'true');
    const enable = row(user, 'Other available project runners', s.runners.siblingOpen).getByRole('button', { name: /^Enable runner #/ });
    await expect(enable).toBeVisible();
    await expectNoHorizontalScroll(user);
    await expectWithinViewport(user, enable);
    await enable.focus();
    await user.keyboard.press('Enter');
    await expect(user.getByText(`Runner #${s.runners.siblingOpen} was enabled for this project.`)).toBeVisible();
    await tab(user, 'Other available project runners').focus();
    await user.keyboard.press('End');
    await expect(tab(user, 'Instance')).toBeFocused();
    await expect(user.getByRole('switch', { name: 'Turn on instance runners for this project' })).toBeVisible();
    await expectNoHorizontalScroll(user);
    await expectNoSeriousA11yViolations(user, 'project runners instance tab at 390 px');
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
