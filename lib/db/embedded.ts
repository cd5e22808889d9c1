// The embedded default: a real PostgreSQL (PGlite, WebAssembly) kept under the data folder and served
// on a Unix socket in a folder only Runway's user may open (a loopback port on Windows), so the same pg
// driver, migrations and psql work as with a PostgreSQL server, for that user alone: PGlite checks no
// password, and every local user could reach a loopback port as superuser.
import { chmod, mkdir, mkdtemp, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { SessionQueue } from './embedded-queue';

export interface EmbeddedDatabase {
  url: string;
  /** Records the port in the data folder's lock file, so `runway` commands work through this process. */
  advertise(): Promise<void>;
  stop(): Promise<void>;
}

/** The lock file beside the data folder: the owning process, and its port once it serves clients. */
interface LockRecord {
  pid: number;
  /** A server holds the folder until it stops; a `runway` command for a few seconds. */
  role?: EmbeddedRole;
  /** The socket's number (`.s.PGSQL.<port>`), or the loopback port where there is no socket folder. */
  port?: number;
  /** The folder holding the Unix socket (mode 0700), as psql's `-h` takes it. */
  socket?: string;
}
export type EmbeddedRole = 'server' | 'command';

const lockFile = (dir: string) => `${dir}.lock`;
/** Owner only: the lock file, the data folder and the socket's folder. */
const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;
/** The socket's number when none is configured: psql's default port, so `psql -h <folder>` needs no `-p`. */
export const DEFAULT_SOCKET_PORT = 5432;
// sun_path holds 108 bytes on Linux, 104 on macOS: a longer socket path cannot be bound.
const MAX_SOCKET_PATH = 100;

const urlFor = (where: { port: number; socket?: string }) =>
  where.socket
    ? `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(where.socket)}&port=${where.port}&sslmode=disable`
    : `postgresql://postgres:postgres@127.0.0.1:${where.port}/postgres?sslmode=disable`;

/** Unix sockets where the platform has them and folder modes mean something (not Windows). */
const socketsHere = () => process.platform !== 'win32';

/**
 * The folder the socket goes in: `<data dir>/pgdata.sock`, or a private temporary folder when that path is too
 * long for a socket. Created (or narrowed) to mode 0700 and required to be this user's, so that only Runway's
 * user can open the socket inside: the folder's mode is what guards it (PGlite asks for no password).
 */
async function privateSocketFolder(dir: string, port: number): Promise<string> {
  let folder = `${dir}.sock`;
  if (path.join(folder, `.s.PGSQL.${port}`).length > MAX_SOCKET_PATH) folder = await mkdtemp(path.join(os.tmpdir(), 'runway-pg-'));
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER });
  const info = await stat(folder);
  if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
    throw new Error(`${folder} belongs to another user (uid ${info.uid}): the embedded database's socket needs a folder of Runway's own user`);
  }
  await chmod(folder, PRIVATE_FOLDER);
  // A socket left by a process that died: the data folder's lock is ours, so nobody serves on it.
  await rm(path.join(folder, `.s.PGSQL.${port}`), { force: true });
  return folder;
}

/**
 * Starts PGlite on `dir` (or in memory for `memory://`). PGlite has one real session; the socket server
 * multiplexes up to `maxConnections` sockets onto it and, while a query or transaction is open, serves only
 * the socket that opened it (./embedded-queue.ts). Callers still size their pools to 1; the spare sockets cover a pool handing over
 * to the next one and a psql session.
 */
