// A PostgreSQL server of the cluster benchmark's own: Debian's initdb and postgres in a temporary folder,
// on a free loopback port, so its CPU is the benchmark's to measure (the postmaster, its live backends and
// the children it has reaped) and nothing else shares it. PostgreSQL refuses to run as root: as root, the
// folder is given to the `postgres` user and the binaries run as that user.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../runway-process';
import { sleep } from '../sim-runner';

export interface OwnPostgres {
  url: (database: string) => string;
  port: number;
  /** CPU seconds the server has used so far (postmaster, live backends and reaped ones). */
  cpuSeconds: () => number;
  stop: () => Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'postgres'))) return path.join(root, v, 'bin');
  throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
}

function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

const ticks = (stat: string) => {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { self: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]), ppid: Number(f[1]) };
};

export async function startOwnPostgres(opts: { maxConnections: number }): Promise<OwnPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-cluster-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const [initCmd, initArgs] = asPostgres(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const [cmd, args] = asPostgres(path.join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `max_connections=${opts.maxConnections}`,
    '-c',
    'shared_buffers=512MB',
    '-c',
    'log_min_messages=warning',
  ]);
  const server: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  server.stderr?.on('data', (d) => (err += d));
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`postgres exited: ${err}`);
    const c = new pg.Client({ connectionString: url('postgres') });
    try {
      await c.connect();
      await c.end();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`postgres did not start: ${err}`);
      await sleep(300);
    }
  }
  const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url,
    port,
    cpuSeconds: () => {
      let total = 0;
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const t = ticks(readFileSync(`/proc/${entry}/stat`, 'utf8'));
          if (Number(entry) === postmaster) total += t.self + t.children;
          else if (t.ppid === postmaster) total += t.self;
        } catch {
          // the process ended meanwhile: its time is in the postmaster's reaped children now
        }
      }
      return total / 100;
    },
    stop: async () => {
      if (server.exitCode === null) {
        // The fast shutdown of postgres: SIGINT to the postmaster, which runuser does not forward, so by pid.
        process.kill(postmaster, 'SIGINT');
        await Promise.race([new Promise((r) => server.once('exit', r)), sleep(30_000)]);
        if (server.exitCode === null) server.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no user ${name}`);
  const f = line.split(':');
  return { uid: Number(f[2]), gid: Number(f[3]) };
}
