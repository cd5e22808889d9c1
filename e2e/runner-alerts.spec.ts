// [ALERTS] Fleet alerts in the browser (issue 33): an admin reaches /admin/runners/alerts from the runner list,
// adds a rule (the API's refusals shown at their fields, focus on the first), edits it until the fleet
// breaks it, and the background worker's check fires it: the banner on the runner pages, the Firing row in
// the history; edited back, the next check resolves it; deleted, focus stays on the page. A rule's webhook is
// tested against a stand-in receiver on 127.0.0.1 and its delivery listed. The rules are cards at 390 px;
// axe and screenshots at 1280 and 390 px (empty, with rules, firing). A non-admin gets no link and GitLab's 404.
//
// The firing state comes from the check the worker runs every minute, run now by the CLI (`runway
// fleet-alerts check`, the same checkAlertRules) against the test server's database: the API has no "check
// now", and waiting for the worker's minute twice would make this the slowest spec.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { expectBreadcrumbs, expectIconActions, expectNoSideScroll } from './support/page-checks';
import { checkPage, PASSWORD, rootApi } from './support/runner-seed';
import { csrfToken, signIn, uniq } from './support/session';
import { cli, runwayEnv } from '../tests/support/server';

/** The worker's check, now: every enabled rule measured, fired or cleared. */
function checkNow() {
  const run = cli(['fleet-alerts', 'check'], runwayEnv({ DATABASE_URL: process.env.RUNWAY_E2E_DATABASE_URL! }));
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

type Api = Awaited<ReturnType<typeof rootApi>>;

async function writeApi(page: Page) {
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  return {
    put: (path: string, data: Record<string, unknown>) => page.request.put(`/api/v4${path}`, { data, headers }),
    del: (path: string) => page.request.delete(`/api/v4${path}`, { headers }),
  };
}

/** No rule left from an earlier run of this spec on the same database: the page starts empty. */
async function removeAllRules(page: Page, api: Api) {
  const { del } = await writeApi(page);
  for (const rule of await api.get<Array<{ id: number }>>('/runners/alert_rules?per_page=100'))
    expect((await del(`/runners/alert_rules/${rule.id}`)).status()).toBe(204);
}

const ruleState = async (api: Api, id: number) => (await api.get<{ state: string }>(`/runners/alert_rules/${id}`)).state;

test.describe('[ALERTS] fleet alerts', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  test('[ALERTS] add, edit until it fires (banner and history), resolve and delete a rule, at 1280 and 390 px', async ({ page }) => {
    const api = await rootApi(page);
    await removeAllRules(page, api);
    // One instance runner that never contacted: the online share of instance runners is below 100 %.
    await api.runner({ runner_type: 'instance_type', description: uniq('alerts-e2e'), tag_list: 'alerts-e2e' });

    await page.goto('/admin/runners');
    await page.getByRole('link', { name: 'Fleet alerts' }).filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/admin\/runners\/alerts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Fleet alerts' })).toBeVisible();
    await expectBreadcrumbs(page, ['Admin area', 'Runners', 'Fleet alerts']);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet alerts' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('No alert rules yet')).toBeVisible();
    await expect(page.getByText('No alerts yet')).toBeVisible();
    await checkPage(page, 'alerts-empty');

    // Add: the API refuses a blank name and a blank tag; both are shown, focus on the first.
    const add = page.getByRole('button', { name: 'Add alert rule' });
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Add alert rule' });
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await dialog.getByLabel('Condition').selectOption('tag_without_online_runner');
    await expect(dialog.getByLabel('Threshold')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Add alert rule' }).click();
    await expect(dialog.getByText("Name can't be blank")).toBeVisible();
    await expect(dialog.getByText("Tag can't be blank")).toBeVisible();
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    // A loopback webhook is refused while local requests are not allowed (GitLab's setting).
    await dialog.getByLabel('Name').fill('GPU runners');
    await dialog.getByLabel('Tag').fill('gpu-e2e');
    await dialog.getByLabel('Webhook URL (optional)').fill('http://127.0.0.1:9/hook');
    await dialog.getByRole('button', { name: 'Add alert rule' }).click();
    await expect(dialog.getByText(/^Webhook URL is blocked/)).toBeVisible();
    await expect(dialog.getByLabel('Webhook URL (optional)')).toBeFocused();
    await dialog.getByLabel('Webhook URL (optional)').fill('');
    await dialog.getByRole('button', { name: 'Add alert rule' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("Alert rule 'GPU runners' was created.")).toBeVisible();
    await expect(add).toBeFocused();

    // A second rule, the one the test makes fire: online share of instance runners below 0 % (never true yet).
    await add.click();
    await dialog.getByLabel('Name').fill('Instance share');
    await expect(dialog.getByLabel('Runner type')).toHaveValue('instance_type');
    await dialog.getByLabel('Online share below (%)').fill('0');
    await dialog.getByRole('button', { name: 'Add alert rule' }).click();
    await expect(dialog).toBeHidden();

    const table = page.getByRole('table', { name: 'Alert rules' });
    const shareRow = table.getByRole('row').filter({ hasText: 'Instance share' });
    await expect(shareRow).toContainText('Online share of instance runners below 0 %');
    await expect(table.getByRole('row').filter({ hasText: 'GPU runners' })).toContainText('No online runner with the tag gpu-e2e');
    await expect(shareRow).toContainText('Not checked yet');
    await expect(shareRow.getByRole('switch', { name: 'Enabled: Instance share' })).toHaveAttribute('aria-checked', 'true');
    await expectIconActions(shareRow.getByRole('group', { name: 'Actions for alert rule Instance share' }), /^Delete/);
    const rules = await api.get<Array<{ id: number; name: string }>>('/runners/alert_rules');
    const share = rules.find((r) => r.name === 'Instance share')!;
    const gpu = rules.find((r) => r.name === 'GPU runners')!;

    // The enabled switch keeps focus and saves.
    const gpuSwitch = page.getByRole('switch', { name: 'Enabled: GPU runners' });
    await gpuSwitch.focus();
    await page.keyboard.press('Space');
    await expect(gpuSwitch).toHaveAttribute('aria-checked', 'false');
    await expect(gpuSwitch).toBeFocused();
    await expect.poll(async () => (await api.get<{ enabled: boolean }>(`/runners/alert_rules/${gpu.id}`)).enabled).toBe(false);

    // Edit: below 100 %, which the never-contacted runner makes true; the dialog starts from the rule.
    await shareRow.getByRole('button', { name: 'Edit Instance share' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit alert rule' });
    await expect(edit.getByLabel('Name')).toHaveValue('Instance share');
    await edit.getByLabel('Online share below (%)').fill('100');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(shareRow).toContainText('Online share of instance runners below 100 %');
    await expect(shareRow.getByRole('button', { name: 'Edit Instance share' })).toBeFocused();
    await checkPage(page, 'alerts-rules');

    // The check fires it (the worker's, or this one).
    expect(checkNow()).toMatch(/^checked \d+ rules in [\d.]+ ms: \d+ fired, \d+ cleared/);
    expect(await ruleState(api, share.id)).toBe('firing');
    await page.goto('/admin/runners');
    const banner = page.getByRole('region', { name: 'Firing fleet alerts' });
    await expect(banner).toContainText(/1 fleet alert is firing: Online share of instance runners is \d+(\.\d)? %, below 100 %/);
    await page.goto('/admin/runners/dashboard');
    await expect(banner).toBeVisible();
    await banner.getByRole('link', { name: 'View alerts' }).click();
    await expect(page).toHaveURL(/\/admin\/runners\/alerts\?state=firing#alert-history$/);
    await expect(page.getByRole('tab', { name: 'Firing' })).toHaveAttribute('aria-selected', 'true');
    const history = page.getByRole('table', { name: 'Alerts' });
    const firingRow = history.getByRole('row').filter({ hasText: 'Instance share' });
    await expect(firingRow).toContainText('Firing');
    await expect(firingRow).toContainText('so far');
    await expect(page.getByRole('table', { name: 'Alert rules' }).getByRole('row').filter({ hasText: 'Instance share' })).toContainText(/Firing.*checked/);
    await expect(banner).toBeVisible();
    await checkPage(page, 'alerts-firing');
    await page.setViewportSize({ width: 390, height: 844 });
    // Cards at 390 px: nothing wider than the phone, each rule's actions on its card.
    await expectNoSideScroll(page, 'fleet alerts at 390 px');
    const actions = page.getByRole('group', { name: 'Actions for alert rule Instance share' });
    await actions.scrollIntoViewIfNeeded();
    const box = (await actions.boundingBox())!;
    expect(box.x + box.width, 'the row actions on the card, inside the phone').toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back to 0 %: the next check resolves the alert.
    const { put } = await writeApi(page);
    expect((await put(`/runners/alert_rules/${share.id}`, { threshold: 0 })).status()).toBe(200);
    checkNow();
    expect(await ruleState(api, share.id)).toBe('ok');
    await page.goto('/admin/runners/alerts?state=resolved');
    await expect(page.getByRole('tab', { name: 'Resolved' })).toHaveAttribute('aria-selected', 'true');
    const resolvedRow = page.getByRole('table', { name: 'Alerts' }).getByRole('row').filter({ hasText: 'Instance share' });
    await expect(resolvedRow).toContainText('Resolved');
    await expect(page.getByRole('region', { name: 'Firing fleet alerts' })).toHaveCount(0);
    // The tabs follow the arrow keys and keep focus.
    await page.getByRole('tab', { name: 'Resolved' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'All' })).toBeFocused();
    await expect(page).toHaveURL(/\/admin\/runners\/alerts$/);

    // Delete, confirmed: focus goes to the rules' heading, the row is gone.
    await page.getByRole('button', { name: 'Delete Instance share' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete alert rule?' });
    await expect(confirm).toContainText('Online share of instance runners below 0 %');
    await confirm.getByRole('button', { name: 'Delete alert rule' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("Alert rule 'Instance share' was deleted.")).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Alert rules' })).toBeFocused();
    await expect(page.getByRole('table', { name: 'Alert rules' }).getByRole('row').filter({ hasText: 'Instance share' })).toHaveCount(0);
    expect((await page.request.get(`/api/v4/runners/alert_rules/${share.id}`)).status()).toBe(404);
    await removeAllRules(page, api);
  });

  test('[ALERTS] a rule’s webhook: Send test reaches a receiver on 127.0.0.1 and its delivery is listed', async ({ page }) => {
    const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fleet-hook`;
    const api = await rootApi(page);
    const { put } = await writeApi(page);
    const before = await api.get<{ allow_local_requests_from_web_hooks_and_services: boolean }>('/application/settings');
    try {
      expect((await put('/application/settings', { allow_local_requests_from_web_hooks_and_services: true })).status()).toBe(200);
      await removeAllRules(page, api);
      await api.post('/runners/alert_rules', { name: 'Offline burst', kind: 'went_offline', threshold: 50, webhook_url: url, webhook_secret: 'e2e-secret' });

      await page.goto('/admin/runners/alerts');
      const row = page.getByRole('table', { name: 'Alert rules' }).getByRole('row').filter({ hasText: 'Offline burst' });
      await expect(row).toContainText('More than 50 runners went offline in 10 minutes');
      await expect(row.getByRole('cell', { name: 'Yes' })).toBeVisible();
      await row.getByRole('button', { name: 'Send test to the webhook of Offline burst' }).click();
      await expect(page.getByText(/Test (delivered to the webhook of 'Offline burst' \(HTTP 200\)|delivery of 'Offline burst' queued)/)).toBeVisible();
      await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(JSON.parse(received[0].body)).toMatchObject({ object_kind: 'runner_fleet_alert', event: 'test', rule: { name: 'Offline burst' } });
      // The secret signs the body; it is never sent itself.
      expect(received[0].headers['x-runway-signature']).toBeTruthy();
      expect(JSON.stringify(received[0])).not.toContain('e2e-secret');

      const open = row.getByRole('button', { name: 'Webhook deliveries of Offline burst' });
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Webhook deliveries: Offline burst' });
      await expect(dialog.getByRole('listitem').first()).toContainText('Test');
      await expect(async () => {
        // A delivery made by the worker shows once it went through: read the list again until it says so.
        await dialog.getByRole('button', { name: 'Close' }).click();
        await open.click();
        await expect(dialog.getByRole('listitem').first()).toContainText('Delivered', { timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(dialog.getByRole('listitem').first()).toContainText('HTTP 200');
      await expect(dialog.getByRole('listitem').first()).toContainText('Attempts1');
      await checkPage(page, 'alerts-deliveries');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(open).toBeFocused();

      // Edit at 390 px: the rule is a card, its dialog fits.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Edit Offline burst' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit alert rule' });
      await expect(edit.getByText('A secret token is set. Leave empty to keep it.')).toBeVisible();
      await edit.getByLabel('Window (minutes)').fill('0');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(edit.getByText('Window must be between 1 and 1440')).toBeVisible();
      await expect(edit.getByLabel('Window (minutes)')).toBeFocused();
      await edit.getByLabel('Window (minutes)').fill('30');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(edit).toBeHidden();
      await expect(page.getByText('More than 50 runners went offline in 30 minutes')).toBeVisible();
      await expectNoSideScroll(page, 'fleet alerts at 390 px');
    } finally {
      await removeAllRules(page, api);
      await put('/application/settings', { allow_local_requests_from_web_hooks_and_services: before.allow_local_requests_from_web_hooks_and_services });
      receiver.close();
    }
  });

  test('[ALERTS] rules that cannot load say so, and Try again recovers; the history too', async ({ page }) => {
    await rootApi(page);
    let fail = true;
    await page.route(/\/api\/v4\/runners\/(alert_rules|alerts)(\?|$)/, (route) =>
      fail ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"500 Internal Server Error"}' }) : route.continue(),
    );
    await page.goto('/admin/runners/alerts');
    const rules = page.locator('section[aria-labelledby="alert-rules-heading"]');
    await expect(rules.getByText('Could not load the alert rules')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Could not load alerts')).toBeVisible();
    // A banner that cannot load stays away rather than alarming.
    await expect(page.getByRole('region', { name: 'Firing fleet alerts' })).toHaveCount(0);
    fail = false;
    await rules.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('Could not load the alert rules')).toHaveCount(0);
    await expect(page.getByText('No alert rules yet').or(page.getByRole('table', { name: 'Alert rules' }))).toBeVisible();
  });

  test('[ALERTS] a non-admin gets no Fleet alerts link and GitLab’s 404', async ({ page, browser }) => {
    const api = await rootApi(page);
    const user = await api.user('alertsuser');
    const other = await (await browser.newContext()).newPage();
    await signIn(other, user.username, PASSWORD);
    await other.goto('/admin/runners/alerts');
    await expect(other.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Fleet alerts' })).toHaveCount(0);
    await expect(other.getByRole('link', { name: 'View alerts' })).toHaveCount(0);
    // The API refuses too (admins only).
    expect((await other.request.get('/api/v4/runners/alert_rules')).status()).toBe(403);
    await other.context().close();
  });
});
