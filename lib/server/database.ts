// Chooses the database: the PostgreSQL server in DATABASE_URL, or the embedded PGlite under the data
// folder. Everything above this returns a plain postgresql:// URL, so one code path serves both.
import path from 'node:path';
import { dataDir } from '../config/paths';
import { startEmbeddedDatabase } from '../db/embedded';

export interface ResolvedDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function resolveDatabase(): Promise<ResolvedDatabase> {
  const url = process.env.DATABASE_URL?.trim();
  if (url) return { url, embedded: false, stop: async () => undefined };
  const port = process.env.RUNWAY_EMBEDDED_DB_PORT ? Number(process.env.RUNWAY_EMBEDDED_DB_PORT) : 0;
  const maxConnections = Number(process.env.RUNWAY_EMBEDDED_MAX_CONNECTIONS ?? 4);
  const embedded = await startEmbeddedDatabase({ dir: path.join(dataDir(), 'pgdata'), port, maxConnections });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}

/** Publishes the chosen database to this process (route handlers read it through lib/db/client). */
export function useDatabase(database: ResolvedDatabase): void {
  process.env.RUNWAY_RESOLVED_DATABASE_URL = database.url;
  // PGlite has a single session: one connection, or transactions would interleave.
  // Its sockets share that session too, so named statements of two connections could collide.
  if (database.embedded) {
    process.env.RUNWAY_DB_POOL_MAX = '1';
    process.env.RUNWAY_DB_PREPARED_STATEMENTS = 'false';
  }
}