export async function startEmbeddedDatabase(opts: { dir: string; port?: number; maxConnections?: number; role?: EmbeddedRole }): Promise<EmbeddedDatabase> {
  const role = opts.role ?? 'server';
  const memory = opts.dir === 'memory://';
  let releaseLock = async () => undefined as void;
  if (!memory) {
    await mkdir(path.dirname(opts.dir), { recursive: true });
    releaseLock = await lockDataDir(lockFile(opts.dir), role);
  }
  let socket: string | undefined;
  let port = opts.port ?? 0;
  if (!memory) {
    // The database's files are the whole database: no other user reads them.
    await mkdir(opts.dir, { recursive: true, mode: PRIVATE_FOLDER });
    await chmod(opts.dir, PRIVATE_FOLDER);
    if (socketsHere()) {
      port ||= DEFAULT_SOCKET_PORT;
      socket = await privateSocketFolder(opts.dir, port);
    }
  }
  // pg_trgm: the migrations create it for the commit search's trigram indexes, as on a PostgreSQL server.
  const db = await PGlite.create(memory ? undefined : opts.dir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({
    db,
    ...(socket ? { path: path.join(socket, `.s.PGSQL.${port}`) } : { host: '127.0.0.1', port }),
    maxConnections: opts.maxConnections ?? 4,
  });
  // Before start: each socket's handler takes the server's queue when it connects.
  (server as unknown as { queryQueue: SessionQueue }).queryQueue = new SessionQueue(db);
  await server.start();
  if (!socket) port = Number(server.getServerConn().split(':').pop());
  return {
    url: urlFor({ port, socket }),
    async advertise() {
      if (memory) return;
      // Replaced by a rename, so a reader never sees half a record.
      const file = lockFile(opts.dir);
      await writeFile(`${file}.${process.pid}`, JSON.stringify({ pid: process.pid, role, port, ...(socket ? { socket } : {}) } satisfies LockRecord), {
        mode: PRIVATE_FILE,
      });
      await rename(`${file}.${process.pid}`, file);
    },
    async stop() {
      await server.stop();
      await db.close();
      await releaseLock();
    },
  };
}

// How long opening the folder waits for a `runway` command that holds it to finish.
const COMMAND_WAIT_MS = 60_000;

/**
 * PGlite must never be opened by two processes: a pid file, taken over only from a dead process. A
 * `runway` command holding it is waited for; a server is not (its commands work through it instead).
 */
async function lockDataDir(file: string, role: EmbeddedRole): Promise<() => Promise<void>> {
  const deadline = Date.now() + COMMAND_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(file, 'wx', PRIVATE_FILE);
      await handle.writeFile(JSON.stringify({ pid: process.pid, role } satisfies LockRecord));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await readLock(file);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
        if (holder.role === 'command' && Date.now() < deadline) {
          await sleep(250);
          continue;
        }
        throw new Error(`the embedded database ${path.dirname(file)} is in use by another Runway process (pid ${holder.pid}); stop it, or set DATABASE_URL`);
      }
      await rm(file, { force: true });
    }
  }
}

async function readLock(file: string): Promise<LockRecord | null> {
  const text = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (!text) return null;
  // Older Runway versions wrote the bare pid.
  if (/^\d+$/.test(text)) return { pid: Number(text), role: 'server' };
  try {
    const record = JSON.parse(text) as Partial<LockRecord>;
    if (!Number.isInteger(record.pid)) return null;
    return {
      pid: record.pid as number,
      role: record.role === 'command' ? 'command' : 'server',
      port: Number.isInteger(record.port) ? record.port : undefined,
      socket: typeof record.socket === 'string' && record.socket ? record.socket : undefined,
    };
  } catch {
    return null;
  }
}

export interface EmbeddedHolder {
  pid: number;
  role: EmbeddedRole;
  /** Set once a server has advertised its port: migrated and ready for clients. */
  url?: string;
}

/** The live Runway process that holds `dir`, or null when the folder is free. */
export async function embeddedDatabaseHolder(dir: string): Promise<EmbeddedHolder | null> {
  const record = await readLock(lockFile(dir));
  if (!record || record.pid === process.pid || !isAlive(record.pid)) return null;
  return { pid: record.pid, role: record.role ?? 'server', url: record.port ? urlFor({ port: record.port, socket: record.socket }) : undefined };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
