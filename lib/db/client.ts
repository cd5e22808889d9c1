// The one database pool of a process, with the Prisma client on top of it. Route handlers, the CLI and
// the launcher all share them through globalThis, because Next.js may evaluate this module more than
// once (one copy per bundle).
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client';
import { log } from '../log/log';
import { observeStatement } from '../metrics/registry';
import { recordDbStatement } from '../observability/request-context';
import { preparedStatementsEnabled, preparedStatementsExplicitlyOn, sessionAwareNamer, SHARED_SESSION_PROBE, type StatementNamer } from './statement-names';

interface Connection {
  url: string;
  pool: pg.Pool;
  prisma: PrismaClient;
  /** Names statements for Prisma and for lib/db/query alike: one name per text on a connection. */
  name?: StatementNamer;
}
const holder = globalThis as typeof globalThis & { __runwayDb?: { current?: Connection } };

export function databaseUrl(): string {
  const url = process.env.RUNWAY_RESOLVED_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('No database: start Runway with `runway start`, or set DATABASE_URL');
  return url;
}

/**
 * The URL for what needs a session of its own across statements: the notification hub's LISTEN and the
 * migrations' advisory lock. Behind a pooler in transaction mode (PgBouncer) neither survives, so
 * RUNWAY_DATABASE_DIRECT_URL may name the server itself; unset, it is the pool's URL.
 */
export function directDatabaseUrl(): string {
  return process.env.RUNWAY_RESOLVED_DIRECT_URL || databaseUrl();
}

function open(url: string): Connection {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.RUNWAY_DB_POOL_MAX ?? 10) });
  // An idle connection the server terminates (restart, failover, pg_terminate_backend) is dropped from
  // the pool and reported here; without a listener the 'error' event would end the process.
  pool.on('error', (err) => log('warn', 'idle database connection lost', { error: err.message }));
  // On the embedded database the hub LISTENs on the one shared session, and notifications arrive on the
  // connection that committed: hand them to the hub (a globalThis hook, as the hub may be another bundle's copy).
  pool.on('connect', (client) =>
    client.on('notification', (m) =>
      (globalThis as { __runwayPoolNotification?: (c: string, p: string) => void }).__runwayPoolNotification?.(m.channel, m.payload ?? ''),
    ),
  );
  // Statement names only where each connection has a session of its own: never on the embedded database.
  const askShared = async () => {
    // The embedded database first, on any connection (one held by this probe could wait behind the others').
    if ((await pool.query<{ shared: boolean }>(SHARED_SESSION_PROBE)).rows[0]?.shared !== false) return true;
    const client = await pool.connect();
    try {
      const row = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0];
      // A pooler answers with a process id of its own: in transaction mode each transaction may land on another
      // server connection, where a name is missing or already taken (42P05 "rw0" already exists), and names
      // left there fail the next process. Unless the operator said true (PgBouncer 1.21+ tracks them), none.
      const pooled = (client as unknown as { processID?: number }).processID !== row?.pid;
      if (pooled && !preparedStatementsExplicitlyOn()) {
        log('warn', 'DATABASE_URL goes through a connection pooler: statements run unprepared (set RUNWAY_DB_PREPARED_STATEMENTS=false to say so)');
        return true;
      }
      return false;
    } finally {
      client.release();
    }
  };
  const name = preparedStatementsEnabled() ? sessionAwareNamer(askShared) : undefined;
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, {
      disposeExternalPool: true,
      // Past its limit the namer returns undefined: the adapter hands that to pg as `name`, which runs
      // the statement unnamed (the adapter's type says string only).
      statementNameGenerator: name as ((query: { sql: string }) => string) | undefined,
    }),
    // Prisma's defaults (wait 2 s for a connection, 5 s per transaction) turn a burst of writes into
    // 500s on a small pool; on the embedded database every transaction queues for its one connection.
    transactionOptions: { maxWait: 15_000, timeout: 30_000 },
    // Statement durations for /-/metrics (duration only; the text is used for its first keyword).
    log: [{ emit: 'event', level: 'query' }],
  });
  // Prisma emits the event in the caller's async context, so the time lands on the right request.
  prisma.$on('query', (e) => {
    observeStatement(e.query, e.duration / 1000);
    recordDbStatement(e.duration / 1000);
  });
  return { url, pool, prisma, name };
}

/** The connection of this process, opened on first use (and again when the database URL changed). */
export function connection(): Connection {
  const h = (holder.__runwayDb ??= {});
  const url = databaseUrl();
  if (!h.current || h.current.url !== url) h.current = open(url);
  return h.current;
}

export function db(): PrismaClient {
  return connection().prisma;
}

export async function disconnectDb(): Promise<void> {
  const h = holder.__runwayDb;
  const current = h?.current;
  if (h) h.current = undefined;
  // The adapter ends the pool with the client (disposeExternalPool); a client never used has not
  // connected the adapter, so the pool is ended here then.
  if (current) {
    await current.prisma.$disconnect();
    if (!current.pool.ended) await current.pool.end().catch(() => undefined);
  }
}

export type Db = PrismaClient;
export type { Prisma } from './generated/client';
