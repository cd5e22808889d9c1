#!/usr/bin/env node
// `npm run build`: generate the Prisma client and build Next.js, then record a fingerprint of the
// sources beside the build output. With --if-stale (`npm run demo`, `npm test`) both steps are skipped
// while that fingerprint still matches, so restarting an unchanged checkout takes seconds, not minutes.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const STAMP_FILE = 'runway-build.json';
const GENERATED_CLIENT = path.join('lib', 'db', 'generated', 'client.ts');
// What never reaches the build: tests, docs, benchmarks, CI, the CLI (run from source), scripts other
// than the generator, packaging (deploy/, the Dockerfile, compose), and output or data folders.
const IGNORED_TOP = new Set([
  '.git',
  '.ci',
  'node_modules',
  'tests',
  'e2e',
  'docs',
  'bench',
  'bin',
  'dist',
  'deploy',
  'test-results',
  'playwright-report',
  'coverage',
]);
const IGNORED_PATH =
  /(^|\/)(\.next[^/]*|\.data|node_modules)(\/|$)|^lib\/db\/generated\/|\.test\.ts$|\.md$|\.tsbuildinfo$|^(next-env\.d\.ts|vitest\.config\.ts|playwright\.config\.ts|Dockerfile|compose\.yaml|\.dockerignore)$|(^|\/)\.env(\.|$)/;

/** Whether a repository-relative path can change what `prisma generate` + `next build` produce. */
export function isBuildInput(file) {
  const top = file.split('/')[0];
  if (top === 'scripts') return file === 'scripts/prisma-generate.mjs';
  return !IGNORED_TOP.has(top) && !IGNORED_PATH.test(file);
}

/** The source files of the checkout: git's view (tracked and new, not ignored) when git is there. */
export function sourceFiles(root) {
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  const listed = git.status === 0 ? git.stdout.split('\0').filter(Boolean) : walk(root, '');
  return [...new Set(listed)].filter(isBuildInput).sort();
}

function walk(root, dir) {
  const out = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (!isBuildInput(rel)) continue;
    if (entry.isDirectory()) out.push(...walk(root, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** A digest over the build inputs' paths and contents (a listed file that is gone counts as such). */
export function sourceFingerprint(root) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root)) {
    hash.update(`${file}\0`);
    const full = path.join(root, file);
    hash.update(existsSync(full) ? readFileSync(full) : '\0deleted');
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readBuildId(distDir) {
  try {
    return readFileSync(path.join(distDir, 'BUILD_ID'), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Why a build is needed, or null when the last one still matches: the stamp names the fingerprint and
 * the BUILD_ID it was written for, so a build made some other way (`npx next build`) never passes as ours.
 */
export function staleReason(root, distDir, fingerprint = sourceFingerprint(root)) {
  if (!existsSync(path.join(root, GENERATED_CLIENT))) return 'no Prisma client';
  const buildId = readBuildId(distDir);
  if (!buildId) return 'no build';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(distDir, STAMP_FILE), 'utf8'));
  } catch {
    return 'no build stamp';
  }
  if (stamp.buildId !== buildId) return 'the build was replaced';
  if (stamp.fingerprint !== fingerprint) return 'sources changed';
  return null;
}

export function writeStamp(distDir, fingerprint) {
  writeFileSync(path.join(distDir, STAMP_FILE), `${JSON.stringify({ fingerprint, buildId: readBuildId(distDir) })}\n`);
}

function run(root, cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/**
 * Next.js lists the experiments next.config.mjs sets, with a cross for one turned off, which reads as an
 * error. Runway turns isrFlushToDisk off on purpose (rendered pages stay in memory: an installed build folder
 * is read-only), so the build says that instead. Every other line passes as printed.
 */
export function buildOutputLine(line, state) {
  const bare = line.replace(/\u001b\[[0-9;]*m/g, '').trim();
  if (bare === '- Experiments (use with caution):') {
    state.experiments = true;
    return null;
  }
  if (state.experiments && /^⨯ isrFlushToDisk$/u.test(bare)) {
    state.experiments = false;
    return '- isrFlushToDisk is off: rendered pages stay in memory, never written into the build folder';
  }
  if (state.experiments) {
    state.experiments = false;
    return `- Experiments (use with caution):\n${line}`;
  }
  return line;
}

function runNextBuild(root) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: root,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    const state = { experiments: false };
    createInterface({ input: child.stdout }).on('line', (line) => {
      const out = buildOutputLine(line, state);
      if (out !== null) process.stdout.write(`${out}\n`);
    });
    child.on('close', (code) => {
      if (code !== 0) process.exit(code ?? 1);
      resolve();
    });
  });
}

async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const distDir = path.resolve(root, process.env.RUNWAY_DIST_DIR || '.next');
  // Taken before building: an edit made during the build leaves the stamp behind, so the next start rebuilds.
  const fingerprint = sourceFingerprint(root);
  const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean', default: false } } });
  if (values['if-stale']) {
    const reason = staleReason(root, distDir, fingerprint);
    if (!reason) {
      console.log('build: up to date (sources unchanged since the last build)');
      return;
    }
    console.log(`build: ${reason}, building`);
  }
  run(root, process.execPath, [path.join(root, 'scripts', 'prisma-generate.mjs')]);
  await runNextBuild(root);
  writeStamp(distDir, fingerprint);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
