// Named statements: one name per distinct text, bounded, and really prepared on the connection.
import { afterAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from './client';
import { useInMemoryDatabase } from './test-database';
import { preparedStatementsEnabled, statementNamer } from './statement-names';

describe('[DB] statement names', () => {
  it('gives one text one name, distinct texts distinct names, and stops naming past the limit', () => {
    const name = statementNamer(2);
    const a = name({ sql: 'SELECT 1' });
    expect(a).toMatch(/^rw\d+$/);
    expect(name({ sql: 'SELECT 1' })).toBe(a);
    const b = name({ sql: 'SELECT 2' });
    expect(b).not.toBe(a);
    expect(name({ sql: 'SELECT 3' })).toBeUndefined();
    expect(name({ sql: 'SELECT 2' })).toBe(b);
  });

  it('is on unless RUNWAY_DB_PREPARED_STATEMENTS turns it off', () => {
    expect(preparedStatementsEnabled({})).toBe(true);
    expect(preparedStatementsEnabled({ RUNWAY_DB_PREPARED_STATEMENTS: 'false' })).toBe(false);
    expect(preparedStatementsEnabled({ RUNWAY_DB_PREPARED_STATEMENTS: '0' })).toBe(false);
    expect(preparedStatementsEnabled({ RUNWAY_DB_PREPARED_STATEMENTS: 'true' })).toBe(true);
  });

  describe('on a real connection', () => {
    useInMemoryDatabase({ migrate: false });
    afterAll(() => {
      delete process.env.RUNWAY_DB_PREPARED_STATEMENTS;
    });

    // The embedded database keeps one session across connections: the unprepared case runs first.
    const prepared = async () => (await db().$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements`).map((r) => r.statement);

    it('prepares nothing when turned off', async () => {
      process.env.RUNWAY_DB_PREPARED_STATEMENTS = 'false';
      await disconnectDb();
      await db().$queryRaw`SELECT 2 AS off`;
      expect(await prepared()).toEqual([]);
    });

    it('prepares each statement once and reuses it with new parameters', async () => {
      process.env.RUNWAY_DB_PREPARED_STATEMENTS = 'true';
      await disconnectDb();
      for (const n of [1, 2, 3]) expect(await db().$queryRaw<{ n: number }[]>`SELECT ${n}::int + 1 AS n`).toEqual([{ n: n + 1 }]);
      const statements = await prepared();
      expect(statements.filter((s) => s.includes('+ 1 AS n'))).toHaveLength(1);
    });
  });
});
