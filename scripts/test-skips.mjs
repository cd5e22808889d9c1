// The skipped tests of a run, by file, with the reasons they give: from vitest's JSON report (a test's
// meta.skipReason, which lib/db/test-server.ts's needsServer sets) and Playwright's (test.skip's
// description). `npm test` prints them before its summary, so a run says what it left out and why.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NO_REASON = 'no reason given';
const SKIPPED = new Set(['skipped', 'pending', 'todo']);

/** file (relative to root) -> { count, reasons } for every skipped test in the reports given. */
export function skippedByFile({ root, vitest, playwright }) {
  const skips = new Map();
  const note = (file, reason) => {
    const entry = skips.get(file) ?? { count: 0, reasons: new Set() };
    entry.count += 1;
    entry.reasons.add(reason || NO_REASON);
    skips.set(file, entry);
  };
  for (const file of vitest?.testResults ?? []) {
    // A failed hook (beforeAll) leaves the file's tests reported as skipped.
    const fallback = file.status === 'failed' ? 'not run: a hook of the file failed' : undefined;
    for (const t of file.assertionResults ?? []) if (SKIPPED.has(t.status)) note(path.relative(root, file.name), t.meta?.skipReason ?? fallback);
  }
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        if (t.status !== 'skipped') continue;
        const notes = [...(t.annotations ?? []), ...(t.results ?? []).flatMap((r) => r.annotations ?? [])];
        note(`e2e/${spec.file}`, notes.find((a) => a.type === 'skip' && a.description)?.description);
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of playwright?.suites ?? []) walk(suite);
  return skips;
}

/** The lines to print: one per file, sorted, with its count and reasons. */
export function formatSkips(skips) {
  if (!skips.size) return [];
  const files = [...skips].sort(([a], [b]) => a.localeCompare(b));
  return ['Skipped tests, by file:', ...files.map(([file, { count, reasons }]) => `  - ${file} (${count}): ${[...reasons].join('; ')}`)];
}

// `node scripts/test-skips.mjs <vitest.json> [<playwright.json>]`: the listing alone (.ci/run's embedded API run).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const read = (file) => (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const lines = formatSkips(skippedByFile({ root, vitest: read(process.argv[2]), playwright: read(process.argv[3]) }));
  console.log(lines.length ? lines.join('\n') : 'No test was skipped.');
}
