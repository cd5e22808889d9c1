// [FOCUS] A keyboard user never lands on <body>: a property of every page kind, not a list of fixes. On each
// page the spec operates every button, checkbox, switch, tab and dialog trigger in the main content with the
// keyboard (Space/Enter, arrow keys for tabs, Escape for dialogs) and asserts where focus went, by the WAI-ARIA
// patterns: a checkbox, switch or toggle button keeps focus; arrow keys move it along a tablist, selecting;
// a dialog's Escape returns it to its trigger; nothing ever leaves it on <body>. Destructive actions (Delete,
// Remove, Revoke, Reset) are only opened and cancelled. It prints how many controls it operated.
import { expect, test, type ElementHandle, type Page } from '@playwright/test';
import { buildSampleRepo, removeRepo } from '../tests/fixtures/git-repos';
import { rootApi } from './support/runner-seed';
import { csrfToken, ROOT, uniq } from './support/session';

// Settling waits on the page's own requests, not on fixed sleeps: a loaded two-core machine may take seconds.
const SETTLE_MAX_MS = 8_000;
const QUIET_MS = 300;

/** Counts the page's in-flight fetches and samples focus every 20 ms, flagging any moment it rests on <body>. */
async function instrument(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __inflight: number; __bodyFocus: boolean; __lastChange: number };
    w.__inflight = 0;
    w.__bodyFocus = false;
    w.__lastChange = Date.now();
    const fetch0 = window.fetch.bind(window);
    window.fetch = (...args: Parameters<typeof fetch>) => {
      w.__inflight++;
      w.__lastChange = Date.now();
      return fetch0(...args).finally(() => {
        w.__inflight--;
        w.__lastChange = Date.now();
      });
    };
    setInterval(() => {
      if (document.activeElement === document.body || document.activeElement === null) w.__bodyFocus = true;
    }, 20);
  });
}

/** Waits until no fetch ran for QUIET_MS (responses rendered), at most SETTLE_MAX_MS. */
async function settle(page: Page) {
  const start = Date.now();
  await page.waitForTimeout(QUIET_MS);
  while (Date.now() - start < SETTLE_MAX_MS) {
    const quiet = await page.evaluate((q) => {
      const w = window as unknown as { __inflight: number; __lastChange: number };
      return w.__inflight === 0 && Date.now() - w.__lastChange >= q;
    }, QUIET_MS);
    if (quiet) return;
    await page.waitForTimeout(100);
  }
}

const resetBodyFlag = (page: Page) => page.evaluate(() => ((window as unknown as { __bodyFocus: boolean }).__bodyFocus = false));
const bodyWasFocused = (page: Page) => page.evaluate(() => (window as unknown as { __bodyFocus: boolean }).__bodyFocus);

/** How the active element is described in a failure. */
const describeActive = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return '<body>';
    return `<${a.tagName.toLowerCase()} ${a.getAttribute('role') ?? ''} "${a.getAttribute('aria-label') ?? a.textContent?.trim().slice(0, 40) ?? ''}">`;
  });

const isFocused = (h: ElementHandle) => h.evaluate((el) => el.isConnected && el === document.activeElement);

type Kind = 'checkbox' | 'switch' | 'tab' | 'dialog-trigger' | 'toggle' | 'button';
interface Control {
  handle: ElementHandle<HTMLElement>;
  kind: Kind;
  name: string;
}

const DESTRUCTIVE = /^(delete|remove|revoke|reset)\b/i;
// Actions that change someone's access or leave the page without a dialog: the spec does not press them
// (their focus is covered by the same components: Button, Dialog, the focus keeper).
const NOT_PRESSED =
  /sign out|make admin|remove admin|block|unblock|deactivate|activate|ban|unlock|approve|reject|disable for this project|enable for this project|run cleanup|copy/i;

