// The operator's guide's backup and restore, run as written: each `<!-- script: name -->` block of
// docs/operations.md runs in bash with the variables it names, and a Runway started on what was restored
// still knows the token made before the backup.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { needsServer } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { runDocScript } from '../support/doc-scripts';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';
import pkg from '../../package.json';

/** Starts Runway with `env`, and answers whether `token` still names root there. */
async function tokenWorks(env: NodeJS.ProcessEnv, token: string): Promise<boolean> {
  const port = await freePort();
  const server = await startServer(port, { ...env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}` });
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } });
    return res.status === 200 && ((await res.json()) as { username: string }).username === 'root';
  } finally {
    await stopServer(server);
  }
}

function makeToken(env: NodeJS.ProcessEnv): string {
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'backup'], env);
  expect(made.status, made.stderr).toBe(0);
  return made.stdout.trim();
}

describe(
  '[OPS] backup and restore of PostgreSQL (pg_dump, pg_restore)',
  { ...needsServer('pg_dump and pg_restore of a PostgreSQL server'), timeout: 180_000 },
  () => {
    const databases: TestDatabase[] = [];
    afterAll(async () => {
      for (const d of databases) await d.drop();
    });

    it('restores a dump into an empty database that Runway then serves', async () => {
      const source = await freshDatabase(`runway_test_backup_src_${process.pid}`, await freePort());
      databases.push(source);
      const token = makeToken(runwayEnv(source.env));
      const backupFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'runway-backup-')), 'runway.dump');
      // As behind PgBouncer: DATABASE_URL names the pooler, which pg_dump must not go through.
      runDocScript('backup-postgresql', {
        DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/pooler',
        RUNWAY_DATABASE_DIRECT_URL: source.env.DATABASE_URL,
        BACKUP_FILE: backupFile,
      });
      // The dump holds password and token digests: its owner's only.
      expect(statSync(backupFile).mode & 0o777).toBe(0o600);

      // An empty database, made as the guide says: by the role Runway uses (here the test server's).
      const target = await freshDatabase(`runway_test_backup_dst_${process.pid}`, await freePort());
      databases.push(target);
      runDocScript('restore-postgresql', { RESTORE_URL: target.env.DATABASE_URL, BACKUP_FILE: backupFile });
      const check = new pg.Client({ connectionString: target.env.DATABASE_URL });
      await check.connect();
      const { rows } = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM personal_access_tokens');
      await check.end();
      expect(rows[0].n).toBeGreaterThan(0);
      expect(await tokenWorks(runwayEnv(target.env), token)).toBe(true);
    });
  },
);

describe('[OPS] backup and restore of the embedded data folder (stop, copy, start)', { timeout: 300_000 }, () => {
  it('restores a copy of a stopped data folder over a damaged one, and Runway serves it', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'runway-backup-embedded-'));
    const dataDir = path.join(base, 'data');
    const env = (dir: string) => runwayEnv({ DATABASE_URL: '', RUNWAY_DATA_DIR: dir, RUNWAY_EMBEDDED_DB_PORT: '0', RUNWAY_EMBEDDED_MAX_CONNECTIONS: '8' });
    // The command opens the folder, migrates it, makes root and the token, and stops: Runway is not running.
    const token = makeToken(env(dataDir));
    const backupDir = path.join(base, 'backup');
    runDocScript('backup-embedded', { RUNWAY_DATA_DIR: dataDir, BACKUP_DIR: backupDir });

    const restored = path.join(base, 'restored');
    mkdirSync(path.join(restored, 'pgdata'), { recursive: true });
    writeFileSync(path.join(restored, 'pgdata', 'PG_VERSION'), 'damaged');
    runDocScript('restore-embedded', { RUNWAY_DATA_DIR: restored, BACKUP_DIR: backupDir });
    expect(await tokenWorks(env(restored), token)).toBe(true);
  });
});

describe('[OPS] runway backup and runway restore (PostgreSQL)', { ...needsServer('pg_dump and pg_restore of a PostgreSQL server'), timeout: 600_000 }, () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of databases) await d.drop();
  });

  it('backs up the database and the secret file with a version stamp, files 0600, and restores them into an empty database', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'runway-backup-cmd-'));
    const secretFile = path.join(work, 'secret');
    writeFileSync(secretFile, 'backup-secret-0123456789abcdef0123456789abcdef\n', { mode: 0o600 });
    const source = await freshDatabase(`runway_test_backupcmd_src_${process.pid}`, await freePort());
    databases.push(source);
    const sourceEnv = runwayEnv({ ...source.env, RUNWAY_SECRET_FILE: secretFile });
    // One secret only: the suite's NEXTAUTH_SECRET would stand beside the file under test.
    delete sourceEnv.NEXTAUTH_SECRET;
    const token = makeToken(sourceEnv);

    const folder = path.join(work, 'backup');
    const made = cli(['backup', '--to', folder], sourceEnv);
    expect(made.status, made.stderr).toBe(0);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const file of ['manifest.json', 'database.dump', 'secret']) expect(statSync(path.join(folder, file)).mode & 0o777, file).toBe(0o600);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 1, version: pkg.version, database: 'postgresql', secret: true, lastMigration: expect.any(String) });

    const target = await freshDatabase(`runway_test_backupcmd_dst_${process.pid}`, await freePort());
    databases.push(target);
    const restoredSecret = path.join(work, 'restored-secret');
    const targetEnv = runwayEnv({ ...target.env, RUNWAY_SECRET_FILE: restoredSecret });
    delete targetEnv.NEXTAUTH_SECRET;
    const restored = cli(['restore', '--from', folder], targetEnv);
    expect(restored.status, restored.stderr).toBe(0);
    expect(readFileSync(restoredSecret, 'utf8')).toBe(readFileSync(secretFile, 'utf8'));
    expect(statSync(restoredSecret).mode & 0o777).toBe(0o600);
    expect(await tokenWorks(targetEnv, token)).toBe(true);

    // Never over a database in use.
    const again = cli(['restore', '--from', folder], targetEnv);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('not empty');
  });

  it('refuses a backup stamped by a newer Runway', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'runway-backup-newer-'));
    writeFileSync(
      path.join(work, 'manifest.json'),
      JSON.stringify({ format: 1, version: '999.0.0', revision: 'x', created: '', database: 'postgresql', lastMigration: null, secret: false }),
    );
    const target = await freshDatabase(`runway_test_backupcmd_new_${process.pid}`, await freePort());
    databases.push(target);
    const r = cli(['restore', '--from', work], runwayEnv(target.env));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('newer than this Runway');
    expect(existsSync(path.join(work, 'database.dump'))).toBe(false);
  });
});
