// Runner list load benchmark (issue 23): `npm run bench:runners-list-load` (needs a production build and
// Chromium; DATABASE_URL names the PostgreSQL server; a dedicated database with the demo data is created).
// (a) First-load JavaScript of /admin/runners: every script a cold browser loads until the table shows and
//     the network is idle, each gzipped (zlib's default level, as the server's compression) and summed.
//     Target: at most 150 kB. Exits non-zero above BENCH_MAX_FIRST_LOAD_KB (default 150), so it is a check.
// (b) First meaningful paint: from navigation start to the first row (and, on the lists that have them, the
//     counts) on screen, with the demo data, over BENCH_LOADS cold loads (default 10): p50 and max.
//     Target (issue 31): p50 ≤ 500 ms, max ≤ 800 ms.
// (c) The /api/v4 requests the first load makes (the counts used to take one request each).
// (d) Rows in the first HTML response (issue 31: the first page is rendered on the server): the rows found in
//     the HTML of the page's GET with the session cookie, before any script runs.
// (b) and (d) for each server-rendered list (issue 31): /admin/runners, a group's runners (/groups/acme/-/runners),
// a project's CI/CD settings (the demo project with the most assigned runners) and a project's merge
// requests (the demo project with the most); (a) for each of them too.
// The machine's load average (os.loadavg) is printed with the figures: on a shared machine it explains them.
import { loadavg } from 'node:os';
import { collectScripts } from './page-scripts';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { BENCH_ROOT_PASSWORD, ensureDatabase, freePort, rootToken, runwayEnv, startRunway, stop } from './runway-process';

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const MAX_KB = Number(process.env.BENCH_MAX_FIRST_LOAD_KB ?? 150);
const log = (s: string) => process.stderr.write(`${s}\n`);
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
type Session = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A list page under test: its path, the table's accessible name, and whether the type counts must show too. */
interface Target {
  name: string;
  path: string;
  table: string;
  counts: boolean;
}

// Kept as source text: tsx would wrap named functions in a helper the page lacks.
const paintObserver = (t: Target) => `(() => {
  const shown = () =>
    document.querySelector('table[aria-label="${t.table}"] tbody tr') &&
    (${!t.counts} || /\\d/.test(document.querySelector('[data-testid="count-all"]')?.textContent ?? ''));
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
async function coldLoad(browser: Browser, base: string, storageState: Session, t: Target) {
  const context = await browser.newContext({ storageState, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const sizes = collectScripts(page);
  const api: string[] = [];
  // Recorded inside the page at the DOM change that completes the first row and the counts (from navigation start).
  await page.addInitScript(paintObserver(t));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/v4/')) api.push(`${u.pathname}${u.search}`);
  });
  await page.goto(`${base}${t.path}`, { waitUntil: 'commit' });
  await page.locator(`table[aria-label="${t.table}"] tbody tr`).first().waitFor({ timeout: 60_000 });
  if (t.counts) await page.locator('[data-testid="count-all"]').filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
  await page.waitForFunction('window.__listPaint !== undefined', undefined, { timeout: 60_000 });
  const paintMs = (await page.evaluate('window.__listPaint')) as number;
  await page.waitForLoadState('networkidle');
  const scripts = await sizes();
  await context.close();
  return { paintMs, scripts, api };
}

/** The demo's group, project and merge request lists to load, found through the API as root. */
async function targets(base: string, token: string): Promise<Target[]> {
  const get = async (path: string) => {
    const res = await fetch(`${base}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return { body: (await res.json()) as Array<Record<string, unknown>>, total: Number(res.headers.get('x-total') ?? 0) };
  };
  const projects = (await get('/projects?per_page=100')).body as Array<{ id: number; path_with_namespace: string }>;
  const most = async (path: (id: number) => string) => {
    let best = { project: projects[0], total: -1 };
    for (const p of projects) {
      const { total } = await get(path(p.id));
      if (total > best.total) best = { project: p, total };
    }
    return best.project.path_with_namespace;
  };
  const ciCd = await most((id) => `/projects/${id}/runners?type=project_type&per_page=1`);
  const mrs = await most((id) => `/projects/${id}/merge_requests?state=opened&per_page=1`);
  return [
    { name: 'admin runners', path: '/admin/runners', table: 'Runners', counts: true },
    { name: 'group runners', path: '/groups/acme/-/runners', table: 'Runners', counts: true },
    { name: 'project CI/CD settings', path: `/${ciCd}/-/settings/ci_cd`, table: 'Assigned project runners', counts: false },
    { name: 'merge requests', path: `/${mrs}/-/merge_requests`, table: 'Merge requests', counts: false },
  ];
}

