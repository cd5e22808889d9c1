// Starts a real Runway (`runway start`, production build) for a test run and stops it afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { overrideEnv } from './test-overrides.mjs';

// import.meta.url, not __dirname: Playwright loads this file as an ES module (package.json type: module).
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ROOT_PASSWORD = 'runway-root-password-for-tests';
export const AUTH_SECRET = 'runway-test-secret-0123456789abcdef0123456789';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * The environment of a test server: what the operator's guide requires (the root password, the session
 * secret), the test overrides (test-overrides.mjs, each with its reason; npm test prints them), and `extra`.
 * Everything else is the production default.
 */
export function runwayEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    NEXTAUTH_SECRET: AUTH_SECRET,
    // The shipped default, set so a RUNWAY_DEMO=true in the developer's shell cannot seed demo data into a test database.
    RUNWAY_DEMO: 'false',
    ...overrideEnv(),
    ...extra,
  };
}

/** Runs the CLI synchronously; returns its exit code and output. */
export function cli(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), ...args], { env, encoding: 'utf8', cwd: ROOT });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

export interface LoopbackAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request to 127.0.0.1:`port`, sent from the loopback address `from` (127.0.0.1 unless given: a server
 * whose monitoring allowlist leaves 127.0.0.1 out is reached from another one, such as 127.0.0.2).
 */
export function loopbackRequest(port: number, path: string, opts: { from?: string; method?: string } = {}): Promise<LoopbackAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', localAddress: opts.from ?? '127.0.0.1', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
    req.end();
  });
}

/** The status of GET `path` (sent from `from`), or 0 when nothing answers. */
export function probe(port: number, path: string, from?: string): Promise<number> {
  return loopbackRequest(port, path, { from }).then(
    (answer) => answer.status,
    () => 0,
  );
}

// A first start on a fresh embedded database runs initdb in WebAssembly and the migrations, and with the demo
// seeds it, before it listens: measured at 75 s, and 187 s with the demo, on a busy machine.
const START_TIMEOUT_MS = 300_000;

/** Starts `runway start` and waits until /-/readiness answers 200, its routes warmed (probed from `opts.probeFrom`). */
export async function startServer(
  port: number,
  env: NodeJS.ProcessEnv,
  opts: { probeFrom?: string; onOutput?: (text: string) => void } = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'start'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
    opts.onOutput?.(String(d));
  });
  child.stderr?.on('data', (d) => {
    output += d;
    opts.onOutput?.(String(d));
    if (process.env.RUNWAY_TEST_LOGS) process.stderr.write(d);
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`runway exited early (${child.exitCode}):\n${output}`);
    if ((await probe(port, '/-/readiness', opts.probeFrom)) === 200) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`runway did not start within ${START_TIMEOUT_MS / 1000}s:\n${output}`);
}

// A stop is the production one: readiness fails for the shutdown blackout (10 s by default), then requests in
// flight get up to the shutdown timeout (15 s). Killed only when it overruns both.
const STOP_TIMEOUT_MS = 35_000;

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
