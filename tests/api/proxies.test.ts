// The operator's guide's reverse proxies, run for real: nginx and HAProxy with deploy/nginx/runway.conf and
// deploy/haproxy/haproxy.cfg (only ports, addresses and certificate paths replaced), terminating TLS in front
// of a real Runway. A runner poll held longer than nginx's default read timeout allows for its hold is
// answered; an event stream's event arrives at once; the proxy's X-Forwarded-For names the client; the
// monitoring endpoints stay off the public side; HAProxy takes a draining instance out before it closes; and
// a rolling restart of two instances through PgBouncer, under long-polling runners, fails no poll through either.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { LocalFleet, type FleetRunner } from '../../bench/cluster/fleet';
import { restartInstance, startInstance, stopInstance, type Instance, type RunwayCommand } from '../../bench/cluster/instances';
import { startHaproxy, startPgbouncer, type Proxy } from '../../bench/cluster/proxies';
import { seedBench } from '../../bench/runners-seed';
import { sleep } from '../../bench/sim-runner';
import { readEnv } from '../../lib/config/env';
import { needsServer } from '../../lib/db/test-server';
import { HEARTBEAT_MS } from '../../lib/api/sse';
import { freshDatabase, type TestDatabase } from '../support/database';
import { httpsRequest, httpsStream, needsTools, selfSignedCertificate, startDaemon, substituted, tool, workDir, type Daemon } from '../support/daemons';
import { cli, freePort, ROOT, runwayEnv, startServer, stopServer } from '../support/server';

const NGINX_CONF = 'deploy/nginx/runway.conf';
const HAPROXY_CFG = 'deploy/haproxy/haproxy.cfg';
/** Held polls here: short, so the test is quick; the configured timeouts are checked against the default. */
const HOLD_SECONDS = 8;
const DEFAULT_HOLD_SECONDS = readEnv({}).RUNWAY_LONG_POLLING_SECONDS;
/** Runway closes idle keep-alive connections after this (lib/server/start.ts); a proxy must close first. */
const RUNWAY_KEEP_ALIVE_SECONDS = 65;

const seconds = (v: string) => {
  const m = /^(\d+)(ms|s|m)?$/.exec(v);
  if (!m) throw new Error(`not a duration: ${v}`);
  return (Number(m[1]) / (m[2] === 'ms' ? 1000 : 1)) * (m[2] === 'm' ? 60 : 1);
};
/** Every value of `directive` in a configuration file (nginx's `name value;`, HAProxy's `name value`). */
const values = (text: string, directive: string) => [...text.matchAll(new RegExp(`^\\s*${directive}\\s+([^;\\s]+)`, 'gm'))].map((m) => m[1]);

describe('[OPS] proxy configurations as files', () => {
  const nginx = substituted(NGINX_CONF, []);
  const haproxy = substituted(HAPROXY_CFG, []);

  it('wait longer than the default long-poll hold and the event-stream heartbeat', () => {
    const floor = Math.max(DEFAULT_HOLD_SECONDS, HEARTBEAT_MS / 1000) + 10;
    const timeouts = [
      ...values(nginx, 'proxy_read_timeout'),
      ...values(nginx, 'proxy_send_timeout'),
      ...values(haproxy, 'timeout client'),
      ...values(haproxy, 'timeout server'),
    ];
    expect(timeouts).toHaveLength(4);
    for (const t of timeouts) expect(seconds(t)).toBeGreaterThanOrEqual(floor);
  });

  it('close idle upstream connections before Runway does, and keep them alive in between', () => {
    expect(values(nginx, 'keepalive').map(Number)[0]).toBeGreaterThan(0);
    expect(seconds(values(nginx, 'keepalive_timeout')[0])).toBeLessThan(RUNWAY_KEEP_ALIVE_SECONDS);
    expect(nginx).toMatch(/proxy_http_version 1\.1;\s+proxy_set_header Connection "";/);
    expect(haproxy).toContain('http-reuse safe');
  });
});

/**
 * deploy/nginx/runway.conf on our ports (TLS on `tlsPort`, or plain HTTP there with `plain`), inside the smallest
 * main configuration nginx runs with.
 */
