// Seeds and services run inside the test process against the API test server's database: the URL is set
// before the first import of the database client, with a pool of one, since the embedded database accepts
// only a few sockets and the server holds most of them.
import { afterAll, beforeAll, inject } from 'vitest';

type DbClient = typeof import('../../lib/db/client');

/** Registers the hooks; call at a test file's top level, before any hook that imports a seed. */
export function inProcessDatabase(): { db: () => ReturnType<DbClient['db']> } {
  let client: DbClient | undefined;
  beforeAll(async () => {
    process.env.DATABASE_URL = inject('inspectUrl');
    process.env.RUNWAY_DB_POOL_MAX = '1';
    client = await import('../../lib/db/client');
  });
  afterAll(async () => client?.disconnectDb());
  return {
    db: () => {
      if (!client) throw new Error('inProcessDatabase: the database is used before its beforeAll ran');
      return client.db();
    },
  };
}
