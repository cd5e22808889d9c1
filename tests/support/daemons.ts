// Real nginx, HAProxy and PgBouncer for the operator's guide's tests: each runs the repository's own file
// from deploy/, with only its addresses, ports and paths replaced, from a temporary folder, on loopback.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './server';

/** A daemon's binary (Debian installs them in /usr/sbin, often not on a user's PATH), or undefined. */
export function findTool(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin']) {
    const file = path.join(dir, name);
    if (!dir) continue;
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * Options for a describe() needing these daemons: CI installs them (.ci/run), so there a missing one fails
 * the run; elsewhere the file is skipped with the reason.
 */
export function needsTools(names: string[]): { skip: boolean; meta: { skipReason?: string } } {
  const missing = names.filter((n) => !findTool(n));
  if (!missing.length || process.env.CI) return { skip: false, meta: {} };
  return { skip: true, meta: { skipReason: `needs ${missing.join(', ')} (Debian: apt-get install ${missing.join(' ')}; CI installs them)` } };
}

export const tool = (name: string): string => {
  const file = findTool(name);
  if (!file) throw new Error(`${name} is not installed (Debian: apt-get install ${name})`);
  return file;
};

/** A repository file with each `[from, to]` replaced; a `from` that is not there fails the test. */
export function substituted(file: string, pairs: Array<[string, string]>): string {
  let text = readFileSync(path.join(ROOT, file), 'utf8');
  for (const [from, to] of pairs) {
    if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}`);
    text = text.split(from).join(to);
  }
  return text;
}

/** A temporary folder the daemons' unprivileged workers (nginx's `nobody` under root) may use. */
export function workDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `runway-${name}-`));
  chmodSync(dir, 0o777);
  return dir;
}

/** A self-signed certificate for 127.0.0.1 (openssl), as separate files and as HAProxy's one PEM. */
export function selfSignedCertificate(dir: string): { cert: string; key: string; pem: string; ca: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const run = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
  const pem = path.join(dir, 'runway.pem');
  writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
  return { cert, key, pem, ca: readFileSync(cert, 'utf8') };
}

export interface Daemon {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Starts a daemon in the foreground and waits until it accepts connections on `port`. */
export async function startDaemon(command: string, args: string[], port: number): Promise<Daemon> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const daemon: Daemon = {
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${path.basename(command)} exited (${child.exitCode}):\n${out}`);
    if (await listening(port)) return daemon;
    await new Promise((r) => setTimeout(r, 100));
  }
  await daemon.stop();
  throw new Error(`${path.basename(command)} did not listen on ${port}:\n${out}`);
}

export interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  elapsedMs: number;
}

/** One HTTPS request to 127.0.0.1:`port`, trusting `ca`, sent from the loopback address `from`. */
export function httpsRequest(
  port: number,
  ca: string,
  requestPath: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; from?: string; timeoutMs?: number } = {},
): Promise<TlsAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: requestPath,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        ca,
        localAddress: opts.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, elapsedMs: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error('no answer in time')));
    req.end(opts.body);
  });
}

/** An open HTTPS response read as it arrives: the text so far, and a wait for a text to show up. */
export function httpsStream(port: number, ca: string, requestPath: string, headers: Record<string, string>) {
  let text = '';
  let status = 0;
  const req = https.request({ host: '127.0.0.1', port, path: requestPath, headers, ca, agent: false });
  const opened = new Promise<void>((resolve, reject) => {
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      resolve();
    });
    req.on('error', reject);
  });
  req.end();
  return {
    opened,
    status: () => status,
    text: () => text,
    /** Milliseconds until `needle` arrived, or null when it did not within `timeoutMs`. */
    async waitFor(needle: string, timeoutMs: number): Promise<number | null> {
      const started = performance.now();
      while (performance.now() - started < timeoutMs) {
        if (text.includes(needle)) return performance.now() - started;
        await new Promise((r) => setTimeout(r, 20));
      }
      return null;
    },
    close: () => req.destroy(),
  };
}
