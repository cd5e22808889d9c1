// Applies and writes migrations with Prisma's own schema engine (its WebAssembly build), so
// `_prisma_migrations` is recorded exactly as `prisma migrate deploy` records it, with no native binary.
import { readFile, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { projectRoot } from '../config/paths';
import { DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS } from '../config/env';
import { log } from '../log/log';
import { throughPooler } from './pooler';

type Engine = import('@prisma/schema-engine-wasm').SchemaEngine;
type MigrationList = import('@prisma/schema-engine-wasm').MigrationList;

export const schemaPath = () => path.join(projectRoot(), 'prisma', 'schema.prisma');
export const migrationsDir = () => path.join(projectRoot(), 'prisma', 'migrations');

// Arbitrary but fixed: every Runway instance contends for the same advisory lock while migrating.
export const MIGRATION_LOCK_KEY = 7_296_451_001;
/** How often a start waiting for the migration lock says so. */
const LOCK_REPORT_MS = 10_000;
const LOCK_RETRY_MS = 500;

/** `runway <command> pid N on host`: what pg_stat_activity shows of a Runway holding the lock (63 bytes kept). */
function lockHolderName(): string {
  const command = process.argv.find((a) => /^[a-z][a-z-]+$/.test(a)) ?? 'runway';
  return `runway ${command} pid ${process.pid} on ${hostname()}`.slice(0, 63);
}

function migrationLockTimeoutSeconds(): number {
  const n = Number(process.env.RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS);
  return process.env.RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS?.trim() && Number.isInteger(n) && n >= 1 ? n : DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS;
}

interface LockHolder {
  pid: number;
  application_name: string;
  client_addr: string | null;
  state: string | null;
  held_since: string | null;
}

/** The sessions holding the migration lock (a bigint advisory lock: classid the high half, objid the low). */
async function migrationLockHolders(client: pg.Client): Promise<LockHolder[]> {
  const { rows } = await client.query<LockHolder>(
    `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.state, a.backend_start::text AS held_since
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.classid = ($1::bigint >> 32)::oid AND l.objid = ($1::bigint & 4294967295)::oid`,
    [MIGRATION_LOCK_KEY],
  );
  return rows;
}

/**
 * Takes the migration lock, saying every LOCK_REPORT_MS that it waits and for whom, and giving up after
 * `timeoutSeconds` (RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS): a start that waits silently and forever for a
 * lock another process (or a pooler's server connection) keeps never serves and never fails.
 */
async function takeMigrationLock(client: pg.Client, timeoutSeconds: number): Promise<void> {
  const began = Date.now();
  let reported = -Infinity;
  for (;;) {
    const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [MIGRATION_LOCK_KEY]);
    if (rows[0]?.taken) {
      if (reported > -Infinity) log('info', 'migration lock taken', { waited_seconds: Math.round((Date.now() - began) / 1000) });
      return;
    }
    const waited = Date.now() - began;
    const holders = await migrationLockHolders(client).catch(() => [] as LockHolder[]);
    const holder = holders[0];
    const fields = {
      waited_seconds: Math.round(waited / 1000),
      timeout_seconds: timeoutSeconds,
      holder_pid: holder?.pid ?? null,
      holder_application_name: holder?.application_name ?? null,
      holder_client_addr: holder?.client_addr ?? null,
      holder_state: holder?.state ?? null,
    };
    if (waited >= timeoutSeconds * 1000) {
      const who = holder ? `PostgreSQL backend ${holder.pid}${holder.application_name ? ` (${holder.application_name})` : ''}` : 'another session';
      log('error', 'gave up waiting for the migration lock', fields);
      throw new Error(
        `gave up waiting for the migration lock after ${timeoutSeconds} s (RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS): held by ${who}; ` +
          'if that is not a Runway migrating, end it with pg_terminate_backend(<pid>)',
      );
    }
    if (Date.now() - reported >= LOCK_REPORT_MS) {
      reported = Date.now();
      log('warn', 'waiting for the migration lock', fields);
    }
    await sleep(LOCK_RETRY_MS);
  }
}

