// [RUNNERS] Issue 23, the runner list as a product: GitLab's filtered search (keyboard, tag suggestions,
// GitLab's URL parameters, bad ones normalised away), status and type with icons, one even action group per
// row with toasts and the delete confirmation, phone width without sideways scrolling, long tags and
// descriptions kept inside their columns, and counts in one request that say what they count.
import { expect, test, type Page } from '@playwright/test';
import { expectIconActions } from './support/page-checks';
import { filterBox, filterRunners } from './support/runner-filters';
import { csrfToken, jsonOf, signIn, uniq } from './support/session';

const table = (page: Page) => page.getByRole('table', { name: 'Runners', exact: true });
const rowOf = (page: Page, text: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByText(text, { exact: true }) });

async function seed(page: Page, runners: Array<Record<string, unknown>>) {
  await signIn(page);
  const headers = { 'X-CSRF-Token': await csrfToken(page) };
  const out: Array<{ id: number; token: string }> = [];
  for (const data of runners) out.push(await jsonOf(await page.request.post('/api/v4/user/runners', { data, headers }), 201));
  return out;
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth);

test.describe('[RUNNERS] the runner list as a product', () => {
  test('[RUNNERS] the filtered search works from the keyboard, suggests tags and writes GitLab parameters', async ({ page }) => {
    const tag = uniq('fsb');
    await seed(page, [
      { runner_type: 'instance_type', description: `${tag} one`, tag_list: [tag], paused: true },
      { runner_type: 'instance_type', description: `${tag} two`, tag_list: [tag, `${tag}-gpu`] },
    ]);
    await page.goto('/admin/runners');
    const box = filterBox(page);
    await box.focus();
    // The token list opens on focus; arrows and Enter pick "Tag".
    await expect(page.getByRole('listbox', { name: 'Filters' })).toBeVisible();
    await box.fill('ta');
    await expect(page.getByRole('option', { name: /^Tag/ })).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    const value = page.getByRole('combobox', { name: 'Tag: choose or type a value' });
    await expect(value).toBeFocused();
    await value.fill(`${tag}-g`);
    // Suggested from the instance's tags.
    await expect(page.getByRole('option', { name: `${tag}-gpu`, exact: true })).toBeVisible();
    await value.press('ArrowDown');
    await expect(page.getByRole('option', { name: `${tag}-gpu`, exact: true })).toHaveAttribute('aria-selected', 'true');
    await value.press('Enter');
    await expect(page).toHaveURL(new RegExp(`\\?tag%5B%5D=${tag}-gpu$`));
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await filterRunners(page, 'Status', 'Never contacted');
    await expect(page).toHaveURL(/status%5B%5D=NEVER_CONTACTED/);
    await expect(page.getByRole('button', { name: 'Remove filter Status = Never contacted' })).toBeVisible();
    // Backspace in the empty box removes the last token shown (the tag, after the status).
    await filterBox(page).press('Backspace');
    await expect(page).not.toHaveURL(/tag/);
    await expect(page.getByRole('button', { name: /Remove filter Tag/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove filter Status = Never contacted' })).toBeVisible();
  });

  test('[RUNNERS] the filter box focused, and typed in, before the server-rendered list is interactive opens its suggestions', async ({ page }) => {
    await signIn(page);
    // Hold the page's scripts until the box has focus and text: what a quick user does on a slow connection.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const script = (url: URL) => url.pathname.startsWith('/_next/static/') && url.pathname.endsWith('.js');
    await page.route(script, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/admin/runners', { waitUntil: 'domcontentloaded' });
    const box = filterBox(page);
    await box.focus();
    await box.pressSequentially('ta');
    release();
    await expect(page.getByRole('listbox', { name: 'Filters' })).toBeVisible();
    await expect(page.getByRole('option', { name: /^Tag/ })).toHaveAttribute('aria-selected', 'true');
    await expect(box).toBeFocused();
  });

  test('[RUNNERS] unknown or invalid address parameters are normalised away, older names rewritten', async ({ page }) => {
    const tag = uniq('norm');
    await seed(page, [{ runner_type: 'instance_type', description: `${tag} one`, tag_list: [tag] }]);
    await page.goto(`/admin/runners?tag_list=${tag}&status=bogus&paused=maybe&foo=bar&type=instance_type&sort=NAME&version_prefix=x1`);
    await expect(page).toHaveURL(new RegExp(`/admin/runners\\?runner_type%5B%5D=INSTANCE_TYPE&tag%5B%5D=${tag}$`));
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('tab', { name: /Instance/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText(/invalid|could not/i)).toHaveCount(0);
  });

  test('[RUNNERS] status and type carry icons; counts come in one request and say what they count', async ({ page }) => {
    const tag = uniq('icons');
    await seed(page, [{ runner_type: 'instance_type', description: `${tag} one`, tag_list: [tag], paused: true }]);
    const countReads: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/v4/runners/all') && (u.pathname.endsWith('/counts') || u.searchParams.get('per_page') === '1'))
        countReads.push(u.pathname);
    });
    await page.goto(`/admin/runners?tag[]=${tag}`);
    const row = rowOf(page, `${tag} one`);
    await expect(row.locator('[data-status="never_contacted"] svg')).toHaveCount(1);
    await expect(row.getByText('Paused').locator('xpath=..').locator('svg')).toHaveCount(1);
    await expect(row.getByText('Instance', { exact: true }).locator('xpath=..').locator('svg')).toHaveCount(1);
    await expect(page.getByTestId('count-all')).toHaveText('1');
    // All counts from the one counts endpoint, none from per-status list reads. Other specs' runners reach this
    // admin's live list and may refetch the counts meanwhile: each refetch is again that one request.
    // The first page's counts come in the first HTML (server-rendered), so the first load may read none.
    expect(countReads.filter((p) => p !== '/api/v4/runners/all/counts')).toEqual([]);
    await expect(page.getByText('Contacted in the last 2 hours')).toBeVisible();
    await expect(page.getByText('No contact for 7 days, or never since created 7+ days ago')).toBeVisible();
    await expect(page.getByText(/counts each runner under one status only/)).toBeVisible();
  });

  test('[RUNNERS] row actions are one even group with names and tooltips; pause and delete end with a toast', async ({ page }) => {
    const tag = uniq('acts');
    const [paused, active] = await seed(page, [
      { runner_type: 'instance_type', description: `${tag} paused`, tag_list: [tag], paused: true },
      { runner_type: 'instance_type', description: `${tag} active`, tag_list: [tag] },
    ]);
    await page.goto(`/admin/runners?tag[]=${tag}`);
    for (const r of [paused, active]) {
      const group = page.getByRole('group', { name: `Actions for runner #${r.id}` });
      // One row of equal buttons, not a stack. Polled: the counts and the live stream may still move the table
      // while the boxes are read.
      await expect
        .poll(async () => {
          const boxes = await Promise.all(
            [/^Edit runner/, /^(Pause|Resume) runner/, /^Delete runner/].map((name) =>
              group.getByRole(name.source.startsWith('^Edit') ? 'link' : 'button', { name }).boundingBox(),
            ),
          );
          if (boxes.some((b) => !b)) return 'a button is not shown';
          return [new Set(boxes.map((b) => Math.round(b!.y))).size, new Set(boxes.map((b) => Math.round(b!.height))).size];
        })
        .toEqual([1, 1]);
    }
    await expectIconActions(page.getByRole('group', { name: `Actions for runner #${active.id}` }), /^Delete/);
    const del = page.getByRole('button', { name: `Delete runner #${active.id}` });
    await del.focus();
    await expect(del.getByRole('tooltip')).toHaveText('Delete runner');
    await page.getByRole('button', { name: `Resume runner #${paused.id}` }).click();
    await expect(page.getByText(`Runner #${paused.id} resumed`)).toBeVisible();
    await del.click();
    const dialog = page.getByRole('dialog', { name: `Delete runner #${active.id}?` });
    await dialog.getByRole('button', { name: 'Permanently delete runner' }).click();
    await expect(page.getByText(`Runner #${active.id} was deleted`)).toBeVisible();
    await expect(rowOf(page, `${tag} active`)).toHaveCount(0);
  });

  test('[RUNNERS] long tags and descriptions stay inside the list; actions stay reachable', async ({ page }) => {
    const tag = uniq('long');
    // As long as a tag may be (255 characters, GitLab's limit), with no space to break at.
    const longTag = `${tag}-`.padEnd(255, 'x');
    const [r] = await seed(page, [{ runner_type: 'instance_type', description: `${tag} ${'verylongword'.repeat(40)}`, tag_list: [tag, longTag] }]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/admin/runners?tag[]=${tag}`);
    const region = page.getByRole('region', { name: 'Runners' });
    await expect(table(page).getByRole('row')).toHaveCount(2);
    expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const del = await page.getByRole('button', { name: `Delete runner #${r.id}` }).boundingBox();
    expect(del!.x + del!.width).toBeLessThanOrEqual(1280);
    expect(await noSidewaysScroll(page)).toBe(true);
  });

  test('[RUNNERS] at 390 px the first screen shows runners with their actions, filters behind a toggle, no sideways scrolling', async ({ page }) => {
    const tag = uniq('phone');
    const [r] = await seed(page, [
      { runner_type: 'instance_type', description: `${tag} phone runner with a long description`, tag_list: [tag, `${tag}-${'y'.repeat(100)}`] },
    ]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/runners?tag[]=${tag}`);
    const pause = page.getByRole('button', { name: `Pause runner #${r.id}` });
    await expect(pause).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    const box = await pause.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    // The filters wait behind "Filter".
    await expect(filterBox(page)).toBeHidden();
    const toggle = page.getByRole('button', { name: /^Filter/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveText('Filter (1)');
    await toggle.click();
    await expect(filterBox(page)).toBeVisible();
    await expect(page.getByRole('button', { name: `Remove filter Tag = ${tag}` })).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
  });
});
