// The shell blocks of docs/operations.md that tests run as written: a `<!-- script: name -->` line, a blank
// line, then a fenced sh block. They run in bash with only the variables the test gives them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './server';

/** The shell of the block after `<!-- script: name -->` in docs/operations.md. */
export function docScript(name: string): string {
  const doc = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const m = new RegExp(`<!-- script: ${name} -->\\n\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n`).exec(doc);
  if (!m) throw new Error(`docs/operations.md has no script block ${name}`);
  return m[1];
}

/** Runs that block with `vars` in its environment; it must succeed. */
export function runDocScript(name: string, vars: Record<string, string>): void {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', docScript(name)], { env: { ...process.env, ...vars }, encoding: 'utf8' });
  expect(r.status, `${name}: ${r.stderr}`).toBe(0);
}
