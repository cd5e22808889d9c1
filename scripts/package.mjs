#!/usr/bin/env node
// `npm run package`: the production artifact, in dist/ (or --out DIR). It holds the Next.js build (without
// its cache), the CLI and custom server compiled to one JavaScript module (bin/runway.mjs, started by
// bin/runway), next.config.mjs, the Prisma schema and migrations (applied by the WebAssembly schema
// engine), build-info.json (version and git revision), and its production dependencies, installed from a
// lock file pruned to them: no tsx, no TypeScript, no build tools. The Dockerfile copies exactly this.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Needed to build, never to run: the Prisma CLI generates the client; Tailwind and PostCSS make the CSS. */
export const BUILD_ONLY = new Set(['prisma', 'tailwindcss', '@tailwindcss/postcss', 'postcss']);
/** Parts of the Next.js build folder a server never reads. */
const BUILD_LEFTOVERS = new Set(['cache', 'trace', 'trace-build', 'types', 'dev', 'diagnostics', 'runway-build.json']);
/**
 * Installed with the runtime's packages but never loaded by a server (scripts/smoke-artifact.mjs runs the
 * pruned artifact): Next.js's compiler, SWC (about 100 MiB; a server never compiles), and Prisma's query
 * compilers for databases other than PostgreSQL (about 50 MiB).
 */
export function prunable(modules) {
  const list = (dir, keep) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter(keep)
          .map((n) => path.join(dir, n))
      : [];
  return [
    ...list(path.join(modules, '@next'), (n) => n.startsWith('swc-')),
    ...list(path.join(modules, '@prisma', 'client', 'runtime'), (n) => /\.(cockroachdb|mysql|sqlite|sqlserver)\./.test(n)),
  ];
}

/** Present in no production artifact, whatever depends on what. */
const FORBIDDEN = ['tsx', 'typescript', 'esbuild', 'vitest', 'eslint', 'prettier', '@playwright/test'];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/** What an operator reads on the installed machine (the unit's Documentation= names these): copied as they are. */
export const DOCUMENTS = ['README.md', 'CHANGELOG.md', 'docs', 'deploy', '.env.example', 'postgres.env.example'];

/** The package.json of the artifact: the root's production dependencies without the build-only ones. */
export function artifactManifest(pkg) {
  const dependencies = Object.fromEntries(Object.entries(pkg.dependencies).filter(([name]) => !BUILD_ONLY.has(name)));
  return {
    name: pkg.name,
    version: pkg.version,
    private: true,
    description: pkg.description,
    type: 'module',
    bin: { runway: 'bin/runway' },
    engines: pkg.engines,
    dependencies,
    ...(pkg.overrides ? { overrides: pkg.overrides } : {}),
  };
}

function revision() {
  if (process.env.RUNWAY_REVISION) return process.env.RUNWAY_REVISION; // e.g. a Docker build without .git
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['diff', '--quiet', 'HEAD', '--'], { cwd: root }).status === 1;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

export async function compileCli(out) {
  const esbuild = await import('esbuild'); // a dependency of tsx: present wherever the dev dependencies are
  const entry = `
    import path from 'node:path';
    import { fileURLToPath } from 'node:url';
    // The artifact's root is this file's parent folder, wherever it was copied to.
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    process.chdir(root);
    process.env.RUNWAY_ROOT ??= root;
    const { main } = await import('./bin/cli.ts');
    process.exitCode = await main(process.argv.slice(2));
  `;
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'runway-entry.ts', loader: 'ts' },
    outfile: path.join(out, 'bin', 'runway.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'), // its paths resolve `@/…`
    // node_modules stay outside the bundle (installed in the artifact); sources, the `@/` alias and the
    // generated Prisma client are compiled in.
    plugins: [
      {
        name: 'dependencies-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
    jsx: 'automatic',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    banner: { js: '// Runway CLI and server, compiled by scripts/package.mjs from bin/ and lib/. Do not edit.' },
  });
  const externals = new Set();
  for (const input of Object.values(result.metafile.outputs)) for (const imp of input.imports) if (imp.external) externals.add(imp.path);
  writeFileSync(
    path.join(out, 'bin', 'runway'),
    [
      '#!/usr/bin/env node',
      '// `runway` of a packaged Runway: the compiled CLI (runway.mjs). Stack traces point into bin/ and lib/.',
      'process.setSourceMapsEnabled(true);',
      "import('./runway.mjs');",
      '',
    ].join('\n'),
  );
  chmodSync(path.join(out, 'bin', 'runway'), 0o755);
  return externals;
}

/** A bare specifier's package name: `@scope/name/x` -> `@scope/name`, `pg/lib` -> `pg`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every entry under `dir` that is not a folder (files and symbolic links, which are not followed). */
export function* entriesUnder(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* entriesUnder(full);
    else yield { full, entry: e };
  }
}

