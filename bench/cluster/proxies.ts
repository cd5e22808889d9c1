// PgBouncer and HAProxy for the cluster benchmark, from the repository's own files in deploy/ (the ones
// docs/operations.md gives), with only what a loopback run must change: addresses, ports, paths, the
// servers, and no TLS (the benchmark's runners speak plain HTTP to HAProxy; TLS is the proxy's cost, not
// Runway's). Each daemon runs from a temporary folder and is stopped by its process id.
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../runway-process';
import { sleep } from '../sim-runner';

export interface Daemon {
  name: string;
  port: number;
  process: ChildProcess;
  output: string[];
  stop: () => Promise<void>;
}

function findBinary(name: string): string {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    if (existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(`${name} is not installed (apt-get install ${name})`);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

async function startDaemon(name: string, port: number, command: string, args: string[], dir: string): Promise<Daemon> {
  // stdout is HAProxy's request log (one line per poll): not kept. Errors come on stderr.
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const output: string[] = [];
  const keep = (d: Buffer) => {
    for (const line of d.toString('utf8').split('\n')) if (line && output.length < 500) output.push(line);
  };
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${output.join('\n')}`);
    if (await listening(port)) return { name, port, process: child, output, stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`${name} did not listen on ${port}: ${output.join('\n')}`);
}

/** An ini file with `key = value` set in `[section]` (replaced where the key is, else added at its end). */
export function iniWith(text: string, section: string, values: Record<string, string>): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `[${section}]`);
  if (start < 0) throw new Error(`no [${section}] section`);
  let end = lines.findIndex((l, i) => i > start && /^\s*\[/.test(l));
  if (end < 0) end = lines.length;
  const rest = new Map(Object.entries(values));
  for (let i = start + 1; i < end; i++) {
    const key = /^\s*([\w.]+)\s*=/.exec(lines[i])?.[1];
    if (key && rest.has(key)) {
      lines[i] = `${key} = ${rest.get(key)}`;
      rest.delete(key);
    }
  }
  lines.splice(end, 0, ...[...rest].map(([k, v]) => `${k} = ${v}`));
  return lines.join('\n');
}

/** PgBouncer from deploy/pgbouncer/pgbouncer.ini in front of `database` on the PostgreSQL at `pgPort`. */
export async function startPgbouncer(opts: { port: number; pgPort: number; database: string; user: string }): Promise<Daemon & { alias: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-cluster-pgbouncer-'));
  let ini = readFileSync(path.join(ROOT, 'deploy/pgbouncer/pgbouncer.ini'), 'utf8');
  const alias = /^\[databases\]\s*\n(?:[;#].*\n|\s*\n)*\s*([\w-]+)\s*=/m.exec(ini)?.[1];
  if (!alias) throw new Error('deploy/pgbouncer/pgbouncer.ini names no database');
  ini = ini.replace(new RegExp(`^${alias}\\s*=.*$`, 'm'), `${alias} = host=127.0.0.1 port=${opts.pgPort} dbname=${opts.database}`);
  // The benchmark's PostgreSQL trusts loopback, so PgBouncer need not check passwords either.
  ini = iniWith(ini, 'pgbouncer', {
    listen_addr: '127.0.0.1',
    listen_port: String(opts.port),
    unix_socket_dir: dir,
    auth_type: 'trust',
    auth_file: path.join(dir, 'userlist.txt'),
    pidfile: path.join(dir, 'pgbouncer.pid'),
    logfile: path.join(dir, 'pgbouncer.log'),
  });
  writeFileSync(path.join(dir, 'userlist.txt'), `"${opts.user}" ""\n`);
  writeFileSync(path.join(dir, 'pgbouncer.ini'), ini);
  // PgBouncer refuses to run as root.
  let command = findBinary('pgbouncer');
  let args = [path.join(dir, 'pgbouncer.ini')];
  if (process.getuid?.() === 0) {
    const [uid, gid] = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'))!
      .split(':')
      .slice(2, 4)
      .map(Number);
    chownSync(dir, uid, gid);
    for (const f of ['userlist.txt', 'pgbouncer.ini']) chownSync(path.join(dir, f), uid, gid);
    args = ['-u', 'postgres', '--', command, ...args];
    command = 'runuser';
  }
  return { ...(await startDaemon('pgbouncer', opts.port, command, args, dir)), alias };
}

/** HAProxy from deploy/haproxy/haproxy.cfg on `port` (plain HTTP) in front of the instances' ports. */
export async function startHaproxy(opts: { port: number; servers: number[] }): Promise<Daemon> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-cluster-haproxy-'));
  const lines = readFileSync(path.join(ROOT, 'deploy/haproxy/haproxy.cfg'), 'utf8').split('\n');
  const out: string[] = [];
  let boundPlain = false;
  let serversWritten = false;
  for (const line of lines) {
    const t = line.trim();
    if (/^bind\s/.test(t)) {
      // One plain listener on loopback instead of the file's :80 and :443 (TLS).
      if (!boundPlain) out.push(`    bind 127.0.0.1:${opts.port}`);
      boundPlain = true;
    } else if (/^http-request redirect scheme https/.test(t) || /^ssl-default-bind/.test(t)) {
      // Without TLS there is nothing to redirect to.
    } else if (/^server\s/.test(t)) {
      const options = t.split(/\s+/).slice(3).join(' ');
      if (!serversWritten) opts.servers.forEach((p, i) => out.push(`    server runway${i + 1} 127.0.0.1:${p}${options ? ` ${options}` : ''}`));
      serversWritten = true;
    } else out.push(line);
  }
  if (!boundPlain || !serversWritten) throw new Error('deploy/haproxy/haproxy.cfg has no bind or no server line');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, out.join('\n'));
  return startDaemon('haproxy', opts.port, findBinary('haproxy'), ['-f', file, '-db'], dir);
}
