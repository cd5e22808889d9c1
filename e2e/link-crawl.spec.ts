// [LINKS] No dead ends: starting from the menu's pages, every link the dashboard shows (as an administrator,
// then as a group Maintainer) is followed, and none may lead to "Page not found", an error page, or an
// HTTP 404/5xx. Seeds a group with a subgroup, an imported project with merge requests and runners.
import { expect, test, type Page } from '@playwright/test';
import { buildSampleRepo, removeRepo } from '../tests/fixtures/git-repos';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

const PASSWORD = 'link-crawl-e2e-password-1';
const MAX_PAGES = 70;

async function seed(page: Page, dir: string) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const post = async <T = any>(path: string, data: Record<string, unknown>) => jsonOf<T>(await page.request.post(`/api/v4${path}`, { data, headers }), 201);
  const tag = uniq('crawl');
  const group = await post<{ id: number; full_path: string }>('/groups', { name: `Crawl ${tag}`, path: tag, visibility: 'private' });
  await post('/groups', { name: 'Sub', path: 'sub', visibility: 'private', parent_id: group.id });
  const project = await post<{ id: number; path_with_namespace: string }>('/projects', {
    name: 'Crawled',
    path: 'crawled',
    namespace_id: group.id,
    visibility: 'private',
    import_url: dir,
  });
  await expect
    .poll(async () => (await jsonOf<{ import_status: string }>(await page.request.get(`/api/v4/projects/${project.id}`), 200)).import_status, {
      timeout: 60_000,
    })
    .toBe('finished');
  await post(`/projects/${project.id}/merge_requests`, { title: 'Crawl me', source_branch: 'topic', target_branch: 'main' });
  await post('/user/runners', { runner_type: 'project_type', project_id: project.id, description: `${tag} project runner` });
  await post('/user/runners', { runner_type: 'group_type', group_id: group.id, description: `${tag} group runner` });
  const username = tag.replace(/-/g, '_');
  const user = await post<{ id: number }>('/users', {
    username,
    name: 'Crawl Maintainer',
    email: `${username}@example.com`,
    password: PASSWORD,
    skip_confirmation: true,
  });
  await post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 40 });
  return { username, group, project };
}

/** Same-origin links on the page as it stands, without fragments; API documents separately. */
async function linksOn(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  const origin = new URL(page.url()).origin;
  return hrefs.filter((h) => h.startsWith(origin)).map((h) => h.split('#')[0]);
}

async function crawl(page: Page, starts: string[]) {
  const origin = new URL(page.url()).origin;
  const queue = starts.map((s) => `${origin}${s}`);
  const seen = new Set(queue);
  // Where each link was found, for the failure message.
  const foundOn = new Map<string, string>();
  const broken: string[] = [];
  let visited = 0;
  while (queue.length && visited < MAX_PAGES) {
    const url = queue.shift()!;
    const from = foundOn.has(url) ? ` (linked from ${foundOn.get(url)})` : '';
    visited++;
    if (new URL(url).pathname.startsWith('/api/')) {
      const res = await page.request.get(url);
      if (res.status() >= 400) broken.push(`${url} -> HTTP ${res.status()}${from}`);
      continue;
    }
    const res = await page.goto(url);
    const status = res?.status() ?? 0;
    if (status === 404 || status >= 500) {
      broken.push(`${url} -> HTTP ${status}${from}`);
      continue;
    }
    // Client pages settle (data loads, not-found boundaries render) before their links are read. Not
    // "networkidle": the runner pages hold an event stream open.
    await page.waitForTimeout(250);
    await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0, { timeout: 20_000 });
    if (await page.getByRole('heading', { name: 'Page not found' }).count()) broken.push(`${url} -> Page not found${from}`);
    if (await page.getByText('Something went wrong').count()) broken.push(`${url} -> error page${from}`);
    for (const link of await linksOn(page)) {
      if (seen.has(link)) continue;
      seen.add(link);
      foundOn.set(link, url);
      queue.push(link);
    }
  }
  return { broken, visited };
}

const STARTS = ['/dashboard/projects', '/dashboard/groups', '/-/user_settings/personal_access_tokens', '/-/user_settings/active_sessions', '/help/api'];

test('[LINKS] every link an administrator and a Maintainer see leads to a page', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const repo = buildSampleRepo();
  try {
    const { username, group, project } = await seed(page, repo.dir);
    const own = [`/${project.path_with_namespace}`, `/groups/${group.full_path}`];
    const admin = await crawl(page, [...own, ...STARTS, '/admin', '/admin/runners']);
    expect(admin.broken, `dead links as an administrator (${admin.visited} pages)`).toEqual([]);
    expect(admin.visited).toBeGreaterThan(20);

    const maintainer = await (await browser.newContext()).newPage();
    await signIn(maintainer, username, PASSWORD);
    const result = await crawl(maintainer, [...own, ...STARTS]);
    expect(result.broken, `dead links as a Maintainer (${result.visited} pages)`).toEqual([]);
    expect(result.visited).toBeGreaterThan(10);
  } finally {
    removeRepo(repo);
  }
});
