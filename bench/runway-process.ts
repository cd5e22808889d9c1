// A Runway production server for the benchmarks: a dedicated database on the DATABASE_URL server, a free
// loopback port, the environment of a production start, root's token (the CLI migrates and bootstraps root)
// and the server process itself (needs a production build: RUNWAY_DIST_DIR, default .next).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_ROOT_PASSWORD = 'runway-bench-root-password';

export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL server (a dedicated bench database is created on it)');
  return url;
}

export async function ensureDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(serverUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function runwayEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    INITIAL_ROOT_PASSWORD: BENCH_ROOT_PASSWORD,
    NEXTAUTH_SECRET: 'runway-bench-secret-0123456789abcdef0123456789',
    RUNWAY_DEMO: 'false',
    RUNWAY_LOG_LEVEL: 'warn',
    RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // A benchmark's stop need not wait for a load balancer that is not there.
    RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: '0',
  };
}

/** Migrates the database and returns a root token (the CLI bootstraps root); `root`: another checkout's CLI. */
export function rootToken(env: NodeJS.ProcessEnv, root = ROOT): string {
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'bin', 'runway.mjs'), 'create-token', '--username', 'root', '--scopes', 'api', '--name', `bench-${Date.now()}`],
    {
      env,
      encoding: 'utf8',
      cwd: root,
    },
  );
  if (r.status !== 0) throw new Error(`create-token failed: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Starts `runway start`; `fileLimit` raises its open-file limit first (one socket per held runner poll),
 * to at most the hard limit ('hard': the hard limit itself); `root`: another checkout's (bench:api-ab).
 */
export async function startRunway(env: NodeJS.ProcessEnv, fileLimit?: number | 'hard', nodeArgs: string[] = [], root = ROOT): Promise<ChildProcess> {
  const bin = path.join(root, 'bin', 'runway.mjs');
  const child = fileLimit
    ? spawn(
        '/bin/sh',
        [
          '-c',
          `hard=$(ulimit -Hn); want=${fileLimit === 'hard' ? '$hard' : fileLimit}; [ "$hard" != unlimited ] && [ "$want" -gt "$hard" ] && want=$hard; ulimit -n "$want" && exec "$0" "$@"`,
          process.execPath,
          ...nodeArgs,
          bin,
          'start',
        ],
        { env, cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
      )
    : spawn(process.execPath, [...nodeArgs, bin, 'start'], { env, cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  // The demo seed runs at the first start: minutes on a loaded machine.
  const deadline = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS ?? 300_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`runway exited: ${err}`);
    if (
      await fetch(`http://127.0.0.1:${env.PORT}/-/readiness`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGKILL');
  throw new Error('runway did not start');
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000);
  });
}

/** user + system CPU time of a process so far, in ms (Linux, USER_HZ = 100). */
export function cpuTime(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
