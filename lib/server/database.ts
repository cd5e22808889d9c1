// Chooses the database: the PostgreSQL server in DATABASE_URL, or the embedded PGlite under the data
// folder. Everything above this returns a plain postgresql:// URL, so one code path serves both.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { dataDir } from '../config/paths';
import { embeddedDatabaseHolder, startEmbeddedDatabase } from '../db/embedded';

export interface ResolvedDatabase {
  url: string;
  /** A session of its own for the migration lock and LISTEN: RUNWAY_DATABASE_DIRECT_URL, else `url`. */
  directUrl: string;
  embedded: boolean;
  /** The pid of the running Runway whose embedded database this process works through, if any. */
  attachedTo?: number;
  /** Lets `runway` commands find this process's embedded database; call once it is migrated. */
  advertise(): Promise<void>;
  stop(): Promise<void>;
}

const nothing = async () => undefined;

/**
 * With `attach` (the CLI), an embedded database that a running Runway holds is used through that
 * process's loopback port; otherwise (and for `runway start`) this process opens the data folder itself.
 */
export async function resolveDatabase(opts: { attach?: boolean } = {}): Promise<ResolvedDatabase> {
  const url = process.env.DATABASE_URL?.trim();
  if (url) return { url, directUrl: process.env.RUNWAY_DATABASE_DIRECT_URL?.trim() || url, embedded: false, advertise: nothing, stop: nothing };
  const dir = path.join(dataDir(), 'pgdata');
  if (opts.attach) {
    const running = await waitForServingProcess(dir);
    if (running) return { url: running.url, directUrl: running.url, embedded: true, attachedTo: running.pid, advertise: nothing, stop: nothing };
  }
  const port = process.env.RUNWAY_EMBEDDED_DB_PORT ? Number(process.env.RUNWAY_EMBEDDED_DB_PORT) : 0;
  const maxConnections = Number(process.env.RUNWAY_EMBEDDED_MAX_CONNECTIONS ?? 4);
  const embedded = await startEmbeddedDatabase({ dir, port, maxConnections, role: opts.attach ? 'command' : 'server' });
  return { url: embedded.url, directUrl: embedded.url, embedded: true, advertise: embedded.advertise, stop: embedded.stop };
}

// A first start migrates and seeds the demo before it advertises its port: that can take a while.
const HOLDER_WAIT_MS = 180_000;

/**
 * The running Runway server that serves `dir`, once it is ready; null when the folder is free (or a
 * `runway` command that held it has finished). Messages go to stderr: stdout is the command's output.
 */
async function waitForServingProcess(dir: string): Promise<{ pid: number; url: string } | null> {
  const deadline = Date.now() + HOLDER_WAIT_MS;
  let told = false;
  for (;;) {
    const holder = await embeddedDatabaseHolder(dir);
    if (!holder) return null;
    if (holder.url) {
      await probe(holder.url, holder.pid);
      return { pid: holder.pid, url: holder.url };
    }
    if (Date.now() > deadline) throw new Error(`the Runway process ${holder.pid} holding ${dir} did not finish`);
    if (!told) {
      console.error(
        holder.role === 'server'
          ? `waiting for the Runway server (pid ${holder.pid}) to finish starting…`
          : `waiting for another runway command (pid ${holder.pid}) to finish…`,
      );
    }
    told = true;
    await sleep(500);
  }
}

async function probe(url: string, pid: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    throw new Error(`the Runway process ${pid} holds the embedded database but does not answer on ${new URL(url).port}: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Publishes the chosen database to this process (route handlers read it through lib/db/client). */
export function publishDatabase(database: ResolvedDatabase): void {
  process.env.RUNWAY_RESOLVED_DATABASE_URL = database.url;
  process.env.RUNWAY_RESOLVED_DIRECT_URL = database.directUrl;
  // PGlite has a single session: one connection, or transactions would interleave. (Its sockets share that
  // session, so lib/db/client names no statements there: it asks the database, see lib/db/statement-names.)
  if (database.embedded) {
    process.env.RUNWAY_DB_POOL_MAX = '1';
    // LISTEN over the shared session is unreliable; a single process notifies itself (lib/notifications/hub).
    process.env.RUNWAY_NOTIFICATIONS_IN_PROCESS = 'true';
  }
}
