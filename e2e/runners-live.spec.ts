// [RUNNERS] Live updates: the runner list and a runner's page follow changes made through a SECOND Runway
// instance on the same database (PostgreSQL LISTEN/NOTIFY to Server-Sent Events) without a reload, and a
// page whose server went away reconnects with its last event id and is replayed what it missed. On the embedded database (one process) the
// changes go through the same instance and the restart case is skipped.
import type { ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { freePort, runwayEnv, startServer, stopServer } from '../tests/support/server';
import { checkPage, rootApi } from './support/runner-seed';
import { uniq } from './support/session';

let second: ChildProcess | undefined;
let otherBase: string;
let otherPort = 0;
const otherEnv = () => runwayEnv({ DATABASE_URL: process.env.RUNWAY_E2E_SERVER_DATABASE_URL!, RUNWAY_EXTERNAL_URL: otherBase });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const databaseUrl = process.env.RUNWAY_E2E_SERVER_DATABASE_URL;
  if (!databaseUrl) {
    otherBase = process.env.RUNWAY_E2E_BASE_URL!;
    return;
  }
  otherPort = await freePort();
  otherBase = `http://127.0.0.1:${otherPort}`;
  second = await startServer(otherPort, otherEnv());
});

test.afterAll(async () => {
  if (second) await stopServer(second);
});

/** Root's writes through the other instance, with a personal access token made on this one. */
async function otherInstance(page: Page) {
  const api = await rootApi(page);
  const { token } = await api.post<{ token: string }>('/user/personal_access_tokens', { name: uniq('live'), scopes: ['api'] });
  const call = async (method: string, path: string, data?: unknown, base = otherBase) => {
    const res = await fetch(`${base}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  return { api, call };
}

const live = (page: Page) => page.getByTestId('runner-live-indicator');
const rowOf = (page: Page, text: string) =>
  page
    .getByRole('table', { name: 'Runners', exact: true })
    .getByRole('row')
    .filter({ has: page.getByText(text, { exact: true }) });

/** Marks the document, so a test can tell the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { __live: boolean }).__live = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __live?: boolean }).__live === true);

test.describe('[RUNNERS] live updates', () => {
  // Two servers, two widths of axe: more than the default minute on a loaded machine.
  test.describe.configure({ timeout: 120_000 });

  test('[RUNNERS] live updates: a pause, a new runner and a deletion made on another instance show in the list without a reload', async ({ page }) => {
    const { api, call } = await otherInstance(page);
    const tag = uniq('live');
    const runner = await api.runner({ runner_type: 'instance_type', description: `${tag} alpha`, tag_list: [tag] });

    await page.goto(`/admin/runners?tag_list=${tag}`);
    const row = rowOf(page, `${tag} alpha`);
    await expect(row).toBeVisible();
    await expect(live(page)).toHaveAttribute('data-state', 'live');
    await expect(row.getByText('Paused', { exact: true })).toHaveCount(0);
    await markDocument(page);

    expect((await call('PUT', `/runners/${runner.id}`, { paused: true })).status).toBe(200);
    const committed = Date.now();
    // Under a second on an idle machine (docs/performance.md); the wait is generous for a loaded CI.
    await expect(row.getByText('Paused', { exact: true })).toBeVisible({ timeout: 5_000 });
    const elapsed = Date.now() - committed;
    test.info().annotations.push({ type: 'pause on B committed to badge on A (ms)', description: String(elapsed) });
    console.log(`[RUNNERS] live: pause committed on instance B to badge on A's page: ${elapsed} ms`);

    const created = await call('POST', '/user/runners', { runner_type: 'instance_type', description: `${tag} beta`, tag_list: [tag] });
    expect(created.status).toBe(201);
    await expect(rowOf(page, `${tag} beta`)).toBeVisible();

    expect((await call('DELETE', `/runners/${runner.id}`)).status).toBe(204);
    await expect(row).toHaveCount(0);
    expect(await sameDocument(page)).toBe(true);
    await checkPage(page, 'runners-live-list');
  });

  test("[RUNNERS] live updates: a runner's page follows a resume and an edit made on another instance", async ({ page }) => {
    const { api, call } = await otherInstance(page);
    const description = uniq('live-page');
    const runner = await api.runner({ runner_type: 'instance_type', description, paused: true });

    await page.goto(`/admin/runners/${runner.id}`);
    const badges = page.getByTestId('runner-header-badges');
    await expect(badges.getByText('Paused', { exact: true })).toBeVisible();
    await expect(live(page)).toHaveAttribute('data-state', 'live');
    await markDocument(page);

    expect((await call('PUT', `/runners/${runner.id}`, { paused: false, description: `${description} renamed` })).status).toBe(200);
    await expect(badges.getByText('Paused', { exact: true })).toHaveCount(0, { timeout: 5_000 });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`${description} renamed`);
    expect(await sameDocument(page)).toBe(true);
    await checkPage(page, 'runners-live-page');
  });

  test('[RUNNERS] live updates: a page whose server restarts reconnects and catches up on what it missed', async ({ page }) => {
    test.skip(!second, 'needs a second instance (PostgreSQL in DATABASE_URL)');
    test.setTimeout(180_000);
    const { api, call } = await otherInstance(page);
    const tag = uniq('live-gap');
    const runner = await api.runner({ runner_type: 'instance_type', description: `${tag} gamma`, tag_list: [tag] });

    // The page is served by the second instance (the session cookie holds for both: same host).
    await page.goto(`${otherBase}/admin/runners?tag_list=${tag}`);
    const row = rowOf(page, `${tag} gamma`);
    await expect(row).toBeVisible();
    await expect(live(page)).toHaveAttribute('data-state', 'live');
    await markDocument(page);

    // It reopens the stream from the last event id it was sent: the server replays the gap (no refetch of everything).
    const resumed = page.waitForRequest((r) => /\/api\/v4\/runners\/events\?last_event_id=\d+$/.test(r.url()), { timeout: 60_000 });
    // Its server shuts down: the stream ends and the page says so.
    await stopServer(second!);
    await expect(live(page)).toHaveAttribute('data-state', 'reconnecting');
    // Changed (on the first instance) while the page cannot hear: only the catch-up can show it.
    expect((await call('PUT', `/runners/${runner.id}`, { paused: true }, process.env.RUNWAY_E2E_BASE_URL)).status).toBe(200);
    second = await startServer(otherPort, otherEnv());
    await expect(live(page)).toHaveAttribute('data-state', 'live', { timeout: 45_000 });
    await resumed;
    await expect(row.getByText('Paused', { exact: true })).toBeVisible();
    expect(await sameDocument(page)).toBe(true);
    await checkPage(page, 'runners-live-caught-up');
  });
});