/** The operable controls of the main content, in document order, with their kind. */
async function controls(page: Page): Promise<Control[]> {
  const handles = await page.$$('main button, main input[type="checkbox"], main [role="switch"], main [role="tab"]');
  const out: Control[] = [];
  for (const handle of handles) {
    const info = await handle.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const visible = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      const disabled = el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true';
      const name = (el.getAttribute('aria-label') ?? ((el as HTMLInputElement).labels?.[0]?.textContent || el.textContent) ?? '').trim().replace(/\s+/g, ' ');
      const role = el.getAttribute('role');
      const type = (el as HTMLInputElement).type;
      const inDialog = !!el.closest('dialog');
      return { visible, disabled, name, role, type, submit: el.tagName === 'BUTTON' && type === 'submit', inDialog, tag: el.tagName };
    });
    if (!info.visible || info.disabled || info.inDialog || info.submit) continue;
    if (NOT_PRESSED.test(info.name)) continue;
    const kind: Kind =
      info.role === 'tab'
        ? 'tab'
        : info.role === 'switch'
          ? 'switch'
          : info.tag === 'INPUT'
            ? 'checkbox'
            : DESTRUCTIVE.test(info.name)
              ? 'dialog-trigger'
              : /^(pause|resume)\b/i.test(info.name)
                ? 'toggle'
                : 'button';
    out.push({ handle: handle as ElementHandle<HTMLElement>, kind, name: info.name });
  }
  return out;
}

interface Tally {
  operated: number;
  failures: string[];
}

