// Runner list load benchmark (issue 23): `npm run bench:runners-list-load` (needs a production build and
// Chromium; DATABASE_URL names the PostgreSQL server; a dedicated database with the demo data is created).
// (a) First-load JavaScript of /admin/runners: every script a cold browser loads until the table shows and
//     the network is idle, each gzipped (zlib's default level, as the server's compression) and summed.
//     Target: at most 150 kB. Exits non-zero above BENCH_MAX_FIRST_LOAD_KB (default 150), so it is a check.
// (b) First meaningful paint: from navigation start to the first runner row (and the type counts) on screen,
//     with the demo data, over BENCH_LOADS cold loads (default 10): p50 and max. Target: under 1 s.
// (c) The /api/v4 requests the first load makes (the counts used to take one request each).
import { collectScripts } from './page-scripts';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { BENCH_ROOT_PASSWORD, ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const MAX_KB = Number(process.env.BENCH_MAX_FIRST_LOAD_KB ?? 150);
const log = (s: string) => process.stderr.write(`${s}\n`);
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
type Session = Awaited<ReturnType<BrowserContext['storageState']>>;

// Kept as source text: tsx would wrap named functions in a helper the page lacks.
const PAINT_OBSERVER = `(() => {
  const shown = () =>
    document.querySelector('table[aria-label="Runners"] tbody tr') &&
    /\\d/.test(document.querySelector('[data-testid="count-all"]')?.textContent ?? '');
  new MutationObserver((_, observer) => {
    if (window.__listPaint === undefined && shown()) {
      window.__listPaint = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()`;

async function signIn(browser: Browser, base: string): Promise<Session> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Username or primary email').fill('root');
  await page.getByLabel('Password').fill(BENCH_ROOT_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('current-user').waitFor({ timeout: 60_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

/** One cold load (fresh context, empty cache): its scripts, API requests and time to the first row. */
async function coldLoad(browser: Browser, base: string, storageState: Session) {
  const context = await browser.newContext({ storageState, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const sizes = collectScripts(page);
  const api: string[] = [];
  // Recorded inside the page at the DOM change that completes the first row and the counts (from navigation start).
  await page.addInitScript(PAINT_OBSERVER);
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/v4/')) api.push(`${u.pathname}${u.search}`);
  });
  await page.goto(`${base}/admin/runners`, { waitUntil: 'commit' });
  const firstRow = page.locator('table[aria-label="Runners"] tbody tr').first();
  await firstRow.waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="count-all"]').filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
  const paintMs = (await page.evaluate('window.__listPaint')) as number;
  await page.waitForLoadState('networkidle');
  const scripts = await sizes();
  await context.close();
  return { paintMs, scripts, api };
}

async function main() {
  const url = await ensureDatabase('runway_bench_runners_list_load');
  const port = await freePort();
  const env = { ...runwayEnv(url, port), RUNWAY_DEMO: 'true' };
  rootToken(env); // migrates and bootstraps root
  const runway = await startRunway(env);
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: process.env.RUNWAY_E2E_CHROMIUM ?? '/usr/bin/chromium' });
  let failed = false;
  try {
    const session = await signIn(browser, base);
    // The first load also warms the server (route compilation caches, the plan cache); it is not timed.
    const first = await coldLoad(browser, base, session);
    const total = first.scripts.reduce((n, s) => n + s.gzip, 0);
    const raw = first.scripts.reduce((n, s) => n + s.raw, 0);
    log(`first-load JavaScript of /admin/runners: ${first.scripts.length} scripts, ${kB(total)} gzip (${kB(raw)} uncompressed)`);
    for (const s of first.scripts.slice(0, 20)) log(`  ${kB(s.gzip).padStart(9)}  ${s.url}`);
    log(`API requests of the first load (${first.api.length}):`);
    for (const a of first.api) log(`  ${a}`);
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) times.push((await coldLoad(browser, base, session)).paintMs);
    const sorted = [...times].sort((a, b) => a - b);
    const p50 = sorted[Math.ceil(sorted.length / 2) - 1];
    console.log('\n| measure | figure | target |');
    console.log('|---|---:|---:|');
    console.log(`| first-load JS of /admin/runners (gzip, ${first.scripts.length} scripts) | ${kB(total)} | ≤ ${MAX_KB} kB |`);
    console.log(
      `| navigation → first row and counts, demo data, cold, p50 / max of ${LOADS} | ${p50.toFixed(0)} / ${sorted.at(-1)!.toFixed(0)} ms | < 1,000 ms |`,
    );
    console.log(`| /api/v4 requests of the first load | ${first.api.length} | |`);
    failed = total / 1024 > MAX_KB;
    if (failed) log(`FAIL: first-load JavaScript ${kB(total)} is above ${MAX_KB} kB`);
  } finally {
    await browser.close();
    await stop(runway);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  log(String(e?.stack ?? e));
  process.exit(1);
});
