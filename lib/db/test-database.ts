// For unit tests that need a real database in-process: a fresh in-memory PGlite served on loopback,
// published to lib/db/client as this process's database for the tests of the calling suite.
import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';
import { applyMigrations } from './migrations';
import { disconnectDb } from './client';

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