/** Presses the control as a keyboard user does, settles, and checks where focus is. Restores what it changed. */
async function operate(page: Page, where: string, c: Control, tally: Tally) {
  const { handle, kind, name } = c;
  if (!(await handle.evaluate((el) => el.isConnected))) return;
  const fail = async (what: string) => tally.failures.push(`${where}: ${kind} "${name}": ${what} (focus on ${await describeActive(page)})`);
  await handle.focus();
  await resetBodyFlag(page);
  tally.operated++;

  if (kind === 'tab') {
    // WAI-ARIA tabs: the arrow keys move along the tablist, selecting; Home and End go to its ends.
    const tabs = await handle.evaluateHandle((el) => [...(el.closest('[role="tablist"]')?.querySelectorAll('[role="tab"]') ?? [])]);
    const count = await tabs.evaluate((t) => t.length);
    if (count < 2) return;
    const selectedAt = () =>
      page.evaluate(() => (document.activeElement?.getAttribute('aria-selected') === 'true' ? document.activeElement.textContent : null));
    const activeIsTab = () => page.evaluate(() => document.activeElement?.getAttribute('role') === 'tab');
    for (const key of ['End', 'Home', 'ArrowRight', 'ArrowLeft']) {
      await page.keyboard.press(key);
      await settle(page);
      if (!(await activeIsTab())) return fail(`${key} left the tablist`);
      if ((await selectedAt()) === null) return fail(`${key} moved focus to a tab that is not selected`);
    }
    await page.keyboard.press('Home');
    await settle(page);
    // By place, not by text: a tab's label carries a live count that other sessions' changes move.
    const firstSelected = await page.evaluate(() => {
      const active = document.activeElement;
      return active?.getAttribute('aria-selected') === 'true' && active === active.closest('[role="tablist"]')?.querySelector('[role="tab"]');
    });
    if (!firstSelected) return fail('Home did not select the first tab');
    if (await bodyWasFocused(page)) return fail('focus rested on <body> while moving between tabs');
    return;
  }

  if (kind === 'checkbox' || kind === 'switch') {
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('Space');
      await settle(page);
      if (await page.locator('dialog[open]').count()) {
        // A switch that confirms first (group CI/CD): the dialog has focus; Escape cancels and returns it.
        if (!(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]')))) return fail('its dialog opened without focus in it');
        await page.keyboard.press('Escape');
        await expect(page.locator('dialog[open]')).toHaveCount(0);
        await settle(page);
        if (!(await isFocused(handle))) return fail('Escape did not return focus to it');
        break;
      }
      if (!(await isFocused(handle))) return fail(i ? 'focus left it after the second Space' : 'focus left it after Space');
    }
    if (await bodyWasFocused(page)) return fail('focus rested on <body> meanwhile');
    return;
  }

  const url = page.url();
  await page.keyboard.press('Enter');
  await settle(page);
  const dialogOpen = await page.locator('dialog[open]').count();
  if (dialogOpen) {
    if (!(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]')))) await fail('the dialog opened without focus in it');
    await page.keyboard.press('Escape');
    await expect(page.locator('dialog[open]')).toHaveCount(0);
    await settle(page);
    if (!(await isFocused(handle))) return fail('Escape did not return focus to the trigger');
    if (await bodyWasFocused(page)) return fail('focus rested on <body> meanwhile');
    return;
  }
  if (kind === 'dialog-trigger') return fail('no dialog opened (a destructive action must confirm)');
  if (page.url().split('?')[0] !== url.split('?')[0]) {
    // Left the page (a link-like button): the new page starts at its top, as a navigation does.
    await page.goto(url);
    return;
  }
  if (await page.evaluate(() => document.activeElement === document.body || document.activeElement === null)) return fail('focus is on <body>');
  if (await bodyWasFocused(page)) return fail('focus rested on <body> meanwhile');
  if (kind === 'toggle') {
    if (!(await isFocused(handle))) return fail('focus left the toggle');
    // Put it back (a second Enter must work: the point of keeping focus).
    await page.keyboard.press('Enter');
    await settle(page);
    if (!(await isFocused(handle))) return fail('focus left the toggle after the second Enter');
  }
}

/** Operates every control of one page, re-reading the list after each (the page may have re-rendered). */
async function operateAll(page: Page, path: string, ready: (page: Page) => Promise<void>, tally: Tally) {
  await page.goto(path);
  await ready(page);
  await settle(page);
  const seen = new Set<string>();
  for (let guard = 0; guard < 80; guard++) {
    const list = await controls(page);
    let next: Control | undefined;
    for (const c of list) {
      const key = `${c.kind}:${c.name}`;
      if (seen.has(key)) continue;
      next = c;
      seen.add(key);
      break;
    }
    if (!next) break;
    await operate(page, path, next, tally);
    // Tabs and buttons may have changed the view or the address: back to the page as it was.
    if (next.kind === 'tab' || page.url() !== new URL(path, page.url()).href) {
      await page.goto(path);
      await ready(page);
      await settle(page);
    }
  }
}

// 30 s: a first load on a loaded two-core machine (other specs, builds) may take more than the default 10 s.
const READY = { timeout: 30_000 };
const heading = (page: Page) => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible(READY);

test.describe('[FOCUS] keyboard focus on every page kind', () => {
  // Operating ~100 controls, each settled on its own requests, takes minutes on a loaded machine.
  test.describe.configure({ timeout: 1_200_000 });

  test('[FOCUS] every button, checkbox, switch, tab and dialog trigger keeps focus off <body>', async ({ page }) => {
    await instrument(page);
    const api = await rootApi(page);
    const headers = { 'X-CSRF-Token': await csrfToken(page) };
    // Seed: a group with a group runner, a project in it with a project runner, two instance runners,
    // a token, and a merge request on an imported repository.
    const group = await api.group('focus-g');
    const project = await api.project('focus-p', group.id);
    await api.runner({ runner_type: 'instance_type', description: uniq('focus-i'), tag_list: 'docker' });
    const instance = await api.runner({ runner_type: 'instance_type', description: uniq('focus-i2'), tag_list: 'linux' });
    await api.runner({ runner_type: 'group_type', group_id: group.id, description: uniq('focus-g'), tag_list: 'docker' });
    await api.runner({ runner_type: 'project_type', project_id: project.id, description: uniq('focus-pr'), tag_list: 'docker' });
    await api.post('/personal_access_tokens', { name: uniq('focus-t'), scopes: ['read_api'], user_id: 1 }).catch(() => undefined);
    const repo = buildSampleRepo();
    let mr: { path: string; iid: number } | undefined;
    try {
      const path = uniq('focus-mr');
      const imported = await api.post<{ id: number; path_with_namespace: string }>('/projects', {
        name: path,
        path,
        visibility: 'private',
        import_url: repo.dir,
      });
      await expect.poll(async () => (await api.get<{ import_status: string }>(`/projects/${imported.id}`)).import_status, { timeout: 60_000 }).toBe('finished');
      const created = await page.request.post(`/api/v4/projects/${imported.id}/merge_requests`, {
        data: { title: 'Focus check', source_branch: 'topic', target_branch: 'main' },
        headers,
      });
      expect(created.status(), await created.text()).toBe(201);
      mr = { path: imported.path_with_namespace, iid: ((await created.json()) as { iid: number }).iid };
    } finally {
      removeRepo(repo);
    }

    const pages: Array<[string, (page: Page) => Promise<void>]> = [
      ['/admin/runners', (p) => expect(p.getByRole('checkbox', { name: `Select runner #${instance.id}`, exact: true })).toBeVisible(READY)],
      [`/groups/${group.full_path}/-/runners`, (p) => expect(p.getByRole('table', { name: 'Runners', exact: true })).toBeVisible(READY)],
      [`/admin/runners/${instance.id}`, (p) => expect(p.getByRole('button', { name: 'Pause' })).toBeVisible(READY)],
      [`/admin/runners/${instance.id}/edit`, (p) => expect(p.getByRole('form', { name: 'Edit runner' })).toBeVisible(READY)],
      [`/${project.path_with_namespace}/-/settings/ci_cd`, (p) => expect(p.getByRole('button', { name: /^(Pause|Resume) / }).first()).toBeVisible(READY)],
      [`/groups/${group.full_path}/-/settings/ci_cd`, heading],
      [`/${mr!.path}/-/merge_requests`, heading],
      [`/${mr!.path}/-/merge_requests/${mr!.iid}`, heading],
      ['/admin/users', heading],
      ['/admin/audit_logs', heading],
      ['/-/user_settings/personal_access_tokens', heading],
      ['/-/user_settings/active_sessions', heading],
      ['/admin/runners/cleanup', heading],
      ['/admin/runners/dashboard', heading],
      ['/admin/runners/alerts', heading],
    ];
    const tally: Tally = { operated: 0, failures: [] };
    for (const [path, ready] of pages) await operateAll(page, path, ready, tally);
    console.log(`[FOCUS] operated ${tally.operated} controls on ${pages.length} pages; ${tally.failures.length} lost focus`);
    expect(tally.failures, tally.failures.join('\n')).toEqual([]);
    expect(tally.operated).toBeGreaterThan(40);
  });

  test('[FOCUS] a failed sign-in puts focus on the first field', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Username or primary email').fill(ROOT.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByLabel('Password').press('Enter');
    await expect(page.getByText('Invalid login or password.')).toBeVisible();
    await expect(page.getByLabel('Username or primary email')).toBeFocused();
    await expect(page.getByLabel('Username or primary email')).toHaveAttribute('aria-invalid', 'true');
  });

  test('[FOCUS] a failed runner save reports every invalid field at once and focuses the first', async ({ page }) => {
    const api = await rootApi(page);
    const runner = await api.runner({ runner_type: 'instance_type', description: uniq('focus-edit'), tag_list: 'docker' });
    await page.goto(`/admin/runners/${runner.id}/edit`);
    const form = page.getByRole('form', { name: 'Edit runner' });
    await form.getByRole('textbox', { name: 'Tags', exact: true }).fill(`docker, ${'x'.repeat(300)}`);
    await form.getByLabel('Maximum job timeout').fill('5');
    await form.getByRole('button', { name: 'Save changes' }).press('Enter');
    await expect(form.locator('#runner-tags-error')).toContainText('at most 255 characters');
    await expect(form.locator('#runner-maximum_timeout-error')).toHaveText('needs to be at least 10 minutes');
    await expect(form.getByRole('textbox', { name: 'Tags', exact: true })).toBeFocused();
  });

  test('[FOCUS] the first Tab reaches "Skip to main content", which moves focus to the page', async ({ page }) => {
    await rootApi(page);
    await page.goto('/admin/runners');
    await expect(page.getByRole('table', { name: 'Runners', exact: true })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });
});
