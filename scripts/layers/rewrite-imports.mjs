#!/usr/bin/env node
// Moves modules and rewrites every import of them, so a move is one command and re-running it over a branch
// that still imports the old paths (a merge) brings that branch along. The moves are listed, step by step,
// in scripts/layers/moves.json: `{ "steps": [{ "name": "...", "moves": { "old/path.ts": "new/path.ts" } }] }`.
//
//   node scripts/layers/rewrite-imports.mjs --step log            git mv one step's files, rewrite imports
//   node scripts/layers/rewrite-imports.mjs                      rewrite imports of every step's old paths
//   node scripts/layers/rewrite-imports.mjs --dry-run            list what would change, change nothing
//
// Specifiers rewritten: `from '…'`, `import '…'`, `import('…')`, `require('…')`, `vi.mock('…')`, in .ts,
// .tsx, .mts, .js and .mjs files; both `@/…` (kept `@/`) and relative ones (kept relative, recomputed).
// An import that names no moved file is left as it is, so the rewrite is idempotent.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const SKIP_DIRS = new Set(['node_modules', '.next', '.git', 'dist', 'test-results', 'playwright-report', '.data', 'generated']);
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '.json', '/index.ts', '/index.tsx'];
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bvi\.mock\s*\(\s*)(['"])([^'"\n]+)\2/g;

/** The moves of the named steps (all when none), composed in order: a file moved twice maps to its last place. */
export function loadMoves(file, steps = []) {
  const { steps: all } = JSON.parse(readFileSync(file, 'utf8'));
  const chosen = steps.length ? all.filter((s) => steps.includes(s.name)) : all;
  const missing = steps.filter((n) => !all.some((s) => s.name === n));
  if (missing.length) throw new Error(`no such step in ${file}: ${missing.join(', ')}`);
  const map = new Map();
  for (const step of chosen) {
    for (const [from, to] of Object.entries(step.moves)) {
      for (const [k, v] of map) if (v === from) map.set(k, to);
      map.set(from, to);
    }
  }
  return map;
}

function sourceFiles(dir = ROOT, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) sourceFiles(path.join(dir, e.name), out);
    } else if (SOURCE.test(e.name)) out.push(path.relative(ROOT, path.join(dir, e.name)).split(path.sep).join('/'));
  }
  return out;
}

/** The repository path a specifier names, tried with the extensions a bundler tries; undefined for packages. */
function resolveSpecifier(spec, fromDir, known) {
  let base;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(fromDir, spec));
  else return undefined;
  for (const ext of EXTENSIONS) if (known(base + ext)) return { file: base + ext, ext };
  return undefined;
}

function newSpecifier(spec, target, ext, fromDir) {
  // Written as the old one was: without the extension the bundler adds, or naming the whole file.
  let stripped = target;
  if (ext.startsWith('/') && target.endsWith(ext)) stripped = target.slice(0, -ext.length);
  else if (ext) stripped = target.replace(/\.(ts|tsx|mts|js|mjs|json)$/, '');
  if (spec.startsWith('@/')) return '@/' + stripped;
  let rel = path.posix.relative(fromDir, stripped);
  if (!rel.startsWith('.')) rel = './' + rel;
  return rel;
}

/**
 * Rewrites one file's text. `oldPath` is where the file stood when its relative imports were written (its
 * path before this run's git mv), `newPath` where it stands now.
 */
export function rewriteSource(text, oldPath, newPath, moves, exists) {
  const oldDir = path.posix.dirname(oldPath);
  const newDir = path.posix.dirname(newPath);
  const known = (p) => moves.has(p) || exists(p);
  return text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const hit = resolveSpecifier(spec, oldDir, known);
    if (!hit) return whole;
    const target = moves.get(hit.file) ?? hit.file;
    if (target === hit.file && oldDir === newDir) return whole;
    if (spec.startsWith('@/') && target === hit.file) return whole;
    const next = newSpecifier(spec, target, hit.ext, newDir);
    return next === spec ? whole : `${lead}${quote}${next}${quote}`;
  });
}

function main() {
  const { values } = parseArgs({
    options: {
      moves: { type: 'string', default: path.join(ROOT, 'scripts', 'layers', 'moves.json') },
      step: { type: 'string', multiple: true, default: [] },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const moves = loadMoves(values.moves, values.step);
  const movedHere = new Map();
  // git mv only what a named step moves and still stands at its old place (a re-run moves nothing).
  if (values.step.length) {
    for (const [from, to] of moves) {
      if (!existsSync(path.join(ROOT, from)) || existsSync(path.join(ROOT, to))) continue;
      if (values['dry-run']) console.log(`would move ${from} -> ${to}`);
      else {
        execFileSync('mkdir', ['-p', path.join(ROOT, path.dirname(to))]);
        execFileSync('git', ['mv', from, to], { cwd: ROOT });
        console.log(`moved ${from} -> ${to}`);
      }
      movedHere.set(to, from);
    }
  }
  const exists = (p) => existsSync(path.join(ROOT, p)) || movedHere.has(p) || [...movedHere.values()].includes(p);
  let changed = 0;
  // This folder's own tests and fixtures name old paths on purpose.
  for (const file of sourceFiles().filter((f) => !f.startsWith('scripts/layers/'))) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const next = rewriteSource(text, movedHere.get(file) ?? file, file, moves, exists);
    if (next === text) continue;
    changed++;
    if (values['dry-run']) console.log(`would rewrite ${file}`);
    else writeFileSync(path.join(ROOT, file), next);
  }
  console.log(`${values['dry-run'] ? 'would rewrite' : 'rewrote'} imports in ${changed} file(s)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
