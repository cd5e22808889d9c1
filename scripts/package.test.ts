import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json';
import { artifactManifest, BUILD_ONLY, packageName, prunable } from './package.mjs';

describe('the artifact package.json', () => {
  const manifest = artifactManifest(pkg);

  it("holds the root's production dependencies at the same versions, without the build-only ones", () => {
    for (const [name, version] of Object.entries(pkg.dependencies)) {
      if (BUILD_ONLY.has(name)) expect(manifest.dependencies, name).not.toHaveProperty(name);
      else expect(manifest.dependencies[name], name).toBe(version);
    }
    expect(Object.keys(manifest.dependencies)).toEqual(
      expect.arrayContaining(['next', 'pg', '@prisma/client', '@prisma/schema-engine-wasm', '@electric-sql/pglite']),
    );
    for (const name of ['prisma', 'tailwindcss']) expect(manifest.dependencies).not.toHaveProperty(name);
  });

  it('has no development dependencies or scripts, and runs bin/runway', () => {
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(manifest).not.toHaveProperty('scripts');
    expect(manifest).toMatchObject({
      name: 'runway',
      version: pkg.version,
      type: 'module',
      bin: { runway: 'bin/runway' },
      engines: pkg.engines,
      overrides: pkg.overrides,
    });
  });
});

describe('dependency install scripts', () => {
  it('are each decided in allowScripts: every locked package with one is listed (the README counts them)', async () => {
    const lock = (await import('../package-lock.json')).default as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([key, p]) => key !== '' && p.hasInstallScript) // '' is Runway itself (its postinstall)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const allow = (pkg as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    expect(withScripts.filter((name) => !(name in allow))).toEqual([]);
    const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six'];
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain(`denies the ${words[new Set(withScripts).size]} that exist`);
  });
});

describe('package names', () => {
  it('of bare specifiers, scoped or not, with or without a subpath', () => {
    expect(packageName('pg')).toBe('pg');
    expect(packageName('pg/lib/index.js')).toBe('pg');
    expect(packageName('@prisma/client/runtime/client')).toBe('@prisma/client');
    expect(packageName('@prisma/client-2c3a283f134fdcb6/runtime/client')).toBe('@prisma/client-2c3a283f134fdcb6');
  });
});

describe('pruning', () => {
  it("removes SWC and other databases' query compilers, nothing PostgreSQL or Next.js's server loads", () => {
    const modules = mkdtempSync(path.join(os.tmpdir(), 'runway-prune-'));
    try {
      const files = [
        '@next/swc-linux-x64-gnu/package.json',
        '@next/swc-linux-x64-musl/package.json',
        '@next/env/package.json',
        '@prisma/client/runtime/client.js',
        '@prisma/client/runtime/query_compiler_fast_bg.postgresql.mjs',
        '@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs',
        '@prisma/client/runtime/query_compiler_fast_bg.mysql.mjs',
        '@prisma/client/runtime/query_compiler_small_bg.sqlite.wasm-base64.js',
        '@prisma/client/runtime/query_compiler_fast_bg.sqlserver.js',
        '@prisma/client/runtime/query_compiler_fast_bg.cockroachdb.mjs',
      ];
      for (const f of files) {
        mkdirSync(path.dirname(path.join(modules, f)), { recursive: true });
        writeFileSync(path.join(modules, f), '');
      }
      expect(
        prunable(modules)
          .map((p: string) => path.relative(modules, p))
          .sort(),
      ).toEqual([
        '@next/swc-linux-x64-gnu',
        '@next/swc-linux-x64-musl',
        '@prisma/client/runtime/query_compiler_fast_bg.cockroachdb.mjs',
        '@prisma/client/runtime/query_compiler_fast_bg.mysql.mjs',
        '@prisma/client/runtime/query_compiler_fast_bg.sqlserver.js',
        '@prisma/client/runtime/query_compiler_small_bg.sqlite.wasm-base64.js',
      ]);
    } finally {
      rmSync(modules, { recursive: true, force: true });
    }
  });
});
