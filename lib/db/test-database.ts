// For unit tests that need a real database in-process: a fresh in-memory PGlite served on loopback, or a
// fresh database on the PostgreSQL server in DATABASE_URL, published to lib/db/client as this process's
// database for the tests of the calling suite.
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';
import { applyMigrations } from './migrations';
import { disconnectDb } from './client';
import { testServerUrl } from './test-server';

export function useInMemoryDatabase(opts: { migrate: boolean }): void {
  let database: EmbeddedDatabase | undefined;
  beforeAll(async () => {
    database = await startEmbeddedDatabase({ dir: 'memory://' });
    if (opts.migrate) await applyMigrations(database.url, { lock: false });
    process.env.RUNWAY_RESOLVED_DATABASE_URL = database.url;
    process.env.RUNWAY_DB_POOL_MAX = '1';
  }, 60_000);
  afterAll(async () => {
    await disconnectDb();
    await database?.stop();
    delete process.env.RUNWAY_RESOLVED_DATABASE_URL;
  });
}

/** A fresh database `name` on the server in DATABASE_URL (call inside a describe with needsServer()). */
export function useServerDatabase(name: string): void {
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: testServerUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(testServerUrl!);
    url.pathname = `/${name}`;
    process.env.RUNWAY_RESOLVED_DATABASE_URL = url.toString();
  }, 60_000);
  afterAll(async () => {
    await disconnectDb();
    delete process.env.RUNWAY_RESOLVED_DATABASE_URL;
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/** A second connection to a migrated server database, as another instance's writes arrive. */
export interface OtherConnection {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** A write that fires no trigger (session_replication_role = replica), so no notification: only a read of the database sees it. */
  silently(text: string, values: unknown[]): Promise<void>;
}

/**
 * useServerDatabase(name), migrated, with another connection to it, for the caches kept exact by change
 * notifications (call inside a describe with needsServer()). Each test ends with the hub closed.
 */
export function useNotifiedDatabase(name: string, closeHub: () => Promise<void>): OtherConnection {
  const held: { client?: pg.Client } = {};
  useServerDatabase(name);
  beforeAll(async () => {
    const url = process.env.RUNWAY_RESOLVED_DATABASE_URL!;
    await applyMigrations(url, { lock: false });
    held.client = new pg.Client({ connectionString: url });
    await held.client.connect();
  }, 120_000);
  afterEach(async () => {
    await closeHub();
  });
  afterAll(async () => {
    await held.client?.end();
  });
  const other = (): pg.Client => {
    if (!held.client) throw new Error('the other connection is opened in beforeAll');
    return held.client;
  };
  return {
    query: (text, values) => other().query(text, values),
    async silently(text, values) {
      await other().query('SET session_replication_role = replica');
      try {
        await other().query(text, values);
      } finally {
        await other().query('SET session_replication_role = origin');
      }
    },
  };
}
