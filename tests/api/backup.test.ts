// The operator's guide's backup and restore, run as written: each `<!-- script: name -->` block of
// docs/operations.md runs in bash with the variables it names, and a Runway started on what was restored
// still knows the token made before the backup.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { needsServer } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { runDocScript } from '../support/doc-scripts';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';

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
      runDocScript('backup-postgresql', { DATABASE_URL: source.env.DATABASE_URL, BACKUP_FILE: backupFile });

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
