// [RUNNERS] The list pages' first page is in the first HTML (issue 31): the server reads it through the
// API's own route handlers with the viewer's session and hands the same cache to the browser
// (TanStack Query's prefetch, dehydrate, HydrationBoundary). After hydration the page still filters,
// selects, acts on rows and follows live changes from that cache. The admin runner list, a group's runner
// list, a project's CI/CD settings (Runners) and a project's merge request list; a non-member's HTML holds
// no rows (the page answers 404).
import { expect, test, type Page } from '@playwright/test';
import { buildSampleRepo, removeRepo } from '../tests/fixtures/git-repos';
import { checkPage, MAINTAINER, rootApi, signedInAs } from './support/runner-seed';
import { csrfToken, uniq } from './support/session';

const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rowOf = (page: Page, text: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByText(text, { exact: true }) });

/** A table's body in a raw HTML document (what the server sent, before any script ran; not the cache's JSON). */
function tableBody(html: string, label = 'Runners'): string {
  const t = new RegExp(`<table[^>]*aria-label="${label}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  return /<tbody[\s\S]*<\/tbody>/.exec(t)?.[0] ?? '';
}

/** Whether a server-rendered document hands the browser a cached query under `key` (the dehydrated state sits, JSON-escaped, in the page's flight data). */
const cachedIn = (html: string, key: readonly unknown[]) => html.includes(`"queryKey":${JSON.stringify(key)}`.replaceAll('"', '\\"'));

/**
 * Opens `url` with the page's scripts held back: `whileHeld` runs on the server's HTML alone (nothing is
 * interactive yet), then the scripts load and the page hydrates. Returns the /api/v4 GETs the page made
 * until `settled` holds, the console's hydration complaints and the document's HTML.
 */
async function openHeld(page: Page, url: string, whileHeld: () => Promise<void>, settled: () => Promise<void>) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const script = (u: URL) => u.pathname.startsWith('/_next/static/') && u.pathname.endsWith('.js');
  await page.route(script, async (route) => {
    await held;
    await route.continue();
  });
  const reads: string[] = [];
  const complaints: string[] = [];
  // Only the opened page's reads: the page the browser leaves (the dashboard it signed in to) may still be
  // reading when the navigation starts (CI caught its "Your role" read of this very project), and its Referer
  // is that page.
  const opened = new URL(url, 'http://runway.test').pathname;
  const onRequest = (r: { method(): string; url(): string; headers(): Record<string, string> }) => {
    const from = r.headers().referer;
    if (r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/api/v4/') && (!from || new URL(from).pathname === opened)) {
      reads.push(decodeURIComponent(r.url()));
    }
  };
  page.on('request', onRequest);
  // Production React names a hydration mismatch by its error code only (react.dev/errors/418 and its kin).
  const mismatch = /hydrat|react\.dev\/errors\/4(1[89]|2[0-5])/i;
  page.on('console', (m) => {
    if (mismatch.test(m.text())) complaints.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (mismatch.test(String(e))) complaints.push(String(e));
  });
  const doc = await page.goto(url, { waitUntil: 'domcontentloaded' });
  const html = (await doc?.text()) ?? '';
  await whileHeld();
  release();
  // Hydrated: React has attached itself to the server's table (its fiber key on the element).
  await page.waitForFunction(() => {
    const table = document.querySelector('table');
    return !!table && Object.keys(table).some((k) => k.startsWith('__reactFiber'));
  });
  await settled();
  page.off('request', onRequest);
  await page.unroute(script);
  return { reads, complaints, html };
}

test.describe('[RUNNERS] server-rendered first page', () => {
  test.describe.configure({ timeout: 120_000 });

  test('[RUNNERS] the rows are in the first HTML; filters, selection and live updates work after hydration', async ({ page }) => {
    const api = await rootApi(page);
    const tag = uniq('ssr');
    const alpha = await api.runner({ runner_type: 'instance_type', description: `${tag} alpha`, tag_list: [tag] });
    const group = await api.group('ssr-group');
    await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} beta`, tag_list: [tag] });
    const url = `/admin/runners?tag%5B%5D=${tag}`;

    // The HTML the server sends, with the session cookie: both rows and the counts are in it.
    const res = await page.request.get(url);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const body = tableBody(html);
    expect(body).toContain(`${tag} alpha`);
    expect(body).toContain(`${tag} beta`);
    expect(body.match(/<tr[\s>]/g)).toHaveLength(2);
    expect(html).toMatch(/data-testid="count-all"[^>]*>2</);

    // Hydrated from that cache: the first page is not read again.
    const listReads: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/v4\/runners\/all(\?|$)/.test(r.url())) listReads.push(r.url());
    });
    await page.goto(url);
    await expect(rowOf(page, `${tag} alpha`)).toBeVisible();
    await expect(rowOf(page, `${tag} beta`)).toBeVisible();
    await expect(page.getByTestId('runner-live-indicator')).toHaveAttribute('data-state', 'live');
    expect(listReads).toEqual([]);

    // Live: a pause made through the API shows without a reload.
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    expect((await page.request.put(`/api/v4/runners/${alpha.id}`, { data: { paused: true }, headers })).status()).toBe(200);
    await expect(rowOf(page, `${tag} alpha`).getByText('Paused', { exact: true })).toBeVisible({ timeout: 10_000 });

    // Filters: a type tab narrows the list and goes into the URL; All brings both back.
    await page.getByRole('tab', { name: /^Group/ }).click();
    await expect(page).toHaveURL(/runner_type%5B%5D=GROUP_TYPE|runner_type\[\]=GROUP_TYPE/);
    await expect(rowOf(page, `${tag} alpha`)).toHaveCount(0);
    await expect(rowOf(page, `${tag} beta`)).toBeVisible();
    await page.getByRole('tab', { name: /^All/ }).click();
    await expect(rowOf(page, `${tag} alpha`)).toBeVisible();

    // Selection: ticking a row offers the bulk actions.
    await rowOf(page, `${tag} alpha`)
      .getByRole('checkbox', { name: `Select runner #${alpha.id}`, exact: true })
      .check();
    await expect(page.getByText(/1 runner selected/)).toBeVisible();
    await checkPage(page, 'runners-list-ssr');
  });

  test('[RUNNERS] a group runner list: rows in the first HTML, shown before the scripts run; live and filtered after; a non-member gets 404 and no rows', async ({
    page,
    browser,
  }) => {
    const api = await rootApi(page);
    const tag = uniq('gssr');
    const group = await api.group('gssr');
    const project = await api.project('gssr-app', group.id);
    const alpha = await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} alpha`, tag_list: [tag] });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} beta`, tag_list: [tag] });
    const url = `/groups/${group.full_path}/-/runners?tag%5B%5D=${tag}`;

    const res = await page.request.get(url);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const body = tableBody(html);
    expect(body).toContain(`${tag} alpha`);
    expect(body).toContain(`${tag} beta`);
    expect(body.match(/<tr[\s>]/g)).toHaveLength(2);
    expect(html).toMatch(/data-testid="count-all"[^>]*>2</);

    const { reads, complaints } = await openHeld(
      page,
      url,
      async () => {
        await expect(rowOf(page, `${tag} alpha`)).toBeVisible();
        await expect(rowOf(page, `${tag} beta`)).toBeVisible();
      },
      () => expect(page.getByTestId('runner-live-indicator')).toHaveAttribute('data-state', 'live'),
    );
    // The group, the viewer's level and the first page came with the HTML: none is read again at once.
    expect(reads.filter((r) => r.includes(`/api/v4/groups/${group.full_path}`) || r.includes(`/api/v4/groups/${group.id}`))).toEqual([]);
    expect(complaints).toEqual([]);

    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    expect((await page.request.put(`/api/v4/runners/${alpha.id}`, { data: { paused: true }, headers })).status()).toBe(200);
    await expect(rowOf(page, `${tag} alpha`).getByText('Paused', { exact: true })).toBeVisible({ timeout: 10_000 });
    await page.getByRole('tab', { name: /^Project/ }).click();
    await expect(rowOf(page, `${tag} alpha`)).toHaveCount(0);
    await expect(rowOf(page, `${tag} beta`)).toBeVisible();
    await page.getByRole('tab', { name: /^All/ }).click();
    await expect(rowOf(page, `${tag} alpha`)).toBeVisible();
    await checkPage(page, 'group-runners-ssr');

    // Permissions apply: a user outside the group gets the not-found page, with no runner in it.
    const outsider = await api.user('gssr-out');
    const stranger = await signedInAs(browser, outsider.username);
    const refused = await stranger.request.get(url);
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain(`${tag} alpha`);
    await stranger.context().close();
  });

  test('[RUNNERS] a project CI/CD settings page: runner rows in the first HTML, shown before the scripts run; Pause works after; a non-member gets 404 and no rows', async ({
    page,
    browser,
  }) => {
    const api = await rootApi(page);
    const tag = uniq('pssr');
    const group = await api.group('pssr');
    const project = await api.project('pssr-app', group.id);
    const one = await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} one` });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: `${tag} two` });
    await api.runner({ runner_type: 'group_type', group_id: group.id, description: `${tag} group` });
    const maintainer = await api.user('pssr-maint');
    await api.member('projects', project.id, maintainer.id, MAINTAINER);
    const url = `/${project.path_with_namespace}/-/settings/ci_cd`;

    // A Maintainer (not an administrator): the level read goes through the members API too.
    const user = await signedInAs(browser, maintainer.username);
    const res = await user.request.get(url);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const body = tableBody(html, 'Assigned project runners');
    expect(body).toContain(`${tag} one`);
    expect(body).toContain(`${tag} two`);
    // The tabs' counts are in it too (page 1 of every list).
    expect(html).toMatch(/>Assigned project runners<span[^>]*>2<\/span>/);

    // The viewer's level (members/all, which counts shares) is in it as well: the page waits for it.
    const levelKey = ['projects', 'detail', project.path_with_namespace, 'access', maintainer.id];
    expect(cachedIn(html, levelKey)).toBe(true);

    const held = await openHeld(
      user,
      url,
      async () => {
        await expect(user.getByRole('table', { name: 'Assigned project runners' }).getByText(`${tag} one`)).toBeVisible();
      },
      () => expect(user.getByRole('button', { name: `Pause runner #${one.id} (${tag} one)` })).toBeEnabled(),
    );
    const { reads, complaints } = held;
    expect(cachedIn(held.html, levelKey)).toBe(true);
    expect(reads.filter((r) => r.includes(`/projects/${project.path_with_namespace}`))).toEqual([]);
    expect(complaints).toEqual([]);

    await user.getByRole('button', { name: `Pause runner #${one.id} (${tag} one)` }).click();
    await expect(user.getByRole('button', { name: `Resume runner #${one.id} (${tag} one)` })).toBeVisible();
    // The Group tab's list comes from the cache filled on the server (its count was in the HTML).
    await user.getByRole('tab', { name: /^Group/ }).click();
    await expect(user.getByRole('table', { name: 'Group runners' }).getByText(`${tag} group`)).toBeVisible();
    await user.getByRole('tab', { name: /^Assigned/ }).click();
    await checkPage(user, 'project-ci-cd-ssr');
    await user.context().close();

    const outsider = await api.user('pssr-out');
    const stranger = await signedInAs(browser, outsider.username);
    const refused = await stranger.request.get(url);
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain(`${tag} one`);
    await stranger.context().close();
  });
});