/** Why a session-bound step refuses the pooled URL, and what to set instead. */
export function poolerRefusal(what: string): Error {
  return new Error(
    `DATABASE_URL goes through a connection pooler, and ${what}, which a pooler in transaction mode (PgBouncer) ` +
      'would leave on a server connection it hands to others: set RUNWAY_DATABASE_DIRECT_URL to the same database ' +
      'reached without the pooler (docs/operations.md, "PgBouncer")',
  );
}

/** The committed migrations the database has not applied (all of them when it has none). */
async function pendingMigrations(client: pg.Client, list: MigrationList): Promise<string[]> {
  const done = await client
    .query<{ name: string }>('SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL')
    .then((r) => new Set(r.rows.map((row) => row.name)))
    .catch(() => new Set<string>());
  return (list as unknown as { migrationDirectories: { path: string }[] }).migrationDirectories.map((d) => d.path).filter((name) => !done.has(name));
}

let wasmReady: Promise<typeof import('@prisma/schema-engine-wasm')> | undefined;

/** Instantiates the engine's wasm by hand so Node needs no --experimental-wasm-modules flag. */
function loadEngineModule() {
  wasmReady ??= (async () => {
    // The engine reports Rust panics through this global; without it a panic surfaces as a TypeError.
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void } };
    g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m: string) => console.error(`schema engine panic: ${m}`) };
    const require = createRequire(import.meta.url);
    const bgPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(bgPath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg as never });
    (bg as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return bg as unknown as typeof import('@prisma/schema-engine-wasm');
  })();
  return wasmReady;
}

export async function loadMigrationList(dir = migrationsDir()): Promise<MigrationList> {
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  const migrationDirectories = [];
  for (const name of names) {
    const full = path.join(dir, name);
    if (!(await stat(full)).isDirectory()) continue;
    const content = await readFile(path.join(full, 'migration.sql'), 'utf8').then(
      (c) => ({ tag: 'ok' as const, value: c }),
      (e: Error) => ({ tag: 'error' as const, value: e.message }),
    );
    migrationDirectories.push({ path: name, migrationFile: { path: 'migration.sql', content } });
  }
  const lockPath = path.join(dir, 'migration_lock.toml');
  const lock = await readFile(lockPath, 'utf8').catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: lock },
    shadowDbInitScript: '',
    migrationDirectories,
  } as MigrationList;
}

// The engine reads PostgreSQL's catalogs, whose `"char"` columns (OID 18) the pg adapter refuses to map.
// The pool reports them as text so the adapter accepts the row, and marks which columns they were;
// the adapter wrapper then tells the engine they are characters, which is what it asks for.
const CHAR_OID = 18;
const TEXT_OID = 25;
const CHARACTER_COLUMN = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils
const charColumns = Symbol('charColumns');

function catalogFriendlyPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 1 });
  const query = pool.query.bind(pool) as (...a: unknown[]) => Promise<pg.QueryResult>;
  (pool as unknown as { query: (...a: unknown[]) => Promise<pg.QueryResult> }).query = async (...args) => {
    const result = await query(...args);
    const marked: number[] = [];
    (result?.fields ?? []).forEach((field, i) => {
      if (field.dataTypeID === CHAR_OID) {
        field.dataTypeID = TEXT_OID;
        marked.push(i);
      }
    });
    if (marked.length && Array.isArray(result.rows)) Object.assign(result.rows, { [charColumns]: marked });
    return result;
  };
  return pool;
}

type RawResult = { columnTypes: number[]; rows: unknown[] & { [charColumns]?: number[] } };

