// The previously merged commits dialog in Chromium: from the search field's input event (or the button's
// click) to the first page drawn, measured inside the page, for `bench/context-commits-search.ts`.
import { chromium, type Page } from '@playwright/test';
import { ROOT_PASSWORD } from '../tests/support/server';

export interface DialogCase {
  name: string;
  /** Fills the dialog's fields (all empty before). */
  fields: { search?: string; author?: string; since?: string; until?: string };
  /** The first row's title once the page is shown, or null for "No commits found". */
  first: string | null;
}

interface Timing {
  /** Input event to the first page drawn (includes the dialog's debounce). */
  typed: number;
  /** The search request's start to the first page drawn. */
  fetched: number;
}

const ROWS = 'ul[aria-label^="Commits in"] > li';

// Runs in the page. Kept as source text: tsx's transform would add helpers (__name) the page lacks.
const WATCH = `(({ first, rows }) => {
  const w = window;
  w.__typed = w.__shown = w.__fetched = undefined;
  const dialog = document.querySelector('dialog[open]');
  dialog.addEventListener('input', () => { if (w.__typed === undefined) w.__typed = performance.now(); }, { capture: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.name.includes('/repository/commits?') && w.__typed !== undefined && e.startTime >= w.__typed && w.__fetched === undefined) w.__fetched = e.startTime;
  }).observe({ type: 'resource' });
  const observer = new MutationObserver(() => {
    const row = dialog.querySelector(rows);
    const empty = [...dialog.querySelectorAll('p,div,h2,h3')].some((n) => n.textContent.trim() === 'No commits found');
    if (w.__typed !== undefined && (first === null ? empty && !row : row && row.textContent.includes(first))) {
      if (w.__shown === undefined) w.__shown = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(dialog, { subtree: true, childList: true, characterData: true });
})`;

/** Watches for the dialog to show `first` as its first row (or the empty state for null). */
async function armWatch(page: Page, first: string | null): Promise<void> {
  await page.evaluate(`${WATCH}(${JSON.stringify({ first, rows: ROWS })})`);
}

async function readWatch(page: Page): Promise<Timing> {
  await page.waitForFunction('window.__shown !== undefined', undefined, { timeout: 30_000 });
  // The resource entry is reported once the response ends, which may be after the rows are drawn.
  await page.waitForFunction('window.__fetched !== undefined', undefined, { timeout: 5_000 }).catch(() => undefined);
  const t = (await page.evaluate('({ typed: window.__typed, shown: window.__shown, fetched: window.__fetched ?? NaN })')) as {
    typed: number;
    shown: number;
    fetched: number;
  };
  return { typed: t.shown - t.typed, fetched: t.shown - t.fetched };
}

async function fill(page: Page, f: DialogCase['fields']) {
  const dialog = page.getByRole('dialog');
  if (f.since) await dialog.getByLabel('Committed after').fill(f.since);
  if (f.until) await dialog.getByLabel('Committed before').fill(f.until);
  if (f.author) await dialog.getByLabel('Author', { exact: true }).fill(f.author);
  if (f.search) await dialog.getByLabel('Search by commit title or SHA').fill(f.search);
}

/**
 * Opens the merge request's dialog `runs` times per case in a fresh page, signed in as root, and returns
 * the timings per case: the dialog opening first (button click to the first 40 rows), then each search.
 */
export async function measureDialog(baseUrl: string, mrCommitsPath: string, cases: DialogCase[], newestTitle: string, runs: number) {
  const browser = await chromium.launch({ executablePath: process.env.RUNWAY_E2E_CHROMIUM ?? '/usr/bin/chromium' });
  const results = new Map<string, Timing[]>();
  try {
    const page = await (await browser.newContext({ baseURL: baseUrl })).newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Username or primary email').fill('root');
    await page.getByLabel('Password').fill(ROOT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('current-user').waitFor();
    for (let run = 0; run < runs; run++) {
      await page.goto(mrCommitsPath);
      const open = page.getByRole('button', { name: 'Add previously merged commits' });
      await open.click({ trial: true }); // visible and enabled (the MR's context commits loaded)
      const t0 = (await page.evaluate('performance.now()')) as number;
      await open.click();
      await page.locator(`dialog[open] ${ROWS}`).first().filter({ hasText: newestTitle }).waitFor();
      const t1 = (await page.evaluate('performance.now()')) as number;
      push(results, 'dialog opens (no filter)', { typed: t1 - t0, fetched: NaN });
      for (const c of cases) {
        await armWatch(page, c.first);
        await fill(page, c.fields);
        push(results, c.name, await readWatch(page));
        // Back to the unfiltered list before the next case.
        await page.goto(mrCommitsPath);
        await page.getByRole('button', { name: 'Add previously merged commits' }).click();
        await page.locator(`dialog[open] ${ROWS}`).first().filter({ hasText: newestTitle }).waitFor();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

function push(m: Map<string, Timing[]>, k: string, t: Timing) {
  m.set(k, [...(m.get(k) ?? []), t]);
}
