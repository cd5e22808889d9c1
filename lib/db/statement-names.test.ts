// Named statements: one name per distinct text, bounded, prepared on a PostgreSQL server's connections, and
// never on the embedded database, whose connections (of every process) share its one session.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { db, disconnectDb } from './client';
import { queryRows } from './query';
import { sql } from './sql';
import { useInMemoryDatabase, useServerDatabase } from './test-database';
import { needsServer } from './test-server';
import { preparedStatementsEnabled, sessionAwareNamer, statementNamer } from './statement-names';

const prepared = async () => (await db().$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements`).map((r) => r.statement);

/** Sets RUNWAY_DB_PREPARED_STATEMENTS and the pool size, and opens a new pool (as a new process would). */
async function reopen(allowed: string | undefined, poolMax: number): Promise<void> {
  if (allowed === undefined) delete process.env.RUNWAY_DB_PREPARED_STATEMENTS;
  else process.env.RUNWAY_DB_PREPARED_STATEMENTS = allowed;
  process.env.RUNWAY_DB_POOL_MAX = String(poolMax);
  await disconnectDb();
}

afterAll(() => {
  delete process.env.RUNWAY_DB_PREPARED_STATEMENTS;
  delete process.env.RUNWAY_DB_POOL_MAX;
});

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

  it('names nothing until the database answers that each connection has a session of its own', async () => {
    const asked: Array<(shared: boolean) => void> = [];
    const fail: Array<(err: Error) => void> = [];
    const name = sessionAwareNamer(() => new Promise<boolean>((resolve, reject) => (asked.push(resolve), fail.push(reject))));
    expect(name({ sql: 'SELECT 1' })).toBeUndefined();
    expect(name({ sql: 'SELECT 1' })).toBeUndefined();
    expect(asked).toHaveLength(1);
    // A failed answer (the database was away) is asked again by the next statement.
    fail[0](new Error('connection refused'));
    await expect.poll(() => (name({ sql: 'SELECT 1' }), asked.length)).toBe(2);
    asked[1](false);
    await expect.poll(() => name({ sql: 'SELECT 1' })).toBe('rw0');

    const shared = sessionAwareNamer(async () => true);
    expect(shared({ sql: 'SELECT 1' })).toBeUndefined();
    await new Promise((r) => setTimeout(r, 10));
    expect(shared({ sql: 'SELECT 1' })).toBeUndefined();
  });

  describe('on the embedded database', () => {
    useInMemoryDatabase({ migrate: false });

    // Before: each pool connection, and each process after another one, prepared "rw0" again on the one
    // session and failed with 42P05 (the API tests that open the database while the server runs).
    it('names nothing, even when allowed: connections of one pool and of a later process run the same statements', async () => {
      for (const allowed of [undefined, 'true']) {
        // Two connections: the embedded server takes four sockets, and the last pool's may not be gone yet.
        await reopen(allowed, 2);
        for (let round = 0; round < 2; round++) {
          const doubled = await Promise.all([1, 2].map((n) => db().$queryRaw<{ doubled: number }[]>`SELECT ${n}::int * 2 AS doubled`));
          expect(doubled).toEqual([[{ doubled: 2 }], [{ doubled: 4 }]]);
          const rows = await Promise.all([4, 5].map((n) => queryRows<{ tripled: number }>(sql`SELECT ${n}::int * 3 AS tripled`)));
          expect(rows).toEqual([[{ tripled: 12 }], [{ tripled: 15 }]]);
          await reopen(allowed, 2);
        }
      }
      expect(await prepared()).toEqual([]);
    });
  });

  describe('on a PostgreSQL server', needsServer('what it checks is prepared on a connection of its own'), () => {
    useServerDatabase(`runway_test_statement_names_${process.pid}`);
    afterEach(() => reopen(undefined, 1));

    it('prepares nothing when turned off', async () => {
      await reopen('false', 1);
      for (const n of [1, 2, 3]) await db().$queryRaw`SELECT ${n}::int AS off`;
      expect(await prepared()).toEqual([]);
    });

    it('prepares each statement once per connection and reuses it with new parameters', async () => {
      await reopen(undefined, 1);
      for (const n of [1, 2, 3]) expect(await db().$queryRaw<{ n: number }[]>`SELECT ${n}::int + 1 AS n`).toEqual([{ n: n + 1 }]);
      for (const n of [1, 2, 3]) expect(await queryRows<{ n: number }>(sql`SELECT ${n}::int + 2 AS n`)).toEqual([{ n: n + 2 }]);
      const statements = await prepared();
      expect(statements.filter((s) => s.includes('+ 1 AS n'))).toHaveLength(1);
      expect(statements.filter((s) => s.includes('+ 2 AS n'))).toHaveLength(1);
    });
  });
});