function catalogFriendlyFactory(pool: pg.Pool) {
  const base = new PrismaPg(pool);
  const connect = base.connect.bind(base);
  base.connect = async () => {
    const adapter = await connect();
    const queryRaw = adapter.queryRaw.bind(adapter);
    adapter.queryRaw = async (query) => {
      const result = (await queryRaw(query)) as unknown as RawResult;
      for (const i of result.rows[charColumns] ?? []) result.columnTypes[i] = CHARACTER_COLUMN;
      return result as never;
    };
    return adapter;
  };
  return base;
}

async function withEngine<T>(connectionString: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const mod = await loadEngineModule();
  const schema = await readFile(schemaPath(), 'utf8');
  // The pool is ours to end: the engine keeps its connection open otherwise, and the embedded
  // database serves one connection at a time.
  const pool = catalogFriendlyPool(connectionString);
  const factory = bindMigrationAwareSqlAdapterFactory(catalogFriendlyFactory(pool));
  const engine = await mod.SchemaEngine.new({ datamodels: [[schemaPath(), schema]] }, () => undefined, factory);
  try {
    return await fn(engine);
  } finally {
    (engine as unknown as { free?: () => void }).free?.();
    await pool.end().catch(() => undefined);
  }
}

const noFilters = { externalTables: [], externalEnums: [] };

/**
 * Applies pending migrations. With `lock`, holds a PostgreSQL advisory lock so several instances
 * starting at once migrate one after another instead of racing. The lock is a session's, and lives only as
 * long as its connection: behind a pooler in transaction mode callers pass the direct URL
 * (RUNWAY_DATABASE_DIRECT_URL), which the migration itself uses too. `dir` (tests of a migration) reads
 * another folder of migrations, such as the ones before it.
 */
export async function applyMigrations(connectionString: string, opts: { lock: boolean; dir?: string }): Promise<string[]> {
  let lockClient: pg.Client | undefined;
  if (opts.lock) {
    // Named, so that an instance waiting for this lock can say who holds it (pg_stat_activity).
    lockClient = new pg.Client({ connectionString, application_name: lockHolderName() });
    await lockClient.connect();
    try {
      if (await throughPooler(lockClient)) {
        // A database that is up to date needs neither the lock nor the schema engine (which takes a session
        // lock of its own): a `runway` command given only the pooled URL works then, and leaves nothing behind.
        const pending = await pendingMigrations(lockClient, await loadMigrationList(opts.dir));
        await lockClient.end();
        lockClient = undefined;
        if (!pending.length) return [];
        throw poolerRefusal(`migrations are pending (${pending.join(', ')}), and applying them takes a session advisory lock`);
      }
      await takeMigrationLock(lockClient, migrationLockTimeoutSeconds());
      // Up to date (every start after the first of a release): the schema engine, which waits without a bound
      // for a session lock of its own, is not needed.
      if (!opts.dir && !(await pendingMigrations(lockClient, await loadMigrationList())).length) {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        await lockClient.end();
        return [];
      }
    } catch (err) {
      await lockClient?.end().catch(() => undefined);
      throw err;
    }
  }
  try {
    const migrationsList = await loadMigrationList(opts.dir);
    const out = await withEngine(connectionString, (e) => e.applyMigrations({ migrationsList, filters: noFilters }));
    return out.appliedMigrationNames;
  } finally {
    if (lockClient) {
      await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await lockClient.end();
    }
  }
}

/**
 * SQL that takes a database holding exactly the committed migrations to `schema.prisma`.
 * `scratchUrl` must point at an empty database: the migrations are applied there first.
 */
export async function diffMigrationsToSchema(scratchUrl: string): Promise<string> {
  const migrationsList = await loadMigrationList();
  const schema = await readFile(schemaPath(), 'utf8');
  return withEngine(scratchUrl, async (engine) => {
    await engine.applyMigrations({ migrationsList, filters: noFilters });
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files: [{ path: schemaPath(), content: schema }], configDir: projectRoot() } as never,
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath(), content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return (result as unknown as { stdout?: string }).stdout ?? '';
  });
}
