// [SHELL] The dashboard's frame: on a phone (390 px) the menu is a drawer behind a menu button (named,
// aria-expanded, Escape closes it and gives focus back, a link closes it), and every page of the shell's
// own (lists, admin pages, settings, help, sign-in, not-found) shows its main content without sideways
// scrolling; a Maintainer who is not an administrator finds their runners from the menu; a form's error
// banner after a failed submit is scrolled into view below the sticky top bar.
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, screenshot } from './support/axe';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

const PASSWORD = 'dashboard-shell-e2e-password-1';
const PHONE = { width: 390, height: 844 };

async function noSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    clientWidth: document.scrollingElement!.clientWidth,
  }));
  expect(scrollWidth, `${what}: page width ${scrollWidth} > viewport ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
}

async function seed(page: Page) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => jsonOf<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  const tag = uniq('shell');
  const group = await post<{ id: number; full_path: string }>('/groups', { name: `Shell ${tag}`, path: tag, visibility: 'private' });
  const project = await post<{ id: number; path_with_namespace: string }>('/projects', {
    name: 'Shell project with a rather long name',
    path: 'shell-project',
    namespace_id: group.id,
    visibility: 'private',
    description: 'A project whose description is long enough to wrap on a phone screen without widening the page at all.',
  });
  const username = tag.replace(/-/g, '_');
  const user = await post<{ id: number }>('/users', {
    username,
    name: 'Shell Maintainer',
    email: `${username}@example.com`,
    password: PASSWORD,
    skip_confirmation: true,
  });
  await post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 40 });
  return { group, project, username };
}

test('[SHELL] on a phone the menu is a drawer: named button, aria-expanded, Escape, focus, links close it', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize(PHONE);
  await page.goto('/dashboard/projects');
  const button = page.getByRole('button', { name: 'Open menu' });
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  // The sidebar is not squeezed beside the page: the only menu is in the drawer, closed.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await noSidewaysScroll(page, 'projects list with the menu closed');

  await button.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(drawer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page');
  // Focus moved into the drawer, and Tab keeps it there.
  await expect(drawer.getByRole('button', { name: 'Close menu' })).toBeFocused();
  for (let i = 0; i < 15; i++) await page.keyboard.press('Tab');
  expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await expectAccessible(page);
  await screenshot(page, 'shell-drawer');

  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Keyboard only: Enter opens it, a link navigates and closes it.
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('link', { name: 'Access tokens' }).click();
  await expect(page).toHaveURL(/\/-\/user_settings\/personal_access_tokens$/);
  await expect(drawer).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Personal access tokens', level: 1 })).toBeVisible();

  // At desktop width the sidebar is back and the menu button is gone.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(button).toBeHidden();
});

test('[SHELL] every page of the shell fits a 390 px screen, main content visible, no sideways scrolling', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { group, project } = await seed(page);
  const users = await jsonOf<{ id: number }[]>(await page.request.get('/api/v4/users?username=root'), 200);
  await page.setViewportSize(PHONE);
  const pages: [string, string, (p: Page) => ReturnType<Page['getByRole']>][] = [
    ['projects', '/dashboard/projects', (p) => p.getByRole('table', { name: 'Projects' })],
    ['groups', '/dashboard/groups', (p) => p.getByRole('table', { name: 'Groups' })],
    ['project', `/${project.path_with_namespace}`, (p) => p.getByRole('navigation', { name: 'Project pages' })],
    ['commits', `/${project.path_with_namespace}/-/commits`, (p) => p.getByRole('heading', { name: 'Commits', level: 1 })],
    ['branches', `/${project.path_with_namespace}/-/branches`, (p) => p.getByRole('searchbox', { name: 'Filter by branch name' })],
    ['group', `/groups/${group.full_path}`, (p) => p.getByRole('heading', { name: `Shell ${group.full_path}`, level: 1 })],
    ['tokens', '/-/user_settings/personal_access_tokens', (p) => p.getByRole('button', { name: 'Add new token' })],
    ['sessions', '/-/user_settings/active_sessions', (p) => p.getByRole('button', { name: /Revoke/ }).first()],
    ['admin', '/admin', (p) => p.getByRole('list', { name: 'Instance statistics' })],
    ['admin-users', '/admin/users', (p) => p.getByRole('link', { name: 'New user' })],
    ['admin-user-new', '/admin/users/new', (p) => p.getByRole('button', { name: 'Create user' })],
    ['admin-user-edit', `/admin/users/${users[0].id}/edit`, (p) => p.getByRole('button', { name: /Save/ })],
    ['admin-groups', '/admin/groups', (p) => p.getByRole('table', { name: 'Groups' })],
    ['admin-projects', '/admin/projects', (p) => p.getByRole('table', { name: 'Projects' })],
    ['audit', '/admin/audit_logs', (p) => p.getByRole('form', { name: 'Filter audit events' })],
    ['api', '/help/api', (p) => p.getByRole('heading', { name: 'API reference', level: 1 })],
    ['not-found', '/no-such-namespace/no-such-project', (p) => p.getByRole('link', { name: 'Go to your projects' })],
  ];
  for (const [name, url, main] of pages) {
    await test.step(name, async () => {
      await page.goto(url);
      await expect(main(page)).toBeVisible();
      await expect(main(page)).toBeInViewport();
      await page.waitForLoadState('networkidle');
      await noSidewaysScroll(page, name);
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
      await screenshot(page, `shell-390-${name}`);
    });
  }
  const signedOut = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signedOut.goto('/sign-in');
  await expect(signedOut.getByRole('button', { name: 'Sign in' })).toBeInViewport();
  await noSidewaysScroll(signedOut, 'sign-in');
  await expectAccessible(signedOut);
});

test('[SHELL] a Maintainer finds their runners from the menu: the groups and projects they maintain', async ({ page, browser }) => {
  const { group, project, username } = await seed(page);
  const user = await (await browser.newContext()).newPage();
  await signIn(user, username, PASSWORD);
  const nav = user.getByRole('navigation', { name: 'Main' });
  // No Admin area list for them (GitLab's 404 at /admin/runners): the entry is a disclosure.
  const runners = nav.getByRole('button', { name: 'Runners' });
  await expect(runners).toHaveAttribute('aria-expanded', 'false');
  await runners.click();
  await expect(runners).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByText('Group runners')).toBeVisible();
  await expectAccessible(user);
  await screenshot(user, 'shell-maintainer-runners');
  await nav.getByRole('link', { name: group.full_path, exact: true }).click();
  await expect(user).toHaveURL(new RegExp(`/groups/${group.full_path}/-/runners$`));
  await expect(user.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  await nav.getByRole('link', { name: project.path_with_namespace, exact: true }).click();
  await expect(user).toHaveURL(new RegExp(`/${project.path_with_namespace}/-/settings/ci_cd$`));
  await expect(user.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
});

test('[SHELL] a failed submit brings the error banner into view below the top bar', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto('/-/user_settings/personal_access_tokens');
  await page.getByRole('button', { name: 'Add new token' }).click();
  // Submitted from the bottom of the form, with neither a name nor a scope: the summary is at its top.
  const submit = page.getByRole('button', { name: 'Create token' });
  await submit.scrollIntoViewIfNeeded();
  await submit.click();
  const banner = page.getByRole('alert').filter({ hasText: 'The token was not created' });
  await expect(banner).toBeVisible();
  await expect(banner).toBeInViewport();
  await expect
    .poll(async () => {
      const header = (await page.locator('header').first().boundingBox())!;
      const box = (await banner.boundingBox())!;
      return box.y >= header.y + header.height;
    })
    .toBe(true);
});

test('[SHELL] the Runners menu lists a parent group before its subgroups', async ({ page, browser }) => {
  const { group, username } = await seed(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  // A subgroup whose own path sorts before its parent's (the API orders groups by their own path).
  const sub = await jsonOf<{ full_path: string }>(
    await page.request.post('/api/v4/groups', { data: { name: 'Aaa sub', path: 'aaa-sub', parent_id: group.id, visibility: 'private' }, headers }),
    201,
  );
  const user = await (await browser.newContext()).newPage();
  await signIn(user, username, PASSWORD);
  const nav = user.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Runners' }).click();
  const links = nav.getByRole('link', { name: new RegExp(`^${group.full_path}`) });
  await expect(links.first()).toBeVisible();
  const names = await links.allTextContents();
  expect(names.filter((n) => n === group.full_path || n === sub.full_path)).toEqual([group.full_path, sub.full_path]);
});

test("[SHELL] Help's Documentation disclosure lists every docs page and stays open on one", async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/projects');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const docs = nav.getByRole('button', { name: 'Documentation' });
  await expect(docs).toHaveAttribute('aria-expanded', 'false');
  await docs.press('Enter');
  await expect(docs).toHaveAttribute('aria-expanded', 'true');
  await expect(docs).toBeFocused();
  const panel = page.locator(`#${await docs.getAttribute('aria-controls')}`);
  await expect(panel.getByRole('link')).toHaveText([
    'Overview',
    'Dashboard and demo',
    'Install',
    'Configuration',
    'Operations',
    'API guide',
    'Permission table',
    'Architecture',
    'Performance',
  ]);
  await panel.getByRole('link', { name: 'Configuration' }).click();
  await expect(page).toHaveURL(/\/help\/docs\/configuration$/);
  // On a docs page the disclosure is open and marks the page.
  await expect(nav.getByRole('button', { name: 'Documentation' })).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Configuration' })).toHaveAttribute('aria-current', 'page');
});
