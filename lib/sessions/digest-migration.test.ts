// The migration that stores sessions by digest keeps the sessions signed in before it: on the embedded
// database (PGlite, as `npm run demo` runs it), each old row's id becomes the digest the code looks it up by.
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded';
import { applyMigrations, migrationsDir } from '../db/migrations';
import { sessionDigest } from './service';

const DIGEST_MIGRATION = '20261126120000_session_id_digests';

describe('[SESSIONS] the session digest migration', () => {
  let database: EmbeddedDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await startEmbeddedDatabase({ dir: 'memory://' });
    const before = mkdtempSync(path.join(os.tmpdir(), 'runway-migrations-before-'));
    for (const name of readdirSync(migrationsDir())) {
      if (name < DIGEST_MIGRATION || name === 'migration_lock.toml') cpSync(path.join(migrationsDir(), name), path.join(before, name), { recursive: true });
    }
    await applyMigrations(database.url, { lock: false, dir: before });
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await database?.stop();
  });

  it('digests every stored session id in place, as the code digests the id its cookie carries', async () => {
    const [{ id: userId }] = (
      await client.query("INSERT INTO users (username, name, email, password_digest) VALUES ('old', 'Old', 'old@example.com', 'x') RETURNING id")
    ).rows;
    const sids = [randomUUID(), randomUUID()];
    for (const sid of sids) {
      await client.query("INSERT INTO user_sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [sid, userId]);
    }
    await client.end();
    expect(await applyMigrations(database.url, { lock: false })).toContain(DIGEST_MIGRATION);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const rows = (await client.query('SELECT to_jsonb(s) AS row FROM user_sessions s ORDER BY created_at')).rows.map((r) => r.row as Record<string, unknown>);
    expect(rows.map((r) => r.id_digest).sort()).toEqual(sids.map(sessionDigest).sort());
    for (const sid of sids) expect(JSON.stringify(rows)).not.toContain(sid);
  }, 60_000);
});
