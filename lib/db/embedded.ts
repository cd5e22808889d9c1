// The embedded default: a real PostgreSQL (PGlite, WebAssembly) kept under the data folder and served
// on a loopback port, so the same pg driver, migrations and psql work as with a PostgreSQL server.
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite on `dir` (or in memory for `memory://`). PGlite has one real session; the socket server
 * multiplexes up to `maxConnections` sockets onto it and, while a transaction is open, serves only the
 * socket that opened it. Callers still size their pools to 1; the spare sockets cover a pool handing over
 * to the next one and a psql session.
 */
export async function startEmbeddedDatabase(opts: { dir: string; port?: number; maxConnections?: number }): Promise<EmbeddedDatabase> {
  const memory = opts.dir === 'memory://';
  let releaseLock = async () => undefined as void;
  if (!memory) {
    await mkdir(path.dirname(opts.dir), { recursive: true });
    releaseLock = await lockDataDir(`${opts.dir}.lock`);
  }
  const db = await PGlite.create(memory ? undefined : opts.dir);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 4,
  });
  await server.start();
  const conn = server.getServerConn();
  const port = Number(conn.split(':').pop());
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
      await releaseLock();
    },
  };
}

/** PGlite must never be opened by two processes: a pid file, taken over only from a dead process. */
async function lockDataDir(file: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `the embedded database ${path.dirname(file)} is in use by another Runway process (pid ${pid}); stop it, or set DATABASE_URL`,
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
