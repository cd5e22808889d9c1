// The committed migrations must reproduce schema.prisma exactly: apply them to an empty PostgreSQL
// (in-memory PGlite) and ask Prisma's engine for the difference, which must be empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';
import { applyMigrations, diffMigrationsToSchema, loadMigrationList } from './migrations';

describe('[DB] migrations', () => {
  let scratch: EmbeddedDatabase;
  beforeAll(async () => {
    scratch = await startEmbeddedDatabase({ dir: 'memory://' });
  }, 60_000);
  afterAll(async () => scratch?.stop());

  it('reproduce schema.prisma with no drift', async () => {
    const sql = await diffMigrationsToSchema(scratch.url);
    expect(sql.replace(/--[^\n]*\n?/g, '').trim()).toBe('');
  }, 60_000);

  it('record _prisma_migrations as prisma migrate deploy does, and apply nothing twice', async () => {
    const db = await startEmbeddedDatabase({ dir: 'memory://' });
    try {
      const names = (await loadMigrationList()).migrationDirectories.map((d) => d.path);
      expect(await applyMigrations(db.url, { lock: false })).toEqual(names);
      expect(await applyMigrations(db.url, { lock: false })).toEqual([]);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const rows = await client.query(
        'SELECT migration_name, finished_at, rolled_back_at, applied_steps_count, checksum FROM _prisma_migrations ORDER BY migration_name',
      );
      await client.end();
      expect(rows.rows.map((r) => r.migration_name)).toEqual(names);
      for (const r of rows.rows) {
        expect(r.finished_at).not.toBeNull();
        expect(r.rolled_back_at).toBeNull();
        expect(r.applied_steps_count).toBe(1);
        expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      }
    } finally {
      await db.stop();
    }
  }, 60_000);
});
