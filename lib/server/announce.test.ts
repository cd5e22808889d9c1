import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceStart } from './announce';
import { removeExpiredRootPassword, rootPasswordFile } from './root-password';

let dir: string;
let stdout: string;
let stderr: string;
const facts = { url: 'http://runway.example.com', embedded: false, demo: false };
const PASSWORD = 'generated-Pa55word-xyz';

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'runway-announce-'));
  vi.stubEnv('RUNWAY_DATA_DIR', path.join(dir, 'data'));
  vi.stubEnv('RUNWAY_LOG_LEVEL', 'info');
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  vi.spyOn(console, 'log').mockImplementation((...args) => void (stdout += `${args.join(' ')}\n`));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const entries = () =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('announcing a production start', () => {
  it('logs JSON lines only, writes a generated root password to its 0600 file and logs only the path', async () => {
    await announceStart({ ...facts, generatedRootPassword: PASSWORD }, { banner: false });
    const file = rootPasswordFile();
    expect(file).toBe(path.join(dir, 'data', 'initial_root_password'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(new RegExp(`^Password: ${PASSWORD}$`, 'm'));
    expect(stdout + stderr).not.toContain(PASSWORD);
    expect(entries()).toEqual([
      expect.objectContaining({ level: 'info', msg: 'created root with a generated password', password_file: file }),
      expect.objectContaining({
        level: 'info',
        msg: 'Runway is ready',
        url: facts.url,
        database: 'postgresql',
        version: expect.any(String),
        revision: expect.any(String),
      }),
    ]);
  });

  it('replaces a leftover file, whatever its mode, with a fresh 0600 one', async () => {
    const file = rootPasswordFile();
    await announceStart({ ...facts, generatedRootPassword: 'first-password-1' }, { banner: false });
    chmodSync(file, 0o644);
    await announceStart({ ...facts, generatedRootPassword: PASSWORD }, { banner: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('first-password-1');
  });

  it('without a generated password writes no file', async () => {
    await announceStart(facts, { banner: false });
    expect(existsSync(rootPasswordFile())).toBe(false);
    expect(entries().map((e) => e.msg)).toEqual(['Runway is ready']);
  });

  it('when the file cannot be written, logs how to set a password, never the password', async () => {
    writeFileSync(path.join(dir, 'data'), 'a file where the data folder should be');
    await announceStart({ ...facts, generatedRootPassword: PASSWORD }, { banner: false });
    expect(stdout + stderr).not.toContain(PASSWORD);
    expect(stderr).toContain('runway reset-password --username root');
    expect(entries().map((e) => e.msg)).toEqual(['Runway is ready']);
  });

  it('deletes the file at the first start a day after it was written', async () => {
    await announceStart({ ...facts, generatedRootPassword: PASSWORD }, { banner: false });
    const file = rootPasswordFile();
    expect(await removeExpiredRootPassword(Date.now() + 23 * 3600_000)).toBeUndefined();
    expect(existsSync(file)).toBe(true);
    const old = (Date.now() - 25 * 3600_000) / 1000;
    utimesSync(file, old, old);
    stdout = '';
    await announceStart(facts, { banner: false });
    expect(existsSync(file)).toBe(false);
    expect(entries()[0]).toMatchObject({ msg: 'deleted the initial root password file, a day after it was written', password_file: file });
  });
});

describe('announcing a demo or development start', () => {
  it('prints the plain start message, generated password included, and writes no file', async () => {
    await announceStart({ ...facts, generatedRootPassword: PASSWORD }, { banner: true });
    expect(stdout).toContain(`Sign in at ${facts.url}/sign-in as root with password: ${PASSWORD}`);
    expect(existsSync(rootPasswordFile())).toBe(false);
  });
});
