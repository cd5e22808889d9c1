// The embedded default: a real PostgreSQL (PGlite, WebAssembly) kept under the data folder and served
// on a loopback port, so the same pg driver, migrations and psql work as with a PostgreSQL server.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite on `dir` (or in memory for `memory://`). PGlite has one real session, so callers
 * size their pools to 1; `maxConnections` above 1 multiplexes that session and is only safe for
 * read-only side channels such as a test's inspection queries.
 */
export async function startEmbeddedDatabase(opts: { dir: string; port?: number; maxConnections?: number }): Promise<EmbeddedDatabase> {
  const memory = opts.dir === 'memory://';
  if (!memory) await mkdir(path.dirname(opts.dir), { recursive: true });
  const db = await PGlite.create(memory ? undefined : opts.dir);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 1,
  });
  await server.start();
  const conn = server.getServerConn();
  const port = Number(conn.split(':').pop());
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
