// [NAMESPACES] A user whose only way into a project is a group shared into it gets, on every page, the role
// the share gives them (the lower of their level in the group and the share's group_access), as the API
// grants it: the project entity's `permissions` carry only direct and group membership, so the pages read
// the viewer's level from GET /projects/:id/members/all/:user_id. A share-only Maintainer opens General
// Settings and CI/CD Settings and saves there; the sidebar's Runners panel leads to the project; a share-only
// Reporter is offered neither page and gets the not-found page at their addresses. Screenshots with
// RUNWAY_E2E_SCREENSHOTS.
import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, screenshot } from './support/axe';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

const expect = baseExpect.configure({ timeout: 30_000 });
const PASSWORD = 'share-access-e2e-password-1';

interface Seeded {
  project: { id: number; path_with_namespace: string };
  maintainer: string;
  reporter: string;
}

/** A private project, a private group shared into it as Maintainer, and two members of that group only. */
async function seed(page: Page): Promise<Seeded> {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => jsonOf<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  const user = async (prefix: string) => {
    const username = uniq(prefix).replace(/-/g, '_');
    const data = { username, name: `Share ${prefix}`, email: `${username}@example.com`, password: PASSWORD, skip_confirmation: true };
    return post<{ id: number; username: string }>('/users', data);
  };
  const tag = uniq('sa');
  const home = await post<{ id: number }>('/groups', { name: `Share home ${tag}`, path: tag, visibility: 'private' });
  const project = await post<Seeded['project']>('/projects', { name: 'App', path: 'app', namespace_id: home.id });
  const ci = await post<{ id: number }>('/groups', { name: `Share CI ${tag}`, path: `${tag}-ci`, visibility: 'private' });
  const [maintainer, reporter] = [await user('maint'), await user('rep')];
  // Both are members of the invited group only: Maintainer (capped at the share's Maintainer) and Reporter.
  await post(`/groups/${ci.id}/members`, { user_id: maintainer.id, access_level: 40 });
  await post(`/groups/${ci.id}/members`, { user_id: reporter.id, access_level: 20 });
  await post(`/projects/${project.id}/share`, { group_id: ci.id, group_access: 40 });
  return { project, maintainer: maintainer.username, reporter: reporter.username };
}

async function signedInAs(browser: Browser, username: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await signIn(page, username, PASSWORD);
  return page;
}

test('a Maintainer through a shared group opens General Settings and CI/CD Settings and saves there', async ({ page, browser }) => {
  // Two signed-in users, three pages, two saves and two axe scans: over a minute on CI's two busy cores.
  test.slow();
  const s = await seed(page);
  const path = s.project.path_with_namespace;
  const m = await signedInAs(browser, s.maintainer);
  await m.goto(`/${path}`);
  await expect(m.getByRole('heading', { name: 'App', level: 1 })).toBeVisible();
  await expect(m.getByRole('definition').filter({ hasText: 'Maintainer' })).toBeVisible();
  await screenshot(m, 'project-share-maintainer-overview');

  await m.getByRole('link', { name: /General settings/ }).click();
  await expect(m.getByRole('heading', { name: 'General Settings', level: 1 })).toBeVisible();
  // Visibility stays for Owners; a Maintainer's share caps them below it.
  await expect(m.getByLabel('Project visibility')).toBeDisabled();
  const visibility = m.getByRole('region', { name: 'Visibility, project features, permissions' });
  await visibility.getByLabel('Wiki', { exact: true }).selectOption('disabled');
  await visibility.getByRole('button', { name: 'Save changes' }).click();
  await expect(m.getByText("Project 'App' was successfully updated.")).toBeVisible();
  await expect.poll(async () => (await (await page.request.get(`/api/v4/projects/${s.project.id}`)).json()).wiki_access_level).toBe('disabled');
  await expectNoSeriousA11yViolations(m, 'general settings of a share-only Maintainer');
  await screenshot(m, 'project-share-maintainer-general-settings');

  await m.goto(`/${path}`);
  await m.getByRole('link', { name: /CI\/CD settings/ }).click();
  await expect(m.getByRole('heading', { name: 'CI/CD Settings', level: 1 })).toBeVisible();
  await m.getByRole('tab', { name: /^Instance/ }).click();
  const instance = m.getByRole('switch', { name: 'Turn on instance runners for this project' });
  await expect(instance).toBeChecked();
  await instance.click();
  await expect(instance).not.toBeChecked();
  await expect.poll(async () => (await (await page.request.get(`/api/v4/projects/${s.project.id}`)).json()).shared_runners_enabled).toBe(false);
  await screenshot(m, 'project-share-maintainer-ci-cd-settings');

  // The sidebar's Runners panel (GET /projects?min_access_level=40, which counts shares) leads there too.
  await m.getByRole('button', { name: 'Runners', exact: true }).click();
  await expect(m.getByRole('link', { name: path, exact: true })).toHaveAttribute('href', `/${path}/-/settings/ci_cd`);
});

test('a Reporter through a shared group is offered no settings and gets the not-found page there', async ({ page, browser }) => {
  const s = await seed(page);
  const path = s.project.path_with_namespace;
  const r = await signedInAs(browser, s.reporter);
  await r.goto(`/${path}`);
  await expect(r.getByRole('heading', { name: 'App', level: 1 })).toBeVisible();
  await expect(r.getByRole('definition').filter({ hasText: 'Reporter' })).toBeVisible();
  await expect(r.getByRole('link', { name: /General settings/ })).toHaveCount(0);
  await expect(r.getByRole('link', { name: /CI\/CD settings/ })).toHaveCount(0);
  await screenshot(r, 'project-share-reporter-overview');
  for (const page of ['edit', 'settings/ci_cd']) {
    await r.goto(`/${path}/-/${page}`);
    await expect(r.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(r.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
    await expect(r.getByRole('switch')).toHaveCount(0);
  }
});

test('"Your role" on the projects list counts a role through a shared group', async ({ page, browser }) => {
  const s = await seed(page);
  const r = await signedInAs(browser, s.reporter);
  await r.goto('/dashboard/projects');
  const row = r.getByRole('row').filter({ has: r.getByRole('link', { name: /App/ }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(2)).toHaveText('Reporter');
  await screenshot(r, 'projects-list-share-role');
});
