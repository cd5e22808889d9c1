// [NAVIGATION] Getting around: the Projects and Groups lists (search and page in the URL), a project's and a
// group's page, the not-found page for what a user may not see, and the Admin area's overview. Each new page
// is checked with axe (no serious or critical violations). With RUNWAY_E2E_SCREENSHOTS=<dir>, every page
// and state is also saved at desktop width and at 390 px.
import { expect, test, type APIResponse, type Browser, type Locator, type Page, type Response } from '@playwright/test';
import { expectAccessible, screenshot } from './support/axe';
import { expectBreadcrumbs } from './support/page-checks';
import { csrfToken, signIn, uniq } from './support/session';

const PASSWORD = 'navigation-e2e-password-1';

async function json<T = any>(res: APIResponse, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** Seeds through the API with the signed-in administrator's session (cookie + CSRF token). */
async function rootApi(page: Page) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => json<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  return {
    user: async (prefix: string) => {
      const username = uniq(prefix).replace(/-/g, '_');
      const u = await post<{ id: number; username: string }>('/users', {
        username,
        name: `Nav ${prefix}`,
        email: `${username}@example.com`,
        password: PASSWORD,
        skip_confirmation: true,
      });
      return { id: u.id, username: u.username };
    },
    group: (data: { name: string; path: string; visibility: string; parent_id?: number; description?: string }) =>
      post<{ id: number; full_path: string; name: string }>('/groups', data),
    project: (data: { name: string; path: string; namespace_id?: number; visibility: string; description?: string; default_branch?: string }) =>
      post<{ id: number; path_with_namespace: string; name: string }>('/projects', data),
    member: (kind: 'groups' | 'projects', id: number, userId: number, level: number) =>
      post(`/${kind}/${id}/members`, { user_id: userId, access_level: level }),
    runner: (data: Record<string, unknown>) => post<{ id: number }>('/user/runners', data),
  };
}

async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

const notFound = (page: Page) => page.getByRole('heading', { name: 'Page not found' });
const rows = (page: Page, table: string) => page.getByRole('table', { name: table, exact: true }).getByRole('row');
const isList = (path: string) => (r: Response) => new URL(r.url()).pathname === `/api/v4${path}` && r.request().method() === 'GET';

/** Each card of a grid of page links has an icon of its own, and every card's text starts as far from its edge. */
async function expectCardIcons(cards: Locator, count: number) {
  await expect(cards.getByRole('link')).toHaveCount(count);
  const seen = await cards.getByRole('link').evaluateAll((links) =>
    links.map((a) => ({
      name: a.textContent ?? '',
      icon: a.querySelector('svg')?.innerHTML ?? '',
      indent: Math.round(a.lastElementChild!.getBoundingClientRect().left - a.getBoundingClientRect().left),
    })),
  );
  for (const c of seen) expect(c.icon, `${c.name}: an icon`).not.toBe('');
  expect(new Set(seen.map((c) => c.icon)).size, 'no two cards share an icon').toBe(seen.length);
  expect(new Set(seen.map((c) => c.indent)).size, "every card's text lines up").toBe(1);
}