async function runNginx(dir: string, cert: { cert: string; key: string }, tlsPort: number, extra: Array<[string, string]>, plain = false): Promise<Daemon> {
  const conf = substituted(NGINX_CONF, [
    ['listen 80;', `listen 127.0.0.1:${await freePort()};`],
    plain ? ['listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort};`] : ['listen 443 ssl', `listen 127.0.0.1:${tlsPort} ssl`],
    ['/etc/ssl/runway/fullchain.pem', cert.cert],
    ['/etc/ssl/runway/privkey.pem', cert.key],
    ...extra,
  ]);
  writeFileSync(path.join(dir, 'runway.conf'), conf);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${path.join(dir, t)};`).join(' ');
  const main = `pid ${path.join(dir, 'nginx.pid')};\ndaemon off;\nevents { worker_connections 1024; }\nhttp { log_format ids '$request_id'; access_log ${path.join(dir, 'access.log')} ids; ${temp} include ${path.join(dir, 'runway.conf')}; }\n`;
  writeFileSync(path.join(dir, 'nginx.conf'), main);
  const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'];
  const check = spawnSync(tool('nginx'), ['-t', ...args], { encoding: 'utf8' });
  expect(check.status, check.stderr).toBe(0);
  return startDaemon(tool('nginx'), args, tlsPort);
}

describe('[OPS] Runway behind nginx and HAProxy', { ...needsTools(['nginx', 'haproxy']), timeout: 60_000 }, () => {
  let database: TestDatabase;
  let runway: ChildProcess;
  let runwayLog = '';
  let token: string;
  let ca: string;
  const daemons: Daemon[] = [];
  const ports = { runway: 0, nginxTls: 0, nginxBroken: 0, haproxyTls: 0 };
  let direct: string;
  let nginxDir: string;

  async function startNginx(dir: string, cert: { cert: string; key: string }, tlsPort: number, extra: Array<[string, string]> = []) {
    daemons.push(await runNginx(dir, cert, tlsPort, [['server 127.0.0.1:3000 max_fails=0;', `server 127.0.0.1:${ports.runway} max_fails=0;`], ...extra]));
  }

  beforeAll(async () => {
    ports.runway = await freePort();
    database = await freshDatabase(`runway_test_proxies_${process.pid}`, await freePort());
    direct = `http://127.0.0.1:${ports.runway}`;
    const env = runwayEnv({
      ...database.env,
      RUNWAY_EXTERNAL_URL: direct,
      RUNWAY_LONG_POLLING_SECONDS: String(HOLD_SECONDS),
      RUNWAY_LOG_LEVEL: 'info',
      // As the operator's guide configures a proxied install: the proxies (nginx and HAProxy on loopback here)
      // are trusted, so their X-Forwarded-For names the client.
      RUNWAY_TRUSTED_PROXIES: '127.0.0.1',
      // Long enough for HAProxy's checks (2 s apart, 2 failures) to take the instance out while it serves.
      RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: '8',
    });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'proxies'], env);
    expect(made.status, made.stderr).toBe(0);
    token = made.stdout.trim();
    runway = await startServer(ports.runway, env);
    runway.stdout?.on('data', (d) => (runwayLog += d));

    const dir = workDir('proxies');
    const cert = selfSignedCertificate(dir);
    ca = cert.ca;
    ports.nginxTls = await freePort();
    nginxDir = workDir('nginx');
    await startNginx(nginxDir, cert, ports.nginxTls);
    // The same file with nginx's defaults where it sets its own: a read timeout below the hold, buffering.
    ports.nginxBroken = await freePort();
    await startNginx(workDir('nginx-broken'), cert, ports.nginxBroken, [
      ['proxy_read_timeout 90s;', 'proxy_read_timeout 3s;'],
      ['proxy_buffering off;', 'proxy_buffering on; proxy_ignore_headers X-Accel-Buffering;'],
    ]);

    ports.haproxyTls = await freePort();
    const cfg = substituted(HAPROXY_CFG, [
      ['bind :80', `bind 127.0.0.1:${await freePort()}`],
      ['bind :443 ssl crt /etc/haproxy/certs/runway.pem', `bind 127.0.0.1:${ports.haproxyTls} ssl crt ${cert.pem}`],
      ['server runway1 127.0.0.1:3000', `server runway1 127.0.0.1:${ports.runway}`],
    ]);
    const cfgFile = path.join(dir, 'haproxy.cfg');
    writeFileSync(cfgFile, cfg);
    const check = spawnSync(tool('haproxy'), ['-c', '-f', cfgFile], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    daemons.push(await startDaemon(tool('haproxy'), ['-db', '-f', cfgFile], ports.haproxyTls));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.stop()));
    if (runway) await stopServer(runway);
    await database?.drop();
  });

  const haproxy = () => daemons[daemons.length - 1];
  const via = (port: number, requestPath: string, opts: Parameters<typeof httpsRequest>[3] = {}) =>
    httpsRequest(port, ca, requestPath, { ...opts, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...opts.headers } });

  async function newRunnerToken(): Promise<{ id: number; token: string }> {
    const res = await via(ports.nginxTls, '/api/v4/user/runners', { method: 'POST', body: JSON.stringify({ runner_type: 'instance_type' }) });
    expect(res.status, res.body).toBe(201);
    return JSON.parse(res.body) as { id: number; token: string };
  }

  /** A job poll echoing the runner's current last_update, which Runway holds HOLD_SECONDS. */
  async function heldPoll(port: number, runnerToken: string) {
    const body = (lastUpdate?: string) =>
      JSON.stringify({ token: runnerToken, system_id: 's_0123456789ab', ...(lastUpdate ? { last_update: lastUpdate } : {}) });
    const first = await via(port, '/api/v4/jobs/request', { method: 'POST', body: body() });
    expect(first.status).toBe(204);
    const value = first.headers['x-gitlab-last-update'] as string;
    return via(port, '/api/v4/jobs/request', { method: 'POST', body: body(value) });
  }

  it.each([
    ['nginx', () => ports.nginxTls],
    ['HAProxy', () => ports.haproxyTls],
  ])('answers a held runner poll through %s over TLS after the full hold', async (_name, port) => {
    const runner = await newRunnerToken();
    const res = await heldPoll(port(), runner.token);
    expect(res.status).toBe(204);
    expect(res.elapsedMs).toBeGreaterThanOrEqual(HOLD_SECONDS * 1000 - 200);
  });

  it('fails the held poll with a read timeout below the hold (what the configured timeout prevents)', async () => {
    const runner = await newRunnerToken();
    const res = await heldPoll(ports.nginxBroken, runner.token);
    expect(res.status).toBe(504);
  });

  async function eventDelay(port: number): Promise<number | null> {
    const stream = httpsStream(port, ca, '/api/v4/runners/events', { 'PRIVATE-TOKEN': token, Accept: 'text/event-stream' });
    try {
      await stream.opened;
      expect(stream.status()).toBe(200);
      await stream.waitFor(': connected', 5_000);
      const runner = await newRunnerToken();
      return await stream.waitFor(`"id":${runner.id}`, 2_000);
    } finally {
      stream.close();
    }
  }

  it("passes an event stream's events through nginx at once", async () => {
    const delay = await eventDelay(ports.nginxTls);
    expect(delay).not.toBeNull();
    expect(delay!).toBeLessThan(1_000);
    // With buffering on (and Runway's X-Accel-Buffering ignored) the same event waits in nginx's buffer.
    expect(await eventDelay(ports.nginxBroken)).toBeNull();
  });

  it('passes an event stream through HAProxy at once', async () => {
    const delay = await eventDelay(ports.haproxyTls);
    expect(delay).not.toBeNull();
    expect(delay!).toBeLessThan(1_000);
  });

  it.each([
    // nginx's $request_id, HAProxy's uuid(): ids Runway takes as the correlation id, not the client's.
    ['nginx', () => ports.nginxTls, /^[0-9a-f]{32}$/],
    ['HAProxy', () => ports.haproxyTls, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/],
  ])("makes the proxy's X-Forwarded-For the client address Runway logs, and its request id the correlation id, through %s", async (_name, port, idShape) => {
    const requestId = `proxies${port()}${Date.now()}`;
    // A client's own X-Forwarded-For is kept left of the address the proxy appends, and not believed.
    const res = await via(port(), '/api/v4/user', { from: '127.0.0.9', headers: { 'X-Forwarded-For': '203.0.113.7', 'X-Request-Id': requestId } });
    expect(res.status).toBe(200);
    const seen = res.headers['x-request-id'] as string;
    expect(seen).toMatch(idShape);
    if (port() === ports.nginxTls) await expect.poll(() => readFileSync(path.join(nginxDir, 'access.log'), 'utf8')).toContain(seen);
    else await expect.poll(() => haproxy().output()).toContain(seen);
    await expect.poll(() => runwayLog.includes(`"correlation_id":"${seen}"`), { timeout: 5_000 }).toBe(true);
    const line = JSON.parse(runwayLog.split('\n').find((l) => l.includes(`"correlation_id":"${seen}"`))!) as Record<string, unknown>;
    expect(line).toMatchObject({ path: '/api/v4/user', status: 200, remote_ip: '127.0.0.9', username: 'root' });
  });

  it('keeps the monitoring endpoints off the public side, which Runway itself answers on loopback', async () => {
    for (const p of ['/-/metrics', '/-/health', '/-/liveness', '/-/readiness']) {
      expect((await fetch(`${direct}${p}`)).status).toBe(200);
      expect((await via(ports.nginxTls, p)).status).toBe(404);
      expect((await via(ports.haproxyTls, p)).status).toBe(404);
    }
    // Dashboard pages under /-/ are not monitoring endpoints.
    expect((await via(ports.nginxTls, '/-/user_settings/personal_access_tokens')).status).not.toBe(404);
  });

  it('takes a draining instance out of HAProxy within the shutdown blackout, while it still serves', async () => {
    runway.kill('SIGTERM');
    const started = Date.now();
    await expect.poll(() => haproxy().output(), { timeout: 8_000, interval: 100 }).toMatch(/runway\/runway1 is DOWN/);
    const outAfter = Date.now() - started;
    // Still serving directly: the blackout has not ended, so no request was cut.
    expect(runway.exitCode).toBeNull();
    expect((await fetch(`${direct}/api/v4/version`, { headers: { 'PRIVATE-TOKEN': token } })).status).toBe(200);
    expect(outAfter).toBeLessThan(8_000);
    console.log(`[OPS] HAProxy marked the draining instance DOWN ${outAfter} ms after SIGTERM`);
  });
});

