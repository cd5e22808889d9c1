#!/usr/bin/env node
// The figures of lib/'s structure, from dependency-cruiser's reading of the imports: the folder graph's
// strongly connected components (the "knot"), its mutual folder pairs, the imports that climb a layer
// (scripts/layers/layers.mjs), and the file cycles of the whole tree (tests left out).
//
//   node scripts/layers/graph.mjs                   figures of this checkout
//   node scripts/layers/graph.mjs --json            the same as JSON
//   node scripts/layers/graph.mjs --cruise FILE     figures of a saved `depcruise --output-type json` run
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LAYERS, layerOf } from './layers.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CRUISED = ['lib', 'app', 'components', 'bin', 'scripts', 'proxy.ts'];
export const NOT_CRUISED = '(^|/)node_modules/|\\.test\\.tsx?$|^lib/db/generated/|/fixtures/';

export function cruise() {
  const bin = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
  const args = [...CRUISED, '--no-config', '--ts-config', 'tsconfig.json', '--ts-pre-compilation-deps', '--exclude', NOT_CRUISED, '--output-type', 'json'];
  return JSON.parse(execFileSync(bin, args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }));
}

const libFolder = (file) => /^lib\/([^/]+)\//.exec(file)?.[1];

/** Tarjan's strongly connected components of a graph given as Map<node, Set<node>>. */
export function components(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

export function figures(result) {
  const folders = new Map();
  const files = new Map();
  const upward = [];
  for (const m of result.modules) {
    if (m.coreModule || m.couldNotResolve || /node_modules/.test(m.source)) continue;
    files.set(m.source, files.get(m.source) ?? new Set());
    const from = libFolder(m.source);
    if (from) folders.set(from, folders.get(from) ?? new Set());
    for (const d of m.dependencies) {
      if (d.coreModule || d.couldNotResolve || /node_modules/.test(d.resolved)) continue;
      files.get(m.source).add(d.resolved);
      if (!from) continue;
      const to = libFolder(d.resolved);
      if (to && to !== from) folders.get(from).add(to);
      // Climbing: into a higher layer of lib/, or out of lib/ into the app, components, bin or scripts.
      const climbs = to ? layerOf(to) > layerOf(from) : /^(app|components|bin|scripts)\//.test(d.resolved);
      if (climbs) upward.push(`${m.source} -> ${d.resolved}`);
    }
  }
  const knots = components(folders).filter((c) => c.length > 1);
  const knotEdges = [];
  for (const k of knots) for (const a of k) for (const b of folders.get(a)) if (k.includes(b)) knotEdges.push(`${a} -> ${b}`);
  const mutual = [];
  for (const [a, tos] of folders) for (const b of tos) if (a < b && folders.get(b)?.has(a)) mutual.push(`${a} <-> ${b}`);
  const fileCycles = components(files).filter((c) => c.length > 1);
  return {
    libFolders: folders.size,
    folderEdges: [...folders.values()].reduce((n, s) => n + s.size, 0),
    knots,
    largestKnot: Math.max(0, ...knots.map((k) => k.length)),
    knotEdges: knotEdges.sort(),
    mutualPairs: mutual.sort(),
    upwardImports: upward.sort(),
    fileCycles,
    unplaced: [...folders.keys()].filter((f) => layerOf(f) < 0).sort(),
  };
}

function main() {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, cruise: { type: 'string' } } });
  const result = values.cruise ? JSON.parse(readFileSync(values.cruise, 'utf8')) : cruise();
  const f = figures(result);
  if (values.json) return console.log(JSON.stringify(f, null, 2));
  console.log(`lib/ folders: ${f.libFolders}, folder edges: ${f.folderEdges}`);
  console.log(`folder knots (strongly connected components of 2+ folders): ${f.knots.length}; largest: ${f.largestKnot} folders`);
  for (const k of f.knots) console.log(`  knot of ${k.length}: ${k.join(' ')}`);
  console.log(`folder edges inside a knot: ${f.knotEdges.length}`);
  console.log(`mutual folder pairs (a imports b and b imports a): ${f.mutualPairs.length}`);
  for (const p of f.mutualPairs) console.log(`  ${p}`);
  console.log(`imports that climb a layer (${LAYERS.map((l) => l.name).join(' < ')}): ${f.upwardImports.length}`);
  for (const u of f.upwardImports) console.log(`  ${u}`);
  console.log(`file cycles: ${f.fileCycles.length}`);
  for (const c of f.fileCycles) console.log(`  ${c.join(' ')}`);
  if (f.unplaced.length) console.log(`folders in no layer: ${f.unplaced.join(' ')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
