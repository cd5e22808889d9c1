import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pkg from '../../package.json';
import { gitRevision, readBuildInfo, versionText } from './build-info';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'runway-build-info-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const git = (...args: string[]) => expect(spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir }).status).toBe(0);

describe('build info', () => {
  it('of a packaged Runway is what the package script baked in', () => {
    writeFileSync(path.join(dir, 'build-info.json'), JSON.stringify({ version: '9.8.7', revision: '0123456789ab', built: '2026-01-02T03:04:05.000Z' }));
    expect(readBuildInfo(dir)).toEqual({ version: '9.8.7', revision: '0123456789ab', built: '2026-01-02T03:04:05.000Z' });
  });

  it("of a checkout is package.json's version and git's short revision, -dirty with uncommitted changes", () => {
    git('init', '-q');
    writeFileSync(path.join(dir, 'a.txt'), 'one');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'one');
    const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
    expect(readBuildInfo(dir)).toEqual({ version: pkg.version, revision: head });
    writeFileSync(path.join(dir, 'a.txt'), 'two');
    expect(gitRevision(dir)).toBe(`${head}-dirty`);
  });

  it('outside a repository the revision is unknown', () => {
    expect(gitRevision(dir)).toBe('unknown');
  });

  it("prints in gitlab-runner's layout", () => {
    expect(versionText({ version: '1.2.3', revision: 'abc', built: '2026-01-02T03:04:05.000Z' }).split('\n')).toEqual([
      'Version:      1.2.3',
      'Git revision: abc',
      'Built:        2026-01-02T03:04:05.000Z',
      `Node.js:      ${process.version}`,
    ]);
  });
});
