// PostgreSQL LISTEN/NOTIFY for the whole process: one dedicated connection (not a pool connection, which
// would be handed to other queries) LISTENs on every channel that has a subscriber here and fans each
// notification out in process. Notifications from any Runway instance on the same database arrive here.
// When the connection drops every subscriber's onLost is called at once (a cache kept current by
// notifications must stop trusting itself), then the connection is reopened with backoff and every
// subscriber's onReconnect is called: notifications sent meanwhile are lost, so subscribers re-read what
// they care about. Behind a pooler in transaction mode a LISTEN would hold for one transaction only: the
// connection goes to RUNWAY_DATABASE_DIRECT_URL when it is set (lib/db/client directDatabaseUrl).
//
// The embedded database (PGlite) multiplexes its sockets onto one session, so a LISTEN over it does not
// reliably receive what other sockets commit; it is single-process by design, so there notifyChannel
// delivers in process instead (lib/server/database.ts sets the flag).
//
// A connection cut without a word (a proxy or firewall dropping idle flows, a partition) sends no error:
// TCP keep-alive would notice after hours. So the hub pings its connection (RUNWAY_NOTIFICATIONS_PING_SECONDS)
// and treats a ping not answered within the same interval as a lost connection.
import pg from 'pg';
import { db, directDatabaseUrl } from '../db/client';
import { throughPooler } from '../db/pooler';
import { log } from '../log/log';

export type Unsubscribe = () => void;

interface Subscriber {
  onMessage: (payload: string) => void;
  onReconnect?: () => void;
  onLost?: (closed: boolean) => void;
}

interface HubState {
  subscribers: Map<string, Set<Subscriber>>;
  /** Channels LISTENed on the current connection (or being LISTENed: the promise settles when done). */
  listening: Map<string, Promise<void>>;
  client?: pg.Client;
  connecting?: Promise<pg.Client>;
  reconnectTimer?: NodeJS.Timeout;
  failures: number;
  closed: boolean;
  /**
   * The LISTEN connection reaches PostgreSQL through a pooler: in transaction mode its LISTEN lasts one
   * transaction and notifications are lost, while a Sync still answers. Live events are best effort then, and
   * notificationsCaughtUp never vouches for them (the runner cache reads the database instead).
   */
  pooled?: boolean;
}

/** The environment flag the database choice sets when notifications stay in this process. */
export const IN_PROCESS_FLAG = 'RUNWAY_NOTIFICATIONS_IN_PROCESS';

// Next.js may evaluate this module once per bundle: the state lives on globalThis, one per process.
const holder = globalThis as typeof globalThis & { __runwayHub?: HubState };
const hub = (): HubState => (holder.__runwayHub ??= { subscribers: new Map(), listening: new Map(), failures: 0, closed: false });
(globalThis as { __runwayPoolNotification?: (channel: string, payload: string) => void }).__runwayPoolNotification ??= (channel, payload) =>
  deliverPoolNotification(channel, payload);

/** The LISTEN connection's application_name (pg_stat_activity). */
export const HUB_APPLICATION_NAME = 'runway-notifications';

const CHANNEL_RE = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_BACKOFF_MS = 5_000;
const DEFAULT_PING_SECONDS = 30;

/** Seconds between pings of the LISTEN connection, and how long one may go unanswered; 0: no ping. */
function pingSeconds(): number {
  const v = Number(process.env.RUNWAY_NOTIFICATIONS_PING_SECONDS ?? DEFAULT_PING_SECONDS);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_PING_SECONDS;
}

