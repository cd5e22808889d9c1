// [RUNNERS] Live updates: the runner list and a runner's page follow changes made through a SECOND Runway
// instance on the same database (PostgreSQL LISTEN/NOTIFY to Server-Sent Events) without a reload, and a
// page that lost its stream catches up when it reconnects. On the embedded database (one process) the
// changes go through the same instance.
import type { ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { freePort, runwayEnv, startServer, stopServer } from '../tests/support/server';
import { checkPage, rootApi } from './support/runner-seed';
import { uniq } from './support/session';

let second: ChildProcess | undefined;
let otherBase: string;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const databaseUrl = process.env.RUNWAY_E2E_DATABASE_URL;
  if (!databaseUrl) {
    otherBase = process.env.RUNWAY_E2E_BASE_URL!;
    return;
  }
  const port = await freePort();
  otherBase = `http://127.0.0.1:${port}`;
  second = await startServer(port, runwayEnv({ DATABASE_URL: databaseUrl, RUNWAY_EXTERNAL_URL: otherBase }));
});

test.afterAll(async () => {
  if (second) await stopServer(second);
});

/** Root's writes through the other instance, with a personal access token made on this one. */
async function otherInstance(page: Page) {
  const api = await rootApi(page);
  const { token } = await api.post<{ token: string }>('/user/personal_access_tokens', { name: uniq('live'), scopes: ['api'] });
  const call = async (method: string, path: string, data?: unknown) => {
    const res = await fetch(`${otherBase}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  return { api, call };
}

const live = (page: Page) => page.getByTestId('runner-live-indicator');
const rowOf = (page: Page, text: string) => page.getByRole('table', { name: 'Runners', exact: true }).getByRole('row').filter({ has: page.getByText(text, { exact: true }) });

/** Marks the document, so a test can tell the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { __live: boolean }).__live = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __live?: boolean }).__live === true);

test.describe('[RUNNERS] live updates', () => {
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

    const started = Date.now();
    expect((await call('PUT', `/runners/${runner.id}`, { paused: true })).status).toBe(200);
    await expect(row.getByText('Paused', { exact: true })).toBeVisible({ timeout: 5_000 });
    const elapsed = Date.now() - started;
    test.info().annotations.push({ type: 'pause to badge (ms)', description: String(elapsed) });
    expect(elapsed).toBeLessThan(2_000);

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

  test('[RUNNERS] live updates: a page that lost its stream reconnects and catches up on what it missed', async ({ page, context }) => {
    const { api, call } = await otherInstance(page);
    const tag = uniq('live-gap');
    const runner = await api.runner({ runner_type: 'instance_type', description: `${tag} gamma`, tag_list: [tag] });

    await page.goto(`/admin/runners?tag_list=${tag}`);
    const row = rowOf(page, `${tag} gamma`);
    await expect(row).toBeVisible();
    await expect(live(page)).toHaveAttribute('data-state', 'live');
    await markDocument(page);

    await context.setOffline(true);
    await expect(live(page)).toHaveAttribute('data-state', 'reconnecting');
    // Changed while the page cannot hear: only the catch-up after reconnecting can show it.
    expect((await call('PUT', `/runners/${runner.id}`, { paused: true })).status).toBe(200);
    await context.setOffline(false);
    await expect(live(page)).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
    await expect(row.getByText('Paused', { exact: true })).toBeVisible();
    expect(await sameDocument(page)).toBe(true);
  });
});