/** The packages the Next.js server build loads from node_modules (its externals). */
function nextServerExternals(nextDir) {
  const found = new Set();
  for (const { full } of entriesUnder(path.join(nextDir, 'server'))) {
    if (!full.endsWith('.js')) continue;
    // Turbopack's and webpack's externals: require("pg"), e.x("pg", ...), e.y("pg"), import("pg"); not in
    // comments (the Turbopack runtime explains itself with an example).
    const code = readFileSync(full, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*)/.test(line))
      .join('\n');
    // `.x(` and `.y(` only on an identifier (`e.x("pg")`), not a spread of a minified helper (`...x("username")`).
    for (const m of code.matchAll(/(?:\brequire|[\w$]\.x|[\w$]\.y|\bimport)\(\s*"((?:@[a-z0-9_-][a-z0-9._-]*\/)?[a-z0-9_-][a-z0-9._-]*)(?:\/[^"]*)?"/g))
      found.add(m[1]);
  }
  return found;
}

/** Symbolic links under `dir` whose target is outside it. */
function linksOutside(dir) {
  const found = [];
  for (const { full, entry } of entriesUnder(dir)) {
    if (!entry.isSymbolicLink()) continue;
    const target = path.resolve(path.dirname(full), readlinkSync(full));
    if (path.relative(dir, target).startsWith('..')) found.push(`${path.relative(dir, full)} -> ${target}`);
  }
  return found;
}

function duSize(dir) {
  const r = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.split('\t')[0]) * 1024 : NaN;
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = path.resolve(root, values.out || 'dist');
  const up = path.relative(out, root);
  // It is deleted first: never the checkout or a folder holding it.
  if (!up.startsWith('..') && !path.isAbsolute(up)) throw new Error(`--out must not be the checkout or hold it: ${out}`);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

  console.log('package: building (Prisma client and Next.js; skipped while the sources are unchanged)');
  run(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale']);

  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'bin'), { recursive: true });

  const nextDir = path.resolve(root, process.env.RUNWAY_DIST_DIR || '.next');
  cpSync(nextDir, path.join(out, '.next'), {
    recursive: true,
    // Turbopack links its externals (.next/node_modules/pg-<hash> -> ../../node_modules/pg): kept relative,
    // they point into the artifact's node_modules, never back into the checkout.
    verbatimSymlinks: true,
    filter: (src) => path.dirname(src) !== nextDir || !BUILD_LEFTOVERS.has(path.basename(src)),
  });
  cpSync(path.join(root, 'next.config.mjs'), path.join(out, 'next.config.mjs'));
  if (existsSync(path.join(root, 'public'))) cpSync(path.join(root, 'public'), path.join(out, 'public'), { recursive: true });
  mkdirSync(path.join(out, 'prisma'));
  cpSync(path.join(root, 'prisma', 'schema.prisma'), path.join(out, 'prisma', 'schema.prisma'));
  cpSync(path.join(root, 'prisma', 'migrations'), path.join(out, 'prisma', 'migrations'), { recursive: true });

  for (const doc of DOCUMENTS) cpSync(path.join(root, doc), path.join(out, doc), { recursive: true });

  console.log('package: compiling the CLI and the custom server');
  const cliExternals = await compileCli(out);

  const info = { version: pkg.version, revision: revision(), built: new Date().toISOString() };
  writeFileSync(path.join(out, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);

  // The root lock file, pruned to the artifact's dependencies (same versions), then installed from.
  console.log('package: installing the production dependencies');
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(artifactManifest(pkg), null, 2)}\n`);
  cpSync(path.join(root, 'package-lock.json'), path.join(out, 'package-lock.json'));
  const npm = { cwd: out, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } };
  run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--omit=dev'], npm);
  run('npm', ['ci', '--omit=dev', '--ignore-scripts'], npm);
  for (const file of prunable(path.join(out, 'node_modules'))) rmSync(file, { recursive: true, force: true });

  // Every package the compiled code loads is installed, and nothing of the development tool chain is.
  const needed = new Set([...cliExternals].filter((s) => !s.startsWith('node:')).map(packageName));
  for (const name of nextServerExternals(path.join(out, '.next'))) needed.add(name);
  const builtin = new Set((await import('node:module')).builtinModules);
  // A Turbopack external is found through its link in .next/node_modules, which must stay inside the artifact.
  const installed = (n) =>
    [path.join(out, 'node_modules', n), path.join(out, '.next', 'node_modules', n)].some((dir) => existsSync(path.join(dir, 'package.json')));
  const missing = [...needed].filter((n) => !builtin.has(n) && !builtin.has(n.replace(/^node:/, '')) && !installed(n));
  if (missing.length) throw new Error(`the artifact loads packages it does not install: ${missing.join(', ')}`);
  const outside = linksOutside(out);
  if (outside.length) throw new Error(`links out of the artifact: ${outside.join(', ')}`);
  const present = FORBIDDEN.filter((n) => existsSync(path.join(out, 'node_modules', n)));
  if (present.length) throw new Error(`development packages in the artifact: ${present.join(', ')}`);

  const total = duSize(out);
  const modules = duSize(path.join(out, 'node_modules'));
  console.log(`package: ${path.relative(process.cwd(), out) || out} is ready (Runway ${info.version}, revision ${info.revision})`);
  console.log(`package: ${mib(total)} in all, ${mib(total - modules)} without node_modules; run it with ${path.join(out, 'bin', 'runway')} start`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`package: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