/** Rows of the table's body in the raw HTML of GET `path` with the session's cookie. */
async function rowsInHtml(base: string, session: Session, t: Target): Promise<number> {
  const cookie = session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const html = await (await fetch(`${base}${t.path}`, { headers: { cookie } })).text();
  const table = new RegExp(`<table[^>]*aria-label="${t.table}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  return (table.match(/<tbody[\s\S]*<\/tbody>/)?.[0].match(/<tr[\s>]/g) ?? []).length;
}

async function main() {
  const url = await ensureDatabase('runway_bench_runners_list_load');
  const port = await freePort();
  const env = { ...runwayEnv(url, port), RUNWAY_DEMO: 'true' };
  const token = rootToken(env); // migrates and bootstraps root
  const runway = await startRunway(env);
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: process.env.RUNWAY_E2E_CHROMIUM ?? '/usr/bin/chromium' });
  let failed = false;
  try {
    const session = await signIn(browser, base);
    const rows: string[] = [];
    const loads: string[] = [];
    for (const t of await targets(base, token)) {
      // The first load also warms the server (route compilation caches, the plan cache); it is not timed.
      const first = await coldLoad(browser, base, session, t);
      const total = first.scripts.reduce((n, s) => n + s.gzip, 0);
      const raw = first.scripts.reduce((n, s) => n + s.raw, 0);
      log(`${t.path}: first-load JavaScript ${first.scripts.length} scripts, ${kB(total)} gzip (${kB(raw)} uncompressed)`);
      for (const s of first.scripts.slice(0, 20)) log(`  ${kB(s.gzip).padStart(9)}  ${s.url}`);
      log(`API requests of the first load (${first.api.length}):`);
      for (const a of first.api) log(`  ${a}`);
      const htmlRows = await rowsInHtml(base, session, t);
      log(`rows in the first HTML response: ${htmlRows}`);
      const loadBefore = loadavg();
      const times: number[] = [];
      for (let i = 0; i < LOADS; i++) times.push((await coldLoad(browser, base, session, t)).paintMs);
      const loadAfter = loadavg();
      const sorted = [...times].sort((a, b) => a - b);
      const p50 = sorted[Math.ceil(sorted.length / 2) - 1];
      const avg = (l: number[]) => l.map((n) => n.toFixed(1)).join(' / ');
      rows.push(
        `| ${t.name} | \`${t.path}\` | ${htmlRows ? `yes (${htmlRows})` : 'no'} | ${p50.toFixed(0)} / ${sorted.at(-1)!.toFixed(0)} ms | ${kB(total)} (${first.scripts.length}) | ${first.api.length} | ${avg(loadBefore)} → ${avg(loadAfter)} |`,
      );
      loads.push(`${t.name}: ${times.map((n) => n.toFixed(0)).join(', ')} ms`);
      if (total / 1024 > MAX_KB) {
        failed = true;
        log(`FAIL: first-load JavaScript of ${t.path} ${kB(total)} is above ${MAX_KB} kB`);
      }
    }
    console.log(`\nnavigation → first row painted (and the counts, on the runner lists), demo data, cold, p50 / max of ${LOADS}; target ≤ 500 / ≤ 800 ms.`);
    console.log(`first-load JS: gzip, target ≤ ${MAX_KB} kB.\n`);
    console.log(
      '| list | path | rows in the first HTML | first row painted p50 / max | first-load JS (scripts) | /api/v4 requests of the first load | load average 1/5/15 min before → after |',
    );
    console.log('|---|---|---|---:|---:|---:|---|');
    for (const r of rows) console.log(r);
    console.log('');
    for (const l of loads) console.log(`- ${l}`);
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
