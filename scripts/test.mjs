#!/usr/bin/env node
// `npm test`: lint (ESLint, Prettier's check and the layer rules), generate the Prisma client and build Runway (when the sources
// changed), typecheck, then run unit + API tests (vitest) and the browser tests (Playwright, Debian's
// Chromium). API and browser tests start their own Runway on a fresh database: the PostgreSQL server in
// DATABASE_URL, else the embedded PGlite. A lint or type error counts as a failure, but the tests still run so
// one run shows everything. Ends with the skipped tests by file, with their reasons, and one summary line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatSkips, skippedByFile } from './test-skips.mjs';
import { formatOverrides } from '../tests/support/test-overrides.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const reports = mkdtempSync(path.join(os.tmpdir(), 'runway-test-'));

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

// The last lines of each failed static check, repeated at the end of the run.
const checkTails = {};

// An npm script, through the npm that runs `npm test` (npm_execpath, which also works on Windows), else npm on
// PATH. Its output is passed through and its tail kept.
function runScript(label, script) {
  console.log(`\n=== ${label}`);
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm, 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  const status = r.status ?? 1;
  if (status !== 0) checkTails[script] = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n    ');
  return status;
}

function fail(msg) {
  console.error(msg);
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
}

// Static checks first; each one that fails is one failed count in the summary and is named at the end.
const failedChecks = [];
if (runScript('lint (eslint, prettier --check, the layer rules)', 'lint') !== 0) failedChecks.push('lint');

// The Prisma client and the build, unless both still match the sources (scripts/build.mjs).
if (!process.env.RUNWAY_SKIP_BUILD && run('build', process.execPath, ['scripts/build.mjs', '--if-stale']) !== 0) fail('build failed');

// After the build step, which regenerates a stale Prisma client the types come from.
if (runScript('typecheck (tsc --noEmit)', 'typecheck') !== 0) failedChecks.push('typecheck');

const vitestJson = path.join(reports, 'vitest.json');
const vitestStatus = run('unit and API tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);

const pwJson = path.join(reports, 'playwright.json');
const pwStatus = process.env.RUNWAY_SKIP_E2E
  ? 0
  : run('browser tests (playwright)', bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson });

let passed = 0;
let failed = 0;
let skipped = 0;
// Each failure again at the very end, briefly: a CI log is often read from its tail only.
const failures = [];
const brief = (text) =>
  String(text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .trim()
    .split('\n')
    .filter((line) => !/node_modules|node:internal|new Promise/.test(line))
    .slice(0, 12)
    .join('\n      ')
    .slice(0, 1200);
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  for (const file of v.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      if (t.status === 'failed') failures.push(`${path.relative(root, file.name)} > ${t.fullName}\n      ${brief(t.failureMessages?.[0])}`);
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} else failed += 1;
if (!process.env.RUNWAY_SKIP_E2E) {
  if (existsSync(pwJson)) {
    const p = JSON.parse(readFileSync(pwJson, 'utf8'));
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? []) {
          const bad = (t.results ?? []).find((r) => r.status !== 'passed' && r.status !== 'skipped');
          if (bad && t.status !== 'expected' && t.status !== 'skipped')
            failures.push(`e2e/${spec.file}:${spec.line} > ${spec.title}\n      ${brief(bad.error?.message ?? bad.errors?.[0]?.message)}`);
        }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of p.suites ?? []) walk(suite);
    passed += p.stats?.expected ?? 0;
    failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0);
    skipped += p.stats?.skipped ?? 0;
  } else failed += 1;
}
// A runner that failed without failing a test (setup error, crash) still counts as a failure.
if (vitestStatus !== 0 && failed === 0) failed += 1;
if (pwStatus !== 0 && failed === 0) failed += 1;
failed += failedChecks.length;
// What was left out and why, then the failures last (a CI log is often read from its tail only).
const readReport = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
const skipLines = formatSkips(
  skippedByFile({ root, vitest: readReport(vitestJson), playwright: process.env.RUNWAY_SKIP_E2E ? undefined : readReport(pwJson) }),
);
if (skipLines.length) console.log(`\n${skipLines.join('\n')}`);
// What the test servers ran other than the shipped defaults, and why.
console.log(`\n${formatOverrides().join('\n')}`);
if (failures.length) console.error(`\nFailed tests (${failures.length}), in brief:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
for (const check of failedChecks) console.error(`FAILED: npm run ${check} reported errors; its last lines:\n    ${checkTails[check] ?? ''}`);
const ok = vitestStatus === 0 && pwStatus === 0 && failed === 0;
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
