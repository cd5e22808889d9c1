// Runway through PgBouncer in transaction mode, as the operator's guide sets it up: deploy/pgbouncer/pgbouncer.ini
// (only its address, port and auth file replaced), RUNWAY_DB_PREPARED_STATEMENTS=false, and
// RUNWAY_DATABASE_DIRECT_URL for the session the LISTEN connection and the migration lock need. The API is
// served through the pooler and a runner change reaches a live event stream; without the direct URL the
// LISTEN goes through the pooler, where it lasts one transaction, and the event never comes.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsServer, testServerUrl } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { runDocScript } from '../support/doc-scripts';
import { needsTools, startDaemon, substituted, tool, workDir, type Daemon } from '../support/daemons';
import { openEventStream, type EventStream } from '../support/event-stream';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';

const PASSWORD = 'pgbouncer-test-password';
const ROLE = `runway_pgbouncer_${process.pid}`;

const needs = needsServer('PgBouncer pools connections to a PostgreSQL server');
const tools = needsTools(['pgbouncer']);

describe(
  '[OPS] Runway through PgBouncer in transaction mode',
  { skip: needs.skip || tools.skip, meta: needs.skip ? needs.meta : tools.meta, timeout: 60_000 },
  () => {
    let database: TestDatabase;
    let bouncer: Daemon;
    const servers: ChildProcess[] = [];
    const bases: { direct: string; pooledOnly: string } = { direct: '', pooledOnly: '' };
    let token: string;
    let directUrl: string;
    let userlist: string;
    let pooledUrl: string;
    let databaseName: string;
    const streams: EventStream[] = [];

    beforeAll(async () => {
      const name = `runway_test_pgbouncer_${process.pid}`;
      databaseName = name;
      database = await freshDatabase(name, await freePort());
      // Runway's own role with a SCRAM password, owning its database, as in production.
      const admin = new pg.Client({ connectionString: testServerUrl });
      await admin.connect();
      await admin.query(`DROP ROLE IF EXISTS ${ROLE}`);
      await admin.query(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}'`);
      await admin.query(`ALTER DATABASE ${name} OWNER TO ${ROLE}`);
      await admin.end();
      const asRole = (url: string) => {
        const u = new URL(url);
        u.username = ROLE;
        u.password = PASSWORD;
        return u;
      };
      directUrl = asRole(database.env.DATABASE_URL).toString();
      const server = new URL(testServerUrl!);
      const dir = workDir('pgbouncer');
      const port = await freePort();
      userlist = path.join(dir, 'userlist.txt');
      runDocScript('pgbouncer-userlist', { ADMIN_URL: testServerUrl!, RUNWAY_ROLE: ROLE, USERLIST: userlist });
      const ini = substituted('deploy/pgbouncer/pgbouncer.ini', [
        ['runway = host=db.internal port=5432 dbname=runway', `runway = host=${server.hostname} port=${server.port || 5432} dbname=${name}`],
        ['listen_port = 6432', `listen_port = ${port}`],
        ['/etc/pgbouncer/userlist.txt', userlist],
      ]);
      const iniFile = path.join(dir, 'pgbouncer.ini');
      writeFileSync(iniFile, ini);
      // PgBouncer refuses to run as root; -u drops to an unprivileged user.
      const asUser = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
      bouncer = await startDaemon(tool('pgbouncer'), [...asUser, iniFile], port);

      const pooled = new URL(directUrl);
      pooled.password = PASSWORD;
      pooled.port = String(port);
      pooled.pathname = '/runway';
      pooledUrl = pooled.toString();
      const pooledEnv = { DATABASE_URL: pooledUrl, RUNWAY_DB_PREPARED_STATEMENTS: 'false' };
      const env = (base: string, extra: Record<string, string>) => runwayEnv({ ...pooledEnv, RUNWAY_EXTERNAL_URL: base, ...extra });

      const [a, b] = [await freePort(), await freePort()];
      bases.direct = `http://127.0.0.1:${a}`;
      bases.pooledOnly = `http://127.0.0.1:${b}`;
      // The CLI migrates first, under the advisory lock, on the direct URL.
      const made = cli(
        ['create-token', '--username', 'root', '--scopes', 'api', '--name', 'pgbouncer'],
        env(bases.direct, { RUNWAY_DATABASE_DIRECT_URL: directUrl }),
      );
      expect(made.status, made.stderr).toBe(0);
      token = made.stdout.trim();
      servers.push(await startServer(a, env(bases.direct, { RUNWAY_DATABASE_DIRECT_URL: directUrl })));
      servers.push(await startServer(b, env(bases.pooledOnly, {})));
      // A command and two starts: 60-150 s each on the loaded two-core test machine.
    }, 480_000);

    afterAll(async () => {
      for (const s of streams) s.close();
      await Promise.all(servers.map(stopServer));
      await bouncer?.stop();
      await database?.drop();
      const admin = new pg.Client({ connectionString: testServerUrl });
      await admin.connect();
      await admin.query(`DROP ROLE IF EXISTS ${ROLE}`).catch(() => undefined);
      await admin.end();
    });

    it("authenticates Runway's role with the SCRAM verifier the guide's users file holds", () => {
      expect(readFileSync(userlist, 'utf8')).toMatch(new RegExp(`^"${ROLE}" "SCRAM-SHA-256\\$`));
    });

    const api = (base: string, requestPath: string, init: RequestInit = {}) =>
      fetch(`${base}/api/v4${requestPath}`, { ...init, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...init.headers } });

    async function eventFor(base: string, timeoutMs: number): Promise<boolean> {
      const stream = await openEventStream(`${base}/api/v4/runners/events`, { 'PRIVATE-TOKEN': token });
      streams.push(stream);
      expect(stream.status).toBe(200);
      const res = await api(base, '/user/runners', { method: 'POST', body: JSON.stringify({ runner_type: 'instance_type' }) });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      return stream
        .next((e) => e.event === 'runner' && e.data.id === id, timeoutMs)
        .then(
          () => true,
          () => false,
        );
    }

    it('serves the API through the pooler without prepared statements', async () => {
      for (let i = 0; i < 20; i++) {
        const res = await api(bases.direct, '/user');
        expect(res.status).toBe(200);
      }
      const list = await api(bases.direct, '/runners/all?per_page=5');
      expect(list.status).toBe(200);
    });

    it('delivers a live runner event: the LISTEN connection goes to the direct URL', async () => {
      expect(await eventFor(bases.direct, 5_000)).toBe(true);
    });

    it('loses the events when LISTEN goes through the pooler (what the direct URL is for)', async () => {
      expect(await eventFor(bases.pooledOnly, 3_000)).toBe(false);
    });

    it('never serves a runner from its cache when LISTEN goes through the pooler: a reset token is refused on the next poll', async () => {
      const made = await api(bases.direct, '/user/runners', { method: 'POST', body: JSON.stringify({ runner_type: 'instance_type' }) });
      expect(made.status).toBe(201);
      const { id, token: runnerToken } = (await made.json()) as { id: number; token: string };
      const verify = (base: string) =>
        fetch(`${base}/api/v4/runners/verify`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: runnerToken }),
        });
      // Two polls: with a trusted LISTEN the second would be served from the process's cache.
      for (let i = 0; i < 2; i++) expect((await verify(bases.pooledOnly)).status).toBe(200);
      // Another instance resets the token; the notification never reaches the pooled-only instance.
      expect((await api(bases.direct, `/runners/${id}/reset_authentication_token`, { method: 'POST' })).status).toBe(201);
      expect((await verify(bases.pooledOnly)).status).toBe(403);
    });

    it('never serves a token from its cache when LISTEN goes through the pooler: a revoked token is refused on the next request', async () => {
      const rootId = ((await (await api(bases.direct, '/user')).json()) as { id: number }).id;
      const issued = await api(bases.direct, `/users/${rootId}/personal_access_tokens`, {
        method: 'POST',
        body: JSON.stringify({ name: 'pooled', scopes: ['api'] }),
      });
      expect(issued.status).toBe(201);
      const { id, token: pat } = (await issued.json()) as { id: number; token: string };
      const me = () => fetch(`${bases.pooledOnly}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': pat } });
      // Three requests: the first writes last_used_at; with a trusted LISTEN the third would come from the cache.
      for (let i = 0; i < 3; i++) expect((await me()).status).toBe(200);
      // Another instance revokes it; the notification never reaches the pooled-only instance.
      expect((await api(bases.direct, `/personal_access_tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await me()).status).toBe(401);
    });

    it('runs `runway` commands given only the pooled URL, as docs/install.md shows, leaving no lock or statement behind', async () => {
      // docs/install.md's command line: DATABASE_URL alone, prepared statements at their default. Before, each
      // command took the migration locks (Runway's and the schema engine's) on pooled server connections and
      // left named statements there: the next one failed with 42P05 "rw0" already exists, and a start waited
      // forever in pg_advisory_lock.
      const readme = runwayEnv({ DATABASE_URL: pooledUrl });
      for (const n of [1, 2, 3]) {
        const made = cli(['create-token', '--username', 'root', '--scopes', 'read_api', '--name', `pooled-${n}`], readme);
        expect(made.status, made.stderr).toBe(0);
        expect(made.stdout.trim()).toMatch(/^glpat-/);
      }
      const admin = new pg.Client({ connectionString: testServerUrl });
      await admin.connect();
      try {
        const held = await admin.query(
          `SELECT l.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND a.datname = $1`,
          [databaseName],
        );
        expect(held.rows).toEqual([]);
      } finally {
        await admin.end();
      }
      // And an instance configured as the guide says starts (migration lock on the direct URL) and serves.
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      servers.push(
        await startServer(
          port,
          runwayEnv({ DATABASE_URL: pooledUrl, RUNWAY_DB_PREPARED_STATEMENTS: 'false', RUNWAY_DATABASE_DIRECT_URL: directUrl, RUNWAY_EXTERNAL_URL: base }),
        ),
      );
      expect((await api(base, '/user')).status).toBe(200);
      // Three commands and a start: 20-30 s each on the loaded test machine.
    }, 240_000);
  },
);
