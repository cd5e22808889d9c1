// The layer rules fail where they should: dependency-cruiser, run with the project's rules on a fixture
// tree that breaks each rule once, reports each break; and this checkout keeps them all.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'node_modules', '.bin', 'depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function violations(cwd: string, config: string, targets: string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(bin, [...targets, '--config', config, '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    // depcruise exits non-zero when it finds errors; its report is still on stdout.
    out = (err as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('layer rules', () => {
  const fixture = path.join(import.meta.dirname, 'fixtures', 'tree');
  const found = violations(fixture, path.join(import.meta.dirname, 'fixtures', 'dependency-cruiser.fixture.mjs'), ['lib', 'app']);
  const named = (rule: string) => found.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);

  it('reports an import that climbs a layer', () => {
    expect(named('layer-foundation')).toEqual(['lib/db/client.ts -> lib/server/start.ts']);
  });

  it('reports lib/ importing the app', () => {
    expect(named('lib-below-the-app')).toEqual(['lib/api/handler.ts -> app/page.ts']);
  });

  it('reports a file cycle', () => {
    // Reported once, at the cycle's first module.
    expect(named('no-file-cycles')).toEqual(['lib/users/a.ts -> lib/users/b.ts']);
  });

  it('reports a folder cycle that no file cycle shows, on a folder outside and inside the phase-2 list', () => {
    expect(named('no-folder-cycles').sort()).toEqual(['lib/audit -> lib/tokens', 'lib/tokens -> lib/audit']);
  });

  it('reports a lib/ folder that has no layer', () => {
    expect(named('lib-folder-in-a-layer')).toEqual(['lib/unlisted/thing.ts -> lib/audit/y.ts']);
  });

  it('finds nothing else in the fixture', () => {
    expect(found).toHaveLength(6);
  });
});
