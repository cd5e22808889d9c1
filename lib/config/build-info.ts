// Runway's own version and the git revision it was built from. A packaged Runway (scripts/package.mjs)
// carries them in build-info.json beside its package.json; a checkout asks git.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pkg from '../../package.json';
import { projectRoot } from './paths';

export const BUILD_INFO_FILE = 'build-info.json';

export interface BuildInfo {
  version: string;
  /** The commit's short hash (`-dirty` when the tree had uncommitted changes), or `unknown`. */
  revision: string;
  /** When the artifact was packaged (ISO 8601); absent in a checkout. */
  built?: string;
}

let cached: BuildInfo | undefined;

/** This process's build, read once. */
export function buildInfo(): BuildInfo {
  return (cached ??= readBuildInfo(projectRoot()));
}

/** The build in `root`: its build-info.json when packaged, else package.json's version and git's revision. */
export function readBuildInfo(root: string): BuildInfo {
  return baked(root) ?? { version: pkg.version, revision: gitRevision(root) };
}

function baked(root: string): BuildInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path.join(root, BUILD_INFO_FILE), 'utf8')) as BuildInfo;
    return typeof info.version === 'string' && typeof info.revision === 'string' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** The checkout's revision; `unknown` without git or outside a repository. */
export function gitRevision(dir: string): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const head = git('rev-parse', '--short=12', 'HEAD');
  if (head.status !== 0) return 'unknown';
  const dirty = git('diff', '--quiet', 'HEAD', '--').status === 1;
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

/** `runway --version`: gitlab-runner's layout (one `Name: value` a line). */
export function versionText(info = buildInfo()): string {
  return [
    `Version:      ${info.version}`,
    `Git revision: ${info.revision}`,
    ...(info.built ? [`Built:        ${info.built}`] : []),
    `Node.js:      ${process.version}`,
  ].join('\n');
}
