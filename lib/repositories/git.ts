// Running git: always spawn('git', argv) without a shell, so no argument is ever interpreted; prompts
// off, system config ignored, and the transports limited to what the caller allows.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface GitOptions {
  cwd?: string;
  /** Colon-separated GIT_ALLOW_PROTOCOL list (e.g. "https:http:git:ssh" or "file"). */
  allowProtocols?: string;
  timeoutMs?: number;
  /** `key=value` settings for this run (`git -c`), placed before the command. */
  config?: string[];
  /** Options added to the ssh command git runs. */
  sshOptions?: string[];
}

/** Removes credentials from URLs in git's messages before they are stored or shown. */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1');
}

/**
 * What git may see of Runway's environment: where programs and home are, locale-free, and the operator's
 * proxy and CA settings. Never the rest: it holds DATABASE_URL and the session secret, and git runs hooks,
 * credential helpers and ssh that could read or leak them.
 */
const PASSED_TO_GIT =
  /^(PATH|HOME|TMPDIR|TMP|TEMP|SYSTEMROOT|USERPROFILE|(HTTPS?|ALL|NO)_PROXY|SSL_CERT_(FILE|DIR)|GIT_SSL_CAINFO|GIT_SSL_CAPATH|GIT_EXEC_PATH)$/i;

export function inheritedGitEnv(source: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(source).filter(([name]) => PASSED_TO_GIT.test(name)));
}

function gitEnv(opts: GitOptions): Record<string, string | undefined> {
  return {
    ...inheritedGitEnv(),
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_SSH_COMMAND: ['ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new', ...(opts.sshOptions ?? [])].join(' '),
    LC_ALL: 'C',
    ...(opts.allowProtocols ? { GIT_ALLOW_PROTOCOL: opts.allowProtocols } : {}),
  };
}

export function spawnGit(args: string[], opts: GitOptions = {}): ChildProcessWithoutNullStreams {
  const config = (opts.config ?? []).flatMap((c) => ['-c', c]);
  const child = spawn('git', [...config, ...args], { cwd: opts.cwd, env: gitEnv(opts) as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined); // git may exit before reading stdin (EPIPE)
  return child;
}

export class GitError extends Error {}

/** Runs git to completion; resolves with stdout, rejects with git's last stderr lines (credentials removed). */
export function runGit(args: string[], opts: GitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, opts);
    child.stdin.end();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(new GitError(`git could not be started: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const msg = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join('\n');
      reject(new GitError(redactCredentials(msg || (signal ? `git ${args[0]} was stopped (${signal})` : `git ${args[0]} exited with ${code}`))));
    });
  });
}