function checkChannel(channel: string): void {
  // Channels are identifiers in LISTEN: only plain lower-case names, so quoting is never an issue.
  if (!CHANNEL_RE.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
}

export const notificationsInProcess = () => process.env[IN_PROCESS_FLAG] === 'true';

function deliver(channel: string, payload: string): void {
  for (const s of [...(hub().subscribers.get(channel) ?? [])]) {
    try {
      s.onMessage(payload);
    } catch (err) {
      log('warn', 'notification subscriber failed', { channel, error: (err as Error).message });
    }
  }
}

function connect(): Promise<pg.Client> {
  const h = hub();
  if (h.client) return Promise.resolve(h.client);
  h.connecting ??= (async () => {
    const client = new pg.Client({ connectionString: directDatabaseUrl(), keepAlive: true, application_name: HUB_APPLICATION_NAME });
    client.on('notification', (msg) => deliver(msg.channel, msg.payload ?? ''));
    client.on('error', (err) => lost(client, err));
    client.on('end', () => lost(client, new Error('connection ended')));
    let pooled = false;
    try {
      await client.connect();
      pooled = !notificationsInProcess() && (await throughPooler(client));
    } catch (err) {
      h.connecting = undefined;
      client.removeAllListeners();
      await client.end().catch(() => undefined);
      throw err;
    }
    if (pooled && !h.pooled) {
      log(
        'error',
        'the notification connection (LISTEN) goes through a connection pooler, which loses notifications in transaction mode: ' +
          'live updates may not arrive and runner polls read the database instead of the cache; set RUNWAY_DATABASE_DIRECT_URL ' +
          'to the same database reached without the pooler (docs/operations.md, "PgBouncer")',
      );
    }
    h.pooled = pooled;
    h.client = client;
    h.connecting = undefined;
    h.failures = 0;
    keepPinging(client);
    return client;
  })();
  return h.connecting;
}

/** Pings `client` while it is the hub's connection; a ping unanswered in time ends it as lost. */
function keepPinging(client: pg.Client): void {
  const seconds = pingSeconds();
  if (!seconds) return;
  const ms = seconds * 1000;
  const schedule = () => setTimeout(ping, ms).unref();
  const ping = () => {
    if (hub().client !== client) return;
    const deadline = setTimeout(() => lost(client, new Error(`no answer to a ping within ${seconds} s`)), ms).unref();
    client.query('SELECT 1').then(
      () => {
        clearTimeout(deadline);
        schedule();
      },
      (err: Error) => {
        clearTimeout(deadline);
        lost(client, err);
      },
    );
  };
  schedule();
}

/** Tells every subscriber that notifications may be missed from now on (`closed`: for good, by closeHub). */
function announceLost(closed: boolean): void {
  for (const set of hub().subscribers.values()) {
    for (const s of [...set]) {
      try {
        s.onLost?.(closed);
      } catch (err) {
        log('warn', 'notification subscriber failed on loss', { error: (err as Error).message });
      }
    }
  }
}

function lost(client: pg.Client, err: Error): void {
  const h = hub();
  if (h.client !== client) return;
  h.client = undefined;
  h.listening.clear();
  client.removeAllListeners();
  client.on('error', () => undefined);
  client.end().catch(() => undefined);
  if (h.closed) return;
  announceLost(false);
  log('warn', 'notification connection lost', { error: err.message });
  scheduleReconnect();
}

function scheduleReconnect(): void {
  const h = hub();
  if (h.reconnectTimer || h.closed) return;
  const delay = Math.min(MAX_BACKOFF_MS, 100 * 2 ** h.failures);
  h.failures += 1;
  h.reconnectTimer = setTimeout(() => {
    h.reconnectTimer = undefined;
    void reconnect();
  }, delay);
  h.reconnectTimer.unref();
}

async function reconnect(): Promise<void> {
  const h = hub();
  if (h.closed || h.subscribers.size === 0) return;
  try {
    await Promise.all([...h.subscribers.keys()].map(listen));
  } catch (err) {
    log('warn', 'notification connection failed', { error: (err as Error).message });
    scheduleReconnect();
    return;
  }
  log('info', 'notification connection restored', { channels: h.subscribers.size });
  for (const set of h.subscribers.values()) {
    for (const s of [...set]) {
      try {
        s.onReconnect?.();
      } catch (err) {
        log('warn', 'notification subscriber failed on reconnect', { error: (err as Error).message });
      }
    }
  }
}

/** LISTEN on `channel` on the current connection (once per connection). */
function listen(channel: string): Promise<void> {
  const h = hub();
  let done = h.listening.get(channel);
  if (!done) {
    done = connect()
      .then((client) => client.query(`LISTEN ${channel}`))
      .then(() => undefined);
    h.listening.set(channel, done);
    done.catch(() => {
      if (h.listening.get(channel) === done) h.listening.delete(channel);
    });
  }
  return done;
}

/**
 * The embedded database has one session, shared by every socket: a LISTEN issued through the pool holds for
 * the session, and PostgreSQL then sends each notification (a trigger's, on commit) to the connection whose
 * transaction committed, which is this process's own pool connection (lib/db/client.ts forwards it here).
 * So the triggers reach in-process subscribers too; only a `runway` command's changes, committed on its
 * own socket, are not seen.
 */
async function listenOnSharedSession(channel: string): Promise<void> {
  const h = hub();
  if (h.listening.has(channel)) return h.listening.get(channel);
  const done = db()
    .$executeRawUnsafe(`LISTEN ${channel}`)
    .then(() => undefined);
  h.listening.set(channel, done);
  done.catch(() => {
    if (h.listening.get(channel) === done) h.listening.delete(channel);
  });
  return done;
}

/** Called by the pool's connections with the notifications they receive (only the embedded session has any). */
export function deliverPoolNotification(channel: string, payload: string): void {
  if (notificationsInProcess()) deliver(channel, payload);
}

/**
 * Calls `onMessage` with the payload of every notification on `channel`, from any Runway instance, once
 * the LISTEN is in place (so a change committed after this resolves is seen). `onLost` is called as soon
 * as the connection is lost (`closed` true when closeHub ended the subscription), `onReconnect` after it
 * was restored. Resolves to the function that unsubscribes.
 */
export async function subscribe(
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect?: () => void,
  onLost?: (closed: boolean) => void,
): Promise<Unsubscribe> {
  checkChannel(channel);
  const h = hub();
  h.closed = false;
  const sub: Subscriber = { onMessage, onReconnect, onLost };
  let set = h.subscribers.get(channel);
  if (!set) h.subscribers.set(channel, (set = new Set()));
  set.add(sub);
  const unsubscribe = () => {
    const current = h.subscribers.get(channel);
    if (!current?.delete(sub) || current.size) return;
    h.subscribers.delete(channel);
    const wasListening = h.listening.get(channel);
    h.listening.delete(channel);
    const client = h.client;
    if (wasListening && client) {
      void wasListening.then(() => client.query(`UNLISTEN ${channel}`)).catch(() => undefined);
    }
  };
  if (notificationsInProcess()) {
    await listenOnSharedSession(channel);
    return unsubscribe;
  }
  try {
    await listen(channel);
  } catch (err) {
    unsubscribe();
    throw err;
  }
  return unsubscribe;
}

/**
 * Sends `payload` to every subscriber of `channel` in every Runway instance. Inside a transaction
 * (pass its client) it is delivered on commit only, as PostgreSQL's NOTIFY is.
 */
export async function notifyChannel(channel: string, payload: string, tx: { $executeRaw: ReturnType<typeof db>['$executeRaw'] } = db()): Promise<void> {
  checkChannel(channel);
  if (notificationsInProcess()) {
    // Asynchronous, as a notification from the database would be.
    setImmediate(() => deliver(channel, payload));
    return;
  }
  await tx.$executeRaw`SELECT pg_notify(${channel}, ${payload})`;
}

/**
 * A protocol Sync on the LISTEN connection, as a node-postgres Submittable: PostgreSQL answers it with
 * ReadyForQuery, and sends every notification it holds for this session before that (postgres.c delivers
 * pending notifies before ReadyForQuery). A Sync outside a transaction starts none, so it costs the
 * database no transaction. The client queues it like any query, so it never interleaves with one.
 */
class SyncBarrier {
  constructor(private readonly done: (ok: boolean) => void) {}
  submit(connection: { sync(): void }): void {
    connection.sync();
  }
  handleReadyForQuery(): void {
    this.done(true);
  }
  handleError(): void {
    this.done(false);
  }
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}
  handleCommandComplete(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/** A barrier not answered within this is treated as a lost connection's (false: read the database). */
const BARRIER_TIMEOUT_MS = 2_000;

function barrier(): Promise<boolean> {
  const { client, pooled } = hub();
  if (!client || pooled) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS).unref();
    const done = (ok: boolean) => {
      clearTimeout(timer);
      // Only while it is still the hub's connection: a connection lost meanwhile may have missed some.
      resolve(ok && hub().client === client);
    };
    try {
      void client.query(new SyncBarrier(done) as unknown as pg.Submittable);
    } catch {
      done(false);
    }
  });
}

