// Checks and seeding shared by the page specs: the page's width against the viewport, and SQL straight
// into the test database for rows the API cannot make (jobs, pipelines, another runner creator).
import { expect, type Locator, type Page } from '@playwright/test';
import pg from 'pg';

/** The page scrolls only vertically: nothing is wider than the viewport. */
export async function expectNoSideScroll(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
  expect(scroll, `${what}: page ${scroll} px wide in a ${client} px viewport`).toBeLessThanOrEqual(client);
}

/**
 * The page's one breadcrumb trail, as GitLab draws it: `labels` item by item (names, never path slugs), a
 * chevron icon between items and no typed separator ("/", "←"), the last item the current page.
 */
export async function expectBreadcrumbs(page: Page, labels: string[]) {
  const nav = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(nav).toHaveCount(1);
  await expect(nav.getByRole('listitem')).toHaveText(labels);
  await expect(nav.locator('[aria-current="page"]')).toHaveText(labels[labels.length - 1]);
  expect(await nav.locator('li > svg').count(), 'a chevron between items').toBe(labels.length - 1);
  expect(await nav.innerText(), 'no typed separators').not.toMatch(/(^|\s)(\/|←|<-|>)(\s|$)/);
}

/**
 * A row's actions in the one pattern of the dashboard's lists: a named group of icon buttons showing no text,
 * each with a tooltip; those whose names match `danger` are drawn in another colour than the others.
 */
export async function expectIconActions(group: Locator, danger: RegExp) {
  await expect(group).toBeVisible();
  expect((await group.innerText()).trim(), 'icon buttons show no text until hovered or focused').toBe('');
  const actions = await group.locator('a, button').evaluateAll((els) =>
    els.map((el) => ({
      name: el.getAttribute('aria-label') ?? '',
      color: getComputedStyle(el).color,
      tip: el.querySelector('[role="tooltip"]')?.textContent ?? '',
    })),
  );
  expect(actions.length).toBeGreaterThan(0);
  for (const a of actions) {
    expect(a.name, 'each action is named').not.toBe('');
    expect(a.tip, `${a.name}: a tooltip`).not.toBe('');
  }
  const [red, plain] = [actions.filter((a) => danger.test(a.name)), actions.filter((a) => !danger.test(a.name))];
  expect(red.length, `an action named ${danger}`).toBeGreaterThan(0);
  for (const r of red) for (const p of plain) expect(r.color, `${r.name} is drawn unlike ${p.name}`).not.toBe(p.color);
}

export async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: process.env.RUNWAY_E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
