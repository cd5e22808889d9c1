import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildOutputLine, isBuildInput, sourceFiles, sourceFingerprint, staleReason, writeStamp } from './build.mjs';

let root: string;
let dist: string;

function write(rel: string, text: string) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

/** A checkout with sources, a generated client and a finished build stamped for the current sources. */
function builtCheckout(git: boolean) {
  if (git) expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
  write('.gitignore', '.next/\n.data/\nlib/db/generated/\n');
  write('package.json', '{"name":"x"}');
  write('package-lock.json', '{}');
  write('app/page.tsx', 'export default function Page() { return null; }');
  write('prisma/schema.prisma', 'model A { id Int @id }');
  write('lib/db/generated/client.ts', 'export {};');
  write('.next/BUILD_ID', 'build-1');
  writeStamp(dist, sourceFingerprint(root));
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'runway-build-'));
  dist = path.join(root, '.next');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.each([
  ['in a git checkout', true],
  ['without git', false],
])('build staleness %s', (_label, git) => {
  beforeEach(() => builtCheckout(git));

  it('is up to date right after the build', () => {
    expect(staleReason(root, dist)).toBeNull();
  });

  it('is stale when a source, the schema or the lock file changes, and fresh again when reverted', () => {
    write('app/page.tsx', 'export default function Page() { return 1; }');
    expect(staleReason(root, dist)).toBe('sources changed');
    write('app/page.tsx', 'export default function Page() { return null; }');
    expect(staleReason(root, dist)).toBeNull();
    write('prisma/schema.prisma', 'model A { id Int @id\n name String }');
    expect(staleReason(root, dist)).toBe('sources changed');
    write('prisma/schema.prisma', 'model A { id Int @id }');
    write('package-lock.json', '{"lockfileVersion":3}');
    expect(staleReason(root, dist)).toBe('sources changed');
  });

  it('is stale when a new source file appears or one is deleted', () => {
    write('components/new.tsx', 'export const x = 1;');
    expect(staleReason(root, dist)).toBe('sources changed');
    rmSync(path.join(root, 'components/new.tsx'));
    expect(staleReason(root, dist)).toBeNull();
    rmSync(path.join(root, 'app/page.tsx'));
    expect(staleReason(root, dist)).toBe('sources changed');
  });

  it('ignores tests, docs, data and the build output', () => {
    write('tests/api/x.test.ts', 'test');
    write('app/x.test.ts', 'test');
    write('e2e/x.spec.ts', 'test');
    write('README.md', '# changed');
    write('.data/pgdata/file', 'data');
    write('.next/server/chunk.js', 'output');
    write('lib/db/generated/client.ts', 'export const regenerated = 1;');
    expect(staleReason(root, dist)).toBeNull();
  });

  it('rebuilds when the build or the Prisma client is missing, or the build was replaced', () => {
    writeFileSync(path.join(dist, 'BUILD_ID'), 'build-2'); // e.g. `npx next build` of other sources
    expect(staleReason(root, dist)).toBe('the build was replaced');
    writeStamp(dist, sourceFingerprint(root));
    expect(staleReason(root, dist)).toBeNull();
    rmSync(path.join(dist, 'runway-build.json'));
    expect(staleReason(root, dist)).toBe('no build stamp');
    rmSync(dist, { recursive: true });
    expect(staleReason(root, dist)).toBe('no build');
    rmSync(path.join(root, 'lib/db/generated'), { recursive: true });
    expect(staleReason(root, dist)).toBe('no Prisma client');
  });
});

describe('build inputs', () => {
  it('are the sources and configuration, not tests, docs or output', () => {
    const inputs = [
      'app/page.tsx',
      'lib/db/client.ts',
      'components/x.tsx',
      'prisma/schema.prisma',
      'package-lock.json',
      'package.json',
      'next.config.mjs',
      'postcss.config.mjs',
      'tsconfig.json',
      'scripts/prisma-generate.mjs',
    ];
    for (const f of inputs) expect(isBuildInput(f), f).toBe(true);
    for (const f of [
      'tests/api/cli.test.ts',
      'lib/db/client.test.ts',
      'e2e/a.spec.ts',
      'docs/x.md',
      'README.md',
      'bench/runners.ts',
      'bin/cli.ts',
      'dist/.next/BUILD_ID',
      'dist/bin/runway.mjs',
      'deploy/kubernetes/base/deployment.yaml',
      'Dockerfile',
      'compose.yaml',
      '.dockerignore',
      'scripts/test.mjs',
      'vitest.config.ts',
      '.next/BUILD_ID',
      '.data/x',
      'lib/db/generated/client.ts',
      '.env.local',
      'node_modules/next/package.json',
    ]) {
      expect(isBuildInput(f), f).toBe(false);
    }
  });

  it('of this checkout include the app, the schema and the lock file', () => {
    const files = sourceFiles(path.resolve(import.meta.dirname, '..'));
    expect(files).toEqual(expect.arrayContaining(['app/layout.tsx', 'prisma/schema.prisma', 'package-lock.json', 'next.config.mjs']));
    expect(files.some((f: string) => f.startsWith('tests/') || f.startsWith('.next/') || f.startsWith('node_modules/'))).toBe(false);
  });
});

describe("next build's output", () => {
  const filter = (lines: string[]) => {
    const state = { experiments: false };
    return lines.map((l) => buildOutputLine(l, state)).filter((l) => l !== null);
  };

  it('says isrFlushToDisk is off on purpose instead of the cross Next.js prints before it', () => {
    expect(
      filter([
        '✓ Running next.config.mjs took 17ms',
        '- Experiments (use with caution):',
        '  \u001b[31m⨯\u001b[39m isrFlushToDisk',
        '',
        'Creating an optimized production build ...',
      ]),
    ).toEqual([
      '✓ Running next.config.mjs took 17ms',
      '- isrFlushToDisk is off: rendered pages stay in memory, never written into the build folder',
      '',
      'Creating an optimized production build ...',
    ]);
  });

  it('passes any other experiment through as printed', () => {
    expect(filter(['- Experiments (use with caution):', '  ✓ somethingNew', 'next'])).toEqual(['- Experiments (use with caution):\n  ✓ somethingNew', 'next']);
  });
});
