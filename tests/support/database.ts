// The database a test run uses: a fresh database on the PostgreSQL server in DATABASE_URL, or, with no
// DATABASE_URL, a fresh embedded PGlite folder (the server holds it; the CLI works through the server).
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  /** Env for the Runway processes of this run. */
  env: Record<string, string>;
  /** A URL tests may use to inspect the database directly. */
  inspectUrl: string;
  drop(): Promise<void>;
}

export async function freshDatabase(name: string, embeddedPort: number): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      inspectUrl: url.toString(),
      async drop() {
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
        await c.end();
      },
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), `runway-${name}-`));
  return {
    env: {
      DATABASE_URL: '',
      RUNWAY_DATA_DIR: dir,
      RUNWAY_EMBEDDED_DB_PORT: String(embeddedPort),
      // The test processes open the server's database too (seeds in-process, inspection clients, trials in
      // parallel): beyond the default four sockets the embedded server would turn them away.
      RUNWAY_EMBEDDED_MAX_CONNECTIONS: '32',
    },
    // The embedded database's Unix socket (lib/db/embedded.ts), which the test process's user may open.
    inspectUrl: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dir, 'pgdata.sock'))}&port=${embeddedPort}&sslmode=disable`,
    async drop() {},
  };
}