test.describe('[NAVIGATION] getting there', () => {
  test('[NAVIGATION] projects list: search and pagination live in the URL', async ({ page, browser }) => {
    const api = await rootApi(page);
    const tag = uniq('navlist');
    const member = await api.user('lister');
    const group = await api.group({ name: `Lists ${tag}`, path: tag, visibility: 'private' });
    await api.member('groups', group.id, member.id, 30);
    for (let i = 1; i <= 22; i++) {
      const n = String(i).padStart(2, '0');
      await api.project({ name: `${tag} p${n}`, path: `p${n}`, namespace_id: group.id, visibility: 'private', description: `Project number ${n}` });
    }

    const user = await signedInAs(browser, member.username);
    // Signed-in users land on their projects, as in GitLab.
    await user.goto('/');
    await expect(user).toHaveURL(/\/dashboard\/projects$/);
    await expect(user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page');
    await expect(rows(user, 'Projects')).toHaveCount(21); // header + 20
    await expect(user.getByText('Page 1 of 2 · 22 total')).toBeVisible();
    await expectAccessible(user);
    await screenshot(user, 'projects-list');

    await user.getByRole('button', { name: 'Next' }).click();
    await expect(user).toHaveURL(/[?&]page=2/);
    await expect(rows(user, 'Projects')).toHaveCount(3);
    await expect(user.getByText('Page 2 of 2 · 22 total')).toBeVisible();

    // A search goes to the API (debounced), lands in the URL and starts again at page 1.
    const searched = user.waitForResponse((r) => isList('/projects')(r) && new URL(r.url()).searchParams.get('search') === `${tag} p1`);
    await user.getByRole('searchbox', { name: 'Search projects' }).fill(`${tag} p1`);
    expect((await searched).status()).toBe(200);
    await expect(user).toHaveURL(new RegExp(`[?&]search=${tag}\\+p1(&|$)`));
    await expect(user).not.toHaveURL(/[?&]page=/);
    await expect(rows(user, 'Projects')).toHaveCount(11); // p10..p19
    const p12 = rows(user, 'Projects').filter({ hasText: `${tag} p12` });
    await expect(p12.getByText('Developer')).toBeVisible();
    await expect(p12.getByText('Private')).toBeVisible();

    // The URL alone restores the state; nothing matching says so.
    await user.goto(`/dashboard/projects?search=${tag}-nothing`);
    await expect(user.getByRole('searchbox', { name: 'Search projects' })).toHaveValue(`${tag}-nothing`);
    await expect(user.getByText(`No projects match "${tag}-nothing"`)).toBeVisible();
    await screenshot(user, 'projects-list-filtered-empty');
    await user.getByRole('link', { name: 'clear the search' }).click();
    await expect(user.getByRole('searchbox', { name: 'Search projects' })).toHaveValue('');
    await expect(rows(user, 'Projects')).toHaveCount(21);
    await user.goto('/dashboard/projects?page=9');
    await expect(user.getByText('Page 9 does not exist')).toBeVisible();
    await user.getByRole('button', { name: 'Go to last page' }).click();
    await expect(user).toHaveURL(/[?&]page=2$/);
    await expect(rows(user, 'Projects')).toHaveCount(3); // p20, p21

    // Each row leads to its project.
    await user.goto(`/dashboard/projects?search=${tag} p07`);
    await user.getByRole('link', { name: new RegExp(`${tag} p07$`) }).click();
    await expect(user).toHaveURL(new RegExp(`/${tag}/p07$`));
    await expect(user.getByRole('heading', { level: 1, name: `${tag} p07` })).toBeVisible();
  });

  test('[NAVIGATION] a new user sees empty lists with what to do about them', async ({ page, browser }) => {
    const api = await rootApi(page);
    const newcomer = await api.user('newcomer');
    const user = await signedInAs(browser, newcomer.username);
    await user.goto('/dashboard/projects');
    await expect(user.getByText('No projects yet')).toBeVisible();
    await screenshot(user, 'projects-list-empty');
    await user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await expect(user).toHaveURL(/\/dashboard\/groups$/);
    await expect(user.getByText('No groups yet')).toBeVisible();
    await expectAccessible(user);
    await screenshot(user, 'groups-list-empty');
  });

  test('[NAVIGATION] a group page and a project page, with what each role may open', async ({ page, browser }) => {
    const api = await rootApi(page);
    const tag = uniq('navtree');
    const maintainer = await api.user('maint');
    const reporter = await api.user('reporter');
    const top = await api.group({ name: `Acme ${tag}`, path: tag, visibility: 'internal', description: 'Acme engineering' });
    const ci = await api.group({ name: 'CI', path: 'ci', visibility: 'private', parent_id: top.id, description: 'Build infrastructure' });
    const tools = await api.project({
      name: 'Pipeline Tools',
      path: 'pipeline-tools',
      namespace_id: ci.id,
      visibility: 'private',
      description: 'Shared CI templates',
      default_branch: 'main',
    });
    await api.project({ name: 'Website', path: 'website', namespace_id: top.id, visibility: 'internal' });
    await api.member('groups', top.id, maintainer.id, 40);
    await api.member('groups', top.id, reporter.id, 20);

    const user = await signedInAs(browser, maintainer.username);
    await user.goto('/dashboard/groups');
    // The subgroup is listed too (memberships inherit down the tree), under its full name.
    await expect(rows(user, 'Groups').getByRole('link', { name: `Acme ${tag}`, exact: true })).toHaveCount(1);
    await expect(rows(user, 'Groups').getByRole('link', { name: `Acme ${tag} / CI`, exact: true })).toHaveCount(1);
    await expectAccessible(user);
    await screenshot(user, 'groups-list');
    await user.getByRole('searchbox', { name: 'Search groups' }).fill(tag);
    await expect(user).toHaveURL(new RegExp(`[?&]search=${tag}`));
    await user.getByRole('link', { name: `Acme ${tag}`, exact: true }).click();

    // The group page: its subgroups and projects from the API, and its runners for Maintainers.
    await expect(user).toHaveURL(new RegExp(`/groups/${tag}$`));
    await expect(user.getByRole('heading', { level: 1, name: `Acme ${tag}` })).toBeVisible();
    await expect(user.getByText('Acme engineering')).toBeVisible();
    await expect(rows(user, 'Subgroups').filter({ hasText: 'CI' })).toHaveCount(1);
    await expect(rows(user, 'Projects').filter({ hasText: 'Website' })).toHaveCount(1);
    await expect(user.getByRole('link', { name: /^Runners/ }).filter({ hasText: 'Group runners' })).toHaveAttribute('href', `/groups/${tag}/-/runners`);
    await expectAccessible(user);
    await screenshot(user, 'group-page');

    await rows(user, 'Subgroups').getByRole('link', { name: 'CI', exact: true }).click();
    await expect(user).toHaveURL(new RegExp(`/groups/${tag}/ci$`));
    await expect(user.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: `Acme ${tag}`, exact: true })).toHaveAttribute(
      'href',
      `/groups/${tag}`,
    );
    await expect(user.getByText('No subgroups', { exact: true })).toBeVisible();
    await rows(user, 'Projects').getByRole('link', { name: 'Pipeline Tools' }).click();

    // The project page, at its nested full path.
    await expect(user).toHaveURL(new RegExp(`/${tag}/ci/pipeline-tools$`));
    await expect(user.getByRole('heading', { level: 1, name: 'Pipeline Tools' })).toBeVisible();
    await expect(user.getByText('Shared CI templates')).toBeVisible();
    await expect(user.getByText('Private', { exact: true })).toBeVisible();
    await expect(user.getByText('Project ID: ' + tools.id)).toBeVisible();
    const details = user.locator('dl');
    await expect(details).toContainText('main');
    await expect(details).toContainText('Maintainer');
    const pages = user.getByRole('navigation', { name: 'Project pages' });
    const base = `/${tag}/ci/pipeline-tools/-`;
    await expect(pages.getByRole('link', { name: /^Merge requests/ })).toHaveAttribute('href', `${base}/merge_requests`);
    await expect(pages.getByRole('link', { name: /^Commits/ })).toHaveAttribute('href', `${base}/commits/main`);
    await expect(pages.getByRole('link', { name: /^Branches/ })).toHaveAttribute('href', `${base}/branches`);
    await expect(pages.getByRole('link', { name: /^CI\/CD settings/ })).toHaveAttribute('href', `${base}/settings/ci_cd`);
    await expectAccessible(user);
    await screenshot(user, 'project-page');

    // A Reporter reads both pages but is offered neither the runner settings nor the group's runners.
    const readOnly = await signedInAs(browser, reporter.username);
    await readOnly.goto(`/${tag}/ci/pipeline-tools`);
    await expect(readOnly.getByRole('heading', { level: 1, name: 'Pipeline Tools' })).toBeVisible();
    await expect(readOnly.locator('dl')).toContainText('Reporter');
    await expect(readOnly.getByRole('navigation', { name: 'Project pages' }).getByRole('link')).toHaveCount(3);
    await readOnly.goto(`/groups/${tag}`);
    await expect(rows(readOnly, 'Projects').filter({ hasText: 'Website' })).toHaveCount(1);
    await expect(readOnly.getByRole('navigation', { name: 'Group pages' })).toHaveCount(0);
    // As in GitLab, a top-level group also answers at its own path.
    await readOnly.goto(`/${tag}`);
    await expect(readOnly.getByRole('heading', { level: 1, name: `Acme ${tag}` })).toBeVisible();
  });

  test('[NAVIGATION] every page kind shows one breadcrumb trail, by name, with chevrons; page cards each have their own icon', async ({ page }) => {
    test.slow(); // some twenty pages, each waited for, on a loaded two-core machine
    const api = await rootApi(page);
    const tag = uniq('crumbs');
    const top = await api.group({ name: `Acme ${tag}`, path: tag, visibility: 'private' });
    const web = await api.group({ name: 'Web', path: 'web', visibility: 'private', parent_id: top.id });
    const site = await api.project({ name: 'Website', path: 'website', namespace_id: web.id, visibility: 'private' });
    const instance = await api.runner({ runner_type: 'instance_type', description: `${tag} instance` });
    const groupRunner = await api.runner({ runner_type: 'group_type', group_id: web.id, description: `${tag} group` });
    const projectRunner = await api.runner({ runner_type: 'project_type', project_id: site.id, description: `${tag} project` });
    const [acme, project, group] = [`Acme ${tag}`, `/${tag}/web/website`, `/groups/${tag}/web`];
    const site3 = [acme, 'Web', 'Website'];
    const pages: [string, string[]][] = [
      [group, [acme, 'Web']],
      [project, site3],
      [`${project}/-/edit`, [...site3, 'Settings', 'General']],
      [`${project}/-/settings/ci_cd`, [...site3, 'Settings', 'CI/CD']],
      [`${project}/-/merge_requests`, [...site3, 'Merge requests']],
      [`${project}/-/branches`, [...site3, 'Branches']],
      [`${project}/-/runners/${projectRunner.id}`, [...site3, 'Settings', 'CI/CD', `#${projectRunner.id}`]],
      [`${project}/-/runners/${projectRunner.id}/edit`, [...site3, 'Settings', 'CI/CD', `#${projectRunner.id}`, 'Edit']],
      [`${group}/-/edit`, [acme, 'Web', 'Settings', 'General']],
      [`${group}/-/settings/ci_cd`, [acme, 'Web', 'Settings', 'CI/CD']],
      [`${group}/-/runners`, [acme, 'Web', 'Runners']],
      [`${group}/-/runners/${groupRunner.id}`, [acme, 'Web', 'Runners', `#${groupRunner.id}`]],
      ['/admin', ['Admin area', 'Overview']],
      ['/admin/runners', ['Admin area', 'Runners']],
      [`/admin/runners/${instance.id}`, ['Admin area', 'Runners', `#${instance.id}`]],
      ['/admin/runners/new', ['Admin area', 'Runners', 'New runner']],
      ['/admin/runners/cleanup', ['Admin area', 'Runners', 'Clean up stale runners']],
      ['/admin/runners/dashboard', ['Admin area', 'Runners', 'Fleet dashboard']],
      ['/admin/runners/alerts', ['Admin area', 'Runners', 'Fleet alerts']],
      ['/admin/users', ['Admin area', 'Users']],
      ['/dashboard/projects', ['Your work', 'Projects']],
      ['/-/user_settings/personal_access_tokens', ['User settings', 'Access tokens']],
    ];
    for (const [path, labels] of pages) {
      await test.step(path, async () => {
        await page.goto(path);
        await expectBreadcrumbs(page, labels);
      });
    }
    // The parents lead to their pages; GitLab's Settings crumb to General settings.
    await page.goto(`${project}/-/settings/ci_cd`);
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(trail.getByRole('link', { name: acme, exact: true })).toHaveAttribute('href', `/groups/${tag}`);
    await expect(trail.getByRole('link', { name: 'Web', exact: true })).toHaveAttribute('href', `/groups/${tag}/web`);
    await expect(trail.getByRole('link', { name: 'Website', exact: true })).toHaveAttribute('href', project);
    await expect(trail.getByRole('link', { name: 'Settings', exact: true })).toHaveAttribute('href', `${project}/-/edit`);
    await page.goto(`${project}/-/runners/${projectRunner.id}`);
    await expect(trail.getByRole('link', { name: 'CI/CD', exact: true })).toHaveAttribute('href', `${project}/-/settings/ci_cd`);

    // The project's and the group's page cards: one icon each, none shared, the text of every card aligned.
    await page.goto(project);
    await expectCardIcons(page.getByRole('navigation', { name: 'Project pages' }), 5);
    await screenshot(page, 'project-page-cards');
    await page.goto(group);
    await expectCardIcons(page.getByRole('navigation', { name: 'Group pages' }), 3);
    await page.goto('/admin');
    await expectCardIcons(page.getByRole('navigation', { name: 'Admin pages' }), 5);
  });

  test('[NAVIGATION] a list that cannot load says so, and Try again recovers', async ({ page }) => {
    const api = await rootApi(page);
    const tag = uniq('navfail');
    await api.group({ name: `Recovered ${tag}`, path: tag, visibility: 'private' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first answers wait (the loading state), then fail (the error state) until the route is lifted.
    await page.route('**/api/v4/groups?*', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) });
    });
    await page.goto(`/dashboard/groups?search=${tag}`);
    await expect(page.getByRole('status')).toContainText('Loading');
    await screenshot(page, 'groups-list-loading');
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load groups' });
    await expect(alert).toContainText('Something went wrong on the server. Please try again.');
    await screenshot(page, 'groups-list-error');
    await page.unroute('**/api/v4/groups?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(alert).toHaveCount(0);
    await expect(rows(page, 'Groups').filter({ hasText: `Recovered ${tag}` })).toHaveCount(1);
  });

  test('[NAVIGATION] what a user may not see is not found, and signed-out visitors go to sign-in', async ({ page, browser }) => {
    const api = await rootApi(page);
    const tag = uniq('navhidden');
    const outsider = await api.user('outsider');
    const secret = await api.group({ name: `Secret ${tag}`, path: tag, visibility: 'private' });
    const project = await api.project({ name: 'Hidden', path: 'hidden', namespace_id: secret.id, visibility: 'private' });

    const user = await signedInAs(browser, outsider.username);
    // The server decides with the API's own lookup: the page answers 404, as GET /projects/:id does.
    const res = await user.goto(`/${project.path_with_namespace}`);
    expect(res?.status()).toBe(404);
    await expect(notFound(user)).toBeVisible();
    await expect(user.getByText('Make sure the address is correct and the page has not moved.')).toBeVisible();
    await expect(user.getByTestId('current-user')).toBeVisible(); // inside the signed-in layout
    await expectAccessible(user);
    await screenshot(user, 'not-found');
    await user.goto(`/groups/${tag}`);
    await expect(notFound(user)).toBeVisible();
    // Pages inside a project that do not exist yet, reserved prefixes and unknown addresses.
    for (const path of [`/${project.path_with_namespace}/-/no-such-page`, '/help/anything', '/admin/no-such-page', `/dashboard/${tag}`]) {
      await user.goto(path);
      await expect(notFound(user), path).toBeVisible();
    }
    await user.getByRole('link', { name: 'Go to your projects' }).click();
    await expect(user).toHaveURL(/\/dashboard\/projects$/);

    // The administrator sees the same project.
    await page.goto(`/${project.path_with_namespace}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Hidden' })).toBeVisible();

    const anonymous = await (await browser.newContext()).newPage();
    await anonymous.goto(`/${project.path_with_namespace}`);
    await expect(anonymous).toHaveURL(/\/sign-in/);
    await anonymous.goto('/dashboard/projects');
    await expect(anonymous).toHaveURL(/\/sign-in/);
  });

  test('[NAVIGATION] a non-admin on /admin gets not-found and no Admin area entry', async ({ page, browser }) => {
    const api = await rootApi(page);
    const plain = await api.user('plain');
    const user = await signedInAs(browser, plain.username);
    await expect(user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin area' })).toHaveCount(0);
    const res = await user.goto('/admin');
    expect(res?.status()).toBe(404);
    await expect(notFound(user)).toBeVisible();
    await expect(user.getByRole('list', { name: 'Instance statistics' })).toHaveCount(0);
  });

  test('[NAVIGATION] the admin overview counts projects, users, groups and runners from X-Total', async ({ page }) => {
    const api = await rootApi(page);
    await api.project({ name: uniq('counted'), path: uniq('counted'), visibility: 'private' });
    const answers = Object.fromEntries(
      (['/projects', '/users', '/groups', '/runners/all'] as const).map((path) => [
        path,
        page.waitForResponse((r) => isList(path)(r) && new URL(r.url()).searchParams.get('per_page') === '1'),
      ]),
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin area' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin area' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin area' })).toBeVisible();
    for (const [key, path] of [
      ['projects', '/projects'],
      ['users', '/users'],
      ['groups', '/groups'],
      ['runners', '/runners/all'],
    ] as const) {
      const total = (await answers[path]).headers()['x-total'];
      expect(Number(total), `${key} X-Total`).toBeGreaterThanOrEqual(key === 'projects' || key === 'users' ? 1 : 0);
      await expect(page.getByTestId(`count-${key}`)).toContainText(Number(total).toLocaleString('en-US'));
    }
    await expect(page.getByTestId('count-runners').getByRole('link', { name: 'View runners' })).toHaveAttribute('href', '/admin/runners');
    await expectAccessible(page);
    await screenshot(page, 'admin-overview');
    // On the runners page, Runners is the highlighted entry, not Admin area.
    await page.getByTestId('count-runners').getByRole('link', { name: 'View runners' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin area' })).not.toHaveAttribute('aria-current', 'page');
  });
});
