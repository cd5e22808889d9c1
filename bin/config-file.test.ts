// The settings file every `runway` command reads (`--config <file>`, else /etc/runway/runway.env), and a
// production start's configuration errors as JSON: run through bin/runway.mjs as an operator runs it.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './args';
import { loadConfigFile, takeConfigFlag } from './config-file';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runway(args: string[], env: Record<string, string> = {}) {
  // Only what Node needs from the environment: the command must find its settings in the file.
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), ...args], {
    env: { ...base, ...env } as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 170_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Each run transpiles the CLI's sources: seconds on a quiet machine, a minute on a loaded one.
describe('the settings file', { timeout: 180_000 }, () => {
  it('takes --config <file> and --config=<file> anywhere in the arguments', () => {
    expect(takeConfigFlag(['--config', '/x.env', 'doctor'])).toEqual({ argv: ['doctor'], file: '/x.env' });
    expect(takeConfigFlag(['doctor', '--config=/y.env', '--json'])).toEqual({ argv: ['doctor', '--json'], file: '/y.env' });
    expect(takeConfigFlag(['migrate'])).toEqual({ argv: ['migrate'], file: undefined });
    expect(() => takeConfigFlag(['--config'])).toThrow(UsageError);
    expect(() => takeConfigFlag(['--config', '--help'])).toThrow(UsageError);
  });

  it('fills the settings the environment lacks; the environment wins', () => {
    const file = path.join(dir, 'fill.env');
    writeFileSync(file, '# a comment\nDATABASE_URL=postgresql://runway:pw@db:5432/runway\nPORT=4000\nRUNWAY_LOG_LEVEL=warn\n');
    const env: Record<string, string | undefined> = { PORT: '5000' };
    expect(loadConfigFile(file, env)).toBe(file);
    expect(env).toEqual({ PORT: '5000', DATABASE_URL: 'postgresql://runway:pw@db:5432/runway', RUNWAY_LOG_LEVEL: 'warn' });
  });

  it('refuses a named file it cannot read, saying why', () => {
    expect(() => loadConfigFile(path.join(dir, 'missing.env'), {})).toThrow(/cannot read the settings file .*missing\.env: no such file/);
    if (process.getuid?.() !== 0) {
      const locked = path.join(dir, 'locked.env');
      writeFileSync(locked, 'PORT=1\n');
      chmodSync(locked, 0o000);
      expect(() => loadConfigFile(locked, {})).toThrow(/permission denied/);
    }
  });

  it('is read by a command run with --config, whose invalid setting it names', () => {
    const file = path.join(dir, 'bad.env');
    writeFileSync(file, 'PORT=not-a-port\n');
    const r = runway(['--config', file, 'migrate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('PORT');
    const missing = runway(['--config', path.join(dir, 'nope.env'), 'migrate']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.env: no such file');
  });

  it('reports a production start’s configuration errors as one JSON line, and a terminal’s as text', () => {
    const file = path.join(dir, 'start.env');
    writeFileSync(file, 'PORT=not-a-port\nRUNWAY_LOG_LEVEL=loud\n');
    const production = runway(['start', '--config', file]);
    expect(production.status).toBe(2);
    const lines = production.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: 'error', msg: 'invalid configuration' });
    expect(entry.problems.map((p: { setting: string }) => p.setting).sort()).toEqual(['PORT', 'RUNWAY_LOG_LEVEL']);
    const dev = runway(['start', '--dev', '--config', file]);
    expect(dev.status).toBe(2);
    expect(dev.stderr).toMatch(/^Invalid configuration:\n {2}PORT: /);
  });
});