const RESTART_RUNNERS = 120;
const server = needsServer('two Runway instances on one database, through PgBouncer');

describe(
  '[OPS] a rolling restart behind nginx and HAProxy, through PgBouncer, under long-polling runners',
  { ...(server.skip ? server : needsTools(['nginx', 'haproxy', 'pgbouncer'])), timeout: 600_000 },
  () => {
    let database: TestDatabase;
    const daemons: Array<{ stop: () => Promise<void> }> = [];
    const instances: Instance[] = [];
    const failed: Record<'nginx' | 'HAProxy', { polls: number; failed: number; samples: string[] }> = {
      nginx: { polls: 0, failed: 0, samples: [] },
      HAProxy: { polls: 0, failed: 0, samples: [] },
    };
    const exits: Array<number | null> = [];

    beforeAll(async () => {
      database = await freshDatabase(`runway_test_proxies_restart_${process.pid}`, await freePort());
      const direct = new URL(database.env.DATABASE_URL);
      const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'restart'], runwayEnv({ ...database.env }));
      expect(made.status, made.stderr).toBe(0);
      await seedBench(direct.toString(), { runners: RESTART_RUNNERS, jobs: 20 }, () => {});
      const bouncer = await startPgbouncer({
        port: await freePort(),
        pgPort: Number(direct.port || 5432),
        database: direct.pathname.slice(1),
        user: direct.username || 'postgres',
      });
      daemons.push(bouncer);
      const ports = [await freePort(), await freePort()];
      const run: RunwayCommand = { command: process.execPath, args: [path.join(ROOT, 'bin', 'runway.mjs')], cwd: ROOT };
      // The guide's PgBouncer settings (docs/operations.md).
      const env = runwayEnv({
        DATABASE_URL: `postgresql://${direct.username || 'postgres'}@127.0.0.1:${bouncer.port}/${bouncer.alias}`,
        RUNWAY_DATABASE_DIRECT_URL: direct.toString(),
        RUNWAY_DB_PREPARED_STATEMENTS: 'false',
        // The shipped blackout, written out: this restart is what it is for.
        RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: '10',
        // 20 s rather than 50: the drain answers held polls itself, so the hold's length only stretches the test;
        // it stays twice nginx's old fail_timeout (10 s), which is what made the old file fail.
        RUNWAY_LONG_POLLING_SECONDS: '20',
        // Production's buffered heartbeats and runner cache.
        RUNWAY_HEARTBEAT_FLUSH_SECONDS: '5',
      });
      for (const [i, port] of ports.entries()) instances.push(await startInstance(`instance ${i + 1}`, port, run, env));
      const haproxyPort = await freePort();
      const haproxy: Proxy = await startHaproxy({ port: haproxyPort, servers: ports });
      daemons.push(haproxy);
      const dir = workDir('nginx-restart');
      const nginxPort = await freePort();
      const nginx = await runNginx(
        dir,
        selfSignedCertificate(dir),
        nginxPort,
        [['    server 127.0.0.1:3000 max_fails=0;\n', ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;\n`).join('')]],
        true,
      );
      daemons.push(nginx);

      const db = new pg.Client({ connectionString: direct.toString() });
      await db.connect();
      const rows = (
        await db.query(`SELECT id, split_part(description, ' ', 3)::int AS n FROM ci_runners WHERE active AND description LIKE 'bench runner %' ORDER BY id`)
      ).rows as { id: number; n: number }[];
      await db.end();
      const runners: FleetRunner[] = rows.slice(0, RESTART_RUNNERS).map((r) => ({ id: r.id, token: `bench-runner-${r.n}`, systemId: `s_restart${r.n}` }));
      const half = Math.floor(runners.length / 2);
      const fleets = { nginx: new LocalFleet(), HAProxy: new LocalFleet() };
      await fleets.nginx.add({ runners: runners.slice(0, half), targets: [{ port: nginxPort }], holdSeconds: 20, rampMs: 3_000 });
      await fleets.HAProxy.add({ runners: runners.slice(half), targets: [{ port: haproxyPort }], holdSeconds: 20, rampMs: 3_000 });
      // Every runner has polled and holds a poll on one instance or the other.
      await sleep(8_000);
      for (const instance of instances) {
        const figures = await restartInstance(instance, run, env);
        exits.push(figures.exitCode);
        await sleep(3_000);
      }
      for (const [name, fleet] of Object.entries(fleets) as Array<['nginx' | 'HAProxy', LocalFleet]>) {
        const stats = await fleet.stop();
        failed[name] = { polls: stats.polls, failed: stats.errors, samples: stats.errorSamples };
      }
      console.log(
        `[OPS] rolling restart: nginx ${failed.nginx.failed} of ${failed.nginx.polls} polls failed, HAProxy ${failed.HAProxy.failed} of ${failed.HAProxy.polls}`,
      );
    }, 600_000);

    afterAll(async () => {
      await Promise.all(instances.map((i) => stopInstance(i, 30_000)));
      for (const d of daemons.reverse()) await d.stop();
      await database?.drop();
    });

    it.each(['nginx', 'HAProxy'] as const)('fails no runner poll through %s', (name) => {
      expect(failed[name].polls).toBeGreaterThan(RESTART_RUNNERS / 2);
      expect({ failed: failed[name].failed, samples: failed[name].samples }).toEqual({ failed: 0, samples: [] });
    });

    it('drains each instance cleanly', () => {
      expect(exits).toEqual([0, 0]);
    });
  },
);
