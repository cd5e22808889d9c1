// Debian's go-gitlab for client tests (GOPATH mode, no network): where it is, and why a test skips.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const GOPATH = '/usr/share/gocode';
const hasGo = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
const hasLib = existsSync(path.join(GOPATH, 'src/github.com/xanzy/go-gitlab'));

/** Empty when go and the library are installed; otherwise what to install. */
export const goSkipReason = !hasGo
  ? 'go is not installed (apt-get install golang-go)'
  : !hasLib
    ? 'go-gitlab is not installed (apt-get install golang-github-xanzy-go-gitlab-dev)'
    : '';