test.describe('[MERGE REQUESTS] server-rendered first page', () => {
  test.describe.configure({ timeout: 120_000 });
  let repo: ReturnType<typeof buildSampleRepo>;
  test.beforeAll(() => {
    repo = buildSampleRepo();
  });
  test.afterAll(() => removeRepo(repo));

  test('[MERGE REQUESTS] the list: rows and tab counts in the first HTML, shown before the scripts run; tabs and filters work after; a non-member gets 404 and no rows', async ({
    page,
    browser,
  }) => {
    const api = await rootApi(page);
    const path = uniq('mrssr');
    const project = await api.post<{ id: number; path_with_namespace: string }>('/projects', { name: path, path, visibility: 'private', import_url: repo.dir });
    await expect.poll(async () => (await api.get<{ import_status: string }>(`/projects/${project.id}`)).import_status, { timeout: 60_000 }).toBe('finished');
    await api.post(`/projects/${project.id}/merge_requests`, { title: `${path} first change`, source_branch: 'feature', target_branch: 'main' });
    await api.post(`/projects/${project.id}/merge_requests`, { title: `${path} second change`, source_branch: 'topic', target_branch: 'main' });
    const url = `/${project.path_with_namespace}/-/merge_requests`;
    const table = page.getByRole('table', { name: 'Merge requests' });

    const res = await page.request.get(url);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const body = tableBody(html, 'Merge requests');
    expect(body).toContain(`${path} first change`);
    expect(body).toContain(`${path} second change`);
    // The Open tab's count, not the placeholder.
    expect(html).toMatch(/>Open<span[^>]*>2<\/span>/);

    const { reads, complaints } = await openHeld(
      page,
      url,
      async () => {
        await expect(table.getByText(`${path} first change`)).toBeVisible();
        await expect(table.getByText(`${path} second change`)).toBeVisible();
      },
      () => expect(page.getByRole('combobox', { name: 'Search or filter merge requests' })).toBeEditable(),
    );
    expect(reads.filter((r) => r.includes(`/projects/${project.path_with_namespace}`))).toEqual([]);
    expect(complaints).toEqual([]);

    await page.getByRole('tab', { name: /^Merged/ }).click();
    await expect(page).toHaveURL(/state=merged/);
    await expect(page.getByText('No merged merge requests')).toBeVisible();
    await page.getByRole('tab', { name: /^Open/ }).click();
    await expect(table.getByText(`${path} first change`)).toBeVisible();
    await checkPage(page, 'merge-requests-ssr');

    const outsider = await api.user('mrssr-out');
    const stranger = await signedInAs(browser, outsider.username);
    const refused = await stranger.request.get(url);
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain(`${path} first change`);
    await stranger.context().close();
  });
});