interface BarrierState {
  current?: Promise<boolean>;
  queued?: Promise<boolean>;
}
const barriers = globalThis as typeof globalThis & { __runwayHubBarrier?: BarrierState };

/**
 * Resolves true once every notification committed before this call has been delivered to this process's
 * subscribers, false when that cannot be known (no LISTEN connection, or it was lost): a commit
 * acknowledged to anyone before the call has signalled this session's backend, so its notification
 * precedes the Sync's answer. Concurrent callers share one Sync, but never one sent before they called.
 */
export function notificationsCaughtUp(): Promise<boolean> {
  const b = (barriers.__runwayHubBarrier ??= {});
  if (b.queued) return b.queued;
  if (!b.current) {
    b.current = barrier().finally(() => (b.current = undefined));
    return b.current;
  }
  b.queued = b.current.then(() => {
    b.queued = undefined;
    return notificationsCaughtUp();
  });
  return b.queued;
}

/** Closes the LISTEN connection (server shutdown, tests); a later subscribe opens it again. */
export async function closeHub(): Promise<void> {
  const h = hub();
  h.closed = true;
  if (h.reconnectTimer) clearTimeout(h.reconnectTimer);
  h.reconnectTimer = undefined;
  announceLost(true);
  h.subscribers.clear();
  h.listening.clear();
  const client = h.client ?? (await h.connecting?.catch(() => undefined));
  h.client = undefined;
  if (client) {
    client.removeAllListeners();
    client.on('error', () => undefined);
    await client.end().catch(() => undefined);
  }
}

/** The channel token and user changes are announced on (triggers in prisma/migrations/*_credential_change_notifications). */
export const CREDENTIAL_CHANGES_CHANNEL = 'runway_credential_changes';

/** The channel runner changes are announced on (triggers in prisma/migrations/*_runner_change_notifications). */
export const RUNNER_CHANGES_CHANNEL = 'runway_runner_changes';

export interface RunnerChange {
  id: number;
  op: 'INSERT' | 'UPDATE' | 'DELETE';
  table: string;
}

/** The payload of a runway_runner_changes notification, or null when it is not one. */
export function parseRunnerChange(payload: string): RunnerChange | null {
  try {
    const v = JSON.parse(payload) as Partial<RunnerChange>;
    if (!Number.isInteger(v.id) || !['INSERT', 'UPDATE', 'DELETE'].includes(v.op as string) || typeof v.table !== 'string') return null;
    return v as RunnerChange;
  } catch {
    return null;
  }
}
