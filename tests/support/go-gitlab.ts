// Debian's go-gitlab for client tests (GOPATH mode, no network): where it is, why a test skips, and how a
// command of tests/clients/go is built and run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseUrl } from './api';

export const GOPATH = '/usr/share/gocode';
const hasGo = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
const hasLib = existsSync(path.join(GOPATH, 'src/github.com/xanzy/go-gitlab'));

/** Empty when go and the library are installed; otherwise what to install. */
export const goSkipReason = !hasGo
  ? 'go is not installed (apt-get install golang-go)'
  : !hasLib
    ? 'go-gitlab is not installed (apt-get install golang-github-xanzy-go-gitlab-dev)'
    : '';

/**
 * Builds tests/clients/go/<command> (in a scratch directory, cache included, so runs do not share state) and
 * runs it against this Runway with RUNWAY_URL and `env`; returns the one JSON object it prints. Throws with
 * the compiler's or the command's stderr when either fails.
 */
export function runGoCommand(command: string, env: Record<string, string>, timeoutMs = 120_000): any {
  const work = mkdtempSync(path.join(os.tmpdir(), 'runway-go-'));
  try {
    const goEnv = { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOCACHE: path.join(work, 'cache'), GOPROXY: 'off' };
    const bin = path.join(work, command);
    const build = spawnSync('go', ['build', '-o', bin, '.'], {
      cwd: path.join(__dirname, '..', 'clients', 'go', command),
      env: goEnv,
      encoding: 'utf8',
      timeout: 240_000,
    });
    if (build.status !== 0) throw new Error(`go build ${command}: ${build.stderr}`);
    const run = spawnSync(bin, [], { env: { ...goEnv, RUNWAY_URL: baseUrl(), ...env }, encoding: 'utf8', timeout: timeoutMs });
    if (run.status !== 0) throw new Error(`${command} exited ${run.status}: ${run.stderr}`);
    return JSON.parse(run.stdout.trim());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
