// [SECURITY] Issue 20, defect 3: a signed-in admin's runner page was framed from another origin on the same
// site (its Pause and Delete buttons clickjackable). Chromium now refuses to show Runway's pages in another
// origin's frame, and the pages' nonce-based Content-Security-Policy blocks nothing they need themselves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './support/axe';
import { rootApi } from './support/runner-seed';
import { uniq } from './support/session';

/** A page on another origin of this host (127.0.0.1, another port) that frames `target`. */
async function framingSite(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>framing</title><iframe src="${target}" width="1000" height="700" onload="document.title='frame loaded'"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Collects what the page's Content-Security-Policy blocked, from the DOM event and from the console. */
async function recordViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(
        `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) seen.push(`${page.url()}: ${msg.text()}`);
  });
  return seen;
}

test.describe('[SECURITY] framing and Content-Security-Policy', () => {
  test("[SECURITY] another origin cannot frame a signed-in admin's runner page; Runway itself still can", async ({ page }) => {
    const api = await rootApi(page);
    const runner = await api.runner({ runner_type: 'instance_type', description: uniq('framed') });
    const target = new URL(`/admin/runners/${runner.id}`, page.url()).href;

    // The same page in a frame of Runway's own origin shows (SAMEORIGIN, not DENY): the check below sees a page.
    await page.goto('/admin/runners');
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.src = src;
      document.body.append(frame);
    }, target);
    const own = page.frameLocator(`iframe[src="${target}"]`);
    await expect(own.getByRole('button', { name: 'Pause' })).toBeVisible({ timeout: 30_000 });

    const site = await framingSite(target);
    try {
      // The admin's session cookie goes along (same site): the page is served, and the browser refuses to show it.
      const served = page.waitForResponse((r) => r.url() === target);
      const refusals: string[] = [];
      page.on('console', (msg) => refusals.push(msg.text()));
      await page.goto(site.url);
      expect((await served).status()).toBe(200);
      await expect(page).toHaveTitle('frame loaded');
      await expect.poll(() => refusals.join('\n')).toMatch(/violates the following Content Security Policy directive: "frame-ancestors 'self'"/);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame, 'the framing page has its frame').toBeTruthy();
      // Chromium replaces a refused document with its own error page: nothing of Runway's is in the frame.
      expect(frame!.url()).not.toBe(target);
      await expect(page.frameLocator('iframe').getByRole('button', { name: 'Pause' })).toHaveCount(0);
      await expect(page.frameLocator('iframe').getByRole('button', { name: 'Delete' })).toHaveCount(0);
    } finally {
      await site.close();
    }
  });

  test('[SECURITY] the dashboard pages run under the Content-Security-Policy without a single violation', async ({ page }) => {
    test.setTimeout(180_000);
    const violations = await recordViolations(page);
    await page.goto('/sign-in');
    const api = await rootApi(page);
    const description = uniq('csp');
    const runner = await api.runner({ runner_type: 'instance_type', description });
    const project = await api.project('csp');
    for (const path of [
      '/admin',
      '/admin/runners',
      `/admin/runners/${runner.id}`,
      `/admin/runners/${runner.id}/edit`,
      '/admin/runners/new',
      '/admin/runners/dashboard',
      '/admin/runners/cleanup',
      '/admin/runners/alerts',
      '/admin/users',
      '/admin/projects',
      '/admin/groups',
      '/admin/audit_logs',
      '/dashboard/projects',
      '/dashboard/groups',
      `/${project.path_with_namespace}`,
      `/${project.path_with_namespace}/-/settings/ci_cd`,
      '/-/user_settings/personal_access_tokens',
      '/-/user_settings/active_sessions',
      '/no/such/page',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
      // Enabled only once React has hydrated the page: its scripts were allowed to run.
      await expect(page.getByRole('button', { name: 'Sign out' }), path).toBeEnabled();
      if (path === '/admin/runners') {
        await expect(page.getByText(description, { exact: true })).toBeVisible();
        await screenshot(page, 'csp-admin-runners');
      }
    }
    expect(violations).toEqual([]);
  });

  test('[SECURITY] the API reference renders under the Content-Security-Policy and "Try it" calls the API', async ({ page }) => {
    test.setTimeout(120_000);
    const violations = await recordViolations(page);
    await rootApi(page);
    await page.goto('/help/api');
    // The reference is the dashboard's own page: open "Get the version" and send it with the session.
    const version = page.locator('[id="getVersion"]');
    await version.getByRole('button', { name: /Get the version/ }).click();
    const tryIt = version.getByRole('region', { name: 'Try GET /version' });
    const call = page.waitForResponse((r) => r.url().endsWith('/api/v4/version') && r.request().method() === 'GET');
    await tryIt.getByRole('button', { name: 'Send request' }).click();
    expect((await call).status()).toBe(200);
    await expect(tryIt.getByRole('status')).toContainText('200');
    await expect(tryIt.getByRole('region', { name: 'Response of GET /version' })).toContainText('"version"');
    await screenshot(page, 'csp-help-api-try-it');
    expect(violations).toEqual([]);
  });
});
