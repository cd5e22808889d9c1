// The running build, for runway_build_info: Runway's package version and the source revision. As GitLab
// reads its install's REVISION file (falling back to git), a packaged Runway may carry a REVISION file at
// its root; a checkout asks git; otherwise the revision is `unknown`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pkg from '../../package.json';
import { projectRoot } from '../config/paths';

export interface BuildInfo {
  version: string;
  revision: string;
}

const REVISION_RE = /^[0-9a-f]{7,40}$/;

function revision(root: string): string {
  try {
    const stamped = readFileSync(path.join(root, 'REVISION'), 'utf8').trim();
    if (REVISION_RE.test(stamped)) return stamped;
  } catch {
    // no REVISION file: a checkout
  }
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim();
    if (REVISION_RE.test(head)) return head;
  } catch {
    // no git, or not a repository
  }
  return 'unknown';
}

let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  return (cached ??= { version: pkg.version, revision: revision(projectRoot()) });
}
