// `runway backup` and `runway restore`: one folder (mode 0700, files 0600) with what a restore needs: the
// database (pg_dump's custom format, taken over the direct URL so a transaction pooler never sits in between),
// the secret file (sessions are signed with it), and on the embedded database the data folder itself, copied
// while Runway is stopped (PGlite's files are written from its process). manifest.json stamps the Runway
// version and the last migration; a restore refuses a backup from a newer Runway, whose schema this one
// does not know.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { readEnv } from '../lib/config/env';
import { buildInfo } from '../lib/config/build-info';
import { dataDir } from '../lib/config/paths';
import { embeddedDatabaseHolder } from '../lib/db/embedded';
import { UsageError } from './args';

export const MANIFEST = 'manifest.json';
const DUMP = 'database.dump';
const SECRET = 'secret';
const DATA = 'data';

export interface Manifest {
  format: 1;
  version: string;
  revision: string;
  created: string;
  database: 'postgresql' | 'embedded';
  /** The newest migration the database had: a restore needs a Runway that ships it. */
  lastMigration: string | null;
  secret: boolean;
}

/** Compares dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number(x) || 0);
  const pb = b.split(/[.-]/).map((x) => Number(x) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

function run(cmd: string, args: string[], what: string): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: process.env });
  if (r.error) throw new Error(`${what}: ${cmd} could not run (${r.error.message}); install PostgreSQL's client tools`);
  if (r.status !== 0) throw new Error(`${what} failed: ${r.stderr.trim() || `${cmd} exited ${r.status}`}`);
}

function writePrivate(file: string, content: string): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600); // whatever the umask
}

async function lastMigration(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ name: string }>(
      'SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name DESC LIMIT 1',
    );
    return r.rows[0]?.name ?? null;
  } finally {
    await c.end();
  }
}

async function refuseWhileEmbeddedRuns(dir: string, doing: string): Promise<void> {
  const holder = await embeddedDatabaseHolder(path.join(dir, 'pgdata'));
  if (holder) throw new Error(`the Runway process ${holder.pid} holds the embedded database in ${dir}: stop it before ${doing} (systemctl stop runway)`);
}

/** Writes a backup into `target` (created, must be empty); returns its manifest. */
export async function backup(target: string): Promise<Manifest> {
  const env = readEnv();
  if (existsSync(target) && readdirSync(target).length) throw new UsageError(`${target} is not empty`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
  const info = buildInfo();
  let database: Manifest['database'];
  let migration: string | null;
  if (env.DATABASE_URL) {
    database = 'postgresql';
    const url = env.RUNWAY_DATABASE_DIRECT_URL ?? env.DATABASE_URL;
    migration = await lastMigration(url);
    const file = path.join(target, DUMP);
    run('pg_dump', ['--format=custom', `--file=${file}`, url], 'pg_dump');
    chmodSync(file, 0o600);
  } else {
    database = 'embedded';
    const dir = dataDir();
    await refuseWhileEmbeddedRuns(dir, 'a backup');
    migration = null;
    cpSync(dir, path.join(target, DATA), { recursive: true, preserveTimestamps: true });
    chmodSync(path.join(target, DATA), 0o700);
  }
  const secretFile = env.RUNWAY_SECRET_FILE;
  if (secretFile) writePrivate(path.join(target, SECRET), readFileSync(secretFile, 'utf8'));
  const manifest: Manifest = {
    format: 1,
    version: info.version,
    revision: info.revision,
    created: new Date().toISOString(),
    database,
    lastMigration: migration,
    secret: !!secretFile,
  };
  writePrivate(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function isEmptyDatabase(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
    return r.rows[0].n === 0;
  } finally {
    await c.end();
  }
}

/** Restores `source` into the configured database (empty), data folder and secret file; returns notes for the operator. */
export async function restore(source: string): Promise<string[]> {
  const manifestFile = path.join(source, MANIFEST);
  if (!existsSync(manifestFile)) throw new UsageError(`${source} is not a Runway backup (no ${MANIFEST})`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const notes: string[] = [];
  // On a new machine the settings name a secret file that only the backup has: put it there first, so
  // that the configuration (which requires the file) is valid.
  const secretTarget = process.env.RUNWAY_SECRET_FILE;
  if (manifest.secret && secretTarget && !existsSync(secretTarget)) {
    writePrivate(secretTarget, readFileSync(path.join(source, SECRET), 'utf8'));
    notes.push(`secret written to ${secretTarget} (mode 0600)`);
  }
  const env = readEnv();
  const running = buildInfo().version;
  if (manifest.format !== 1) throw new Error(`backup format ${manifest.format} is unknown to Runway ${running}`);
  if (compareVersions(manifest.version, running) > 0) {
    throw new Error(`the backup is from Runway ${manifest.version}, newer than this Runway ${running}: restore it with ${manifest.version} or later`);
  }
  const { loadMigrationList } = await import('../lib/db/migrations');
  const shipped = (await loadMigrationList()).migrationDirectories.map((m: { path: string }) => m.path);
  if (manifest.lastMigration && !shipped.includes(manifest.lastMigration)) {
    throw new Error(`the backup's schema has migration ${manifest.lastMigration}, which this Runway (${running}) does not ship`);
  }
  if (manifest.database === 'postgresql') {
    if (!env.DATABASE_URL) throw new UsageError('the backup is of a PostgreSQL database: set DATABASE_URL (an empty database) to restore it');
    const url = env.RUNWAY_DATABASE_DIRECT_URL ?? env.DATABASE_URL;
    if (!(await isEmptyDatabase(url))) throw new Error('the database in DATABASE_URL is not empty: restore into a new, empty database');
    run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${url}`, path.join(source, DUMP)], 'pg_restore');
    notes.push('database restored; `runway start` applies any migration the backup predates');
  } else {
    if (env.DATABASE_URL) throw new UsageError('the backup is of the embedded database: unset DATABASE_URL to restore it into the data folder');
    const dir = dataDir();
    await refuseWhileEmbeddedRuns(dir, 'a restore');
    if (existsSync(path.join(dir, 'pgdata'))) throw new Error(`${dir} already holds a database: move it away first`);
    cpSync(path.join(source, DATA), dir, { recursive: true, preserveTimestamps: true });
    chmodSync(dir, 0o700);
    notes.push(`data folder restored into ${dir}`);
  }
  if (manifest.secret) {
    const saved = readFileSync(path.join(source, SECRET), 'utf8');
    const file = env.RUNWAY_SECRET_FILE;
    if (!file)
      notes.push(
        `the backup holds a secret file (${path.join(source, SECRET)}): set RUNWAY_SECRET_FILE to a copy (mode 0600), or sessions signed before the backup end`,
      );
    else if (readFileSync(file, 'utf8').trim() !== saved.trim()) {
      notes.push(`${file} differs from the backup's secret: dashboard sessions from before the backup are signed out (tokens keep working)`);
    }
  }
  return notes;
}
