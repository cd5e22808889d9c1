// PgBouncer and HAProxy for the cluster benchmark, from the repository's own files in deploy/ (the ones
// docs/operations.md gives), with only what a loopback run must change: addresses, ports, paths, the
// servers, and no TLS (the benchmark's runners speak plain HTTP to HAProxy: TLS is the proxy's cost, not
// Runway's). The benchmark's PostgreSQL trusts loopback, so PgBouncer checks no passwords either. Each
// daemon runs from a temporary folder and is stopped by its process id (tests/support/daemons.ts).
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDaemon, substituted, tool, workDir, type Daemon } from '../../tests/support/daemons';

export interface Proxy {
  port: number;
  daemon: Daemon;
  stop: () => Promise<void>;
}

async function run(name: string, port: number, args: (dir: string) => { command: string; args: string[] }): Promise<Proxy> {
  const dir = workDir(name);
  const { command, args: argv } = args(dir);
  const daemon = await startDaemon(command, argv, port);
  return {
    port,
    daemon,
    stop: async () => {
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PgBouncer from deploy/pgbouncer/pgbouncer.ini in front of `database` on the PostgreSQL at `pgPort`. */
export function startPgbouncer(opts: { port: number; pgPort: number; database: string; user: string }): Promise<Proxy & { alias: string }> {
  return run('cluster-pgbouncer', opts.port, (dir) => {
    const ini = substituted('deploy/pgbouncer/pgbouncer.ini', [
      ['runway = host=db.internal port=5432 dbname=runway', `runway = host=127.0.0.1 port=${opts.pgPort} dbname=${opts.database}`],
      ['listen_port = 6432', `listen_port = ${opts.port}`],
      ['auth_type = scram-sha-256', 'auth_type = trust'],
      ['/etc/pgbouncer/userlist.txt', path.join(dir, 'userlist.txt')],
    ]);
    writeFileSync(path.join(dir, 'userlist.txt'), `"${opts.user}" ""\n`);
    writeFileSync(path.join(dir, 'pgbouncer.ini'), ini);
    // PgBouncer refuses to run as root; -u drops to an unprivileged user.
    return { command: tool('pgbouncer'), args: [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), path.join(dir, 'pgbouncer.ini')] };
  }).then((p) => ({ ...p, alias: 'runway' }));
}

/** HAProxy from deploy/haproxy/haproxy.cfg on `port` (plain HTTP) in front of the instances' ports. */
export function startHaproxy(opts: { port: number; servers: number[] }): Promise<Proxy> {
  return run('cluster-haproxy', opts.port, (dir) => {
    const cfg = substituted('deploy/haproxy/haproxy.cfg', [
      ['    bind :80\n', `    bind 127.0.0.1:${opts.port}\n`],
      ['    bind :443 ssl crt /etc/haproxy/certs/runway.pem alpn h2,http/1.1\n', ''],
      ['    http-request redirect scheme https code 301 unless { ssl_fc }\n', ''],
      ['    ssl-default-bind-options ssl-min-ver TLSv1.2\n', ''],
      // Its request log (a line per poll) is not the benchmark's to keep.
      ['    log stdout format raw local0\n', ''],
      ['    server runway1 127.0.0.1:3000', opts.servers.map((p, i) => `    server runway${i + 1} 127.0.0.1:${p}`).join('\n')],
    ]);
    writeFileSync(path.join(dir, 'haproxy.cfg'), cfg);
    return { command: tool('haproxy'), args: ['-f', path.join(dir, 'haproxy.cfg'), '-db'] };
  });
}
