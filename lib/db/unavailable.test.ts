import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable';

const err = (message: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(message), fields);

describe('[OPS] isDatabaseUnavailable', () => {
  it('recognises lost or refused connections, from pg directly or wrapped by Prisma', () => {
    for (const e of [
      err('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }),
      err('Connection terminated unexpectedly'),
      err('timeout exceeded when trying to connect'),
      err('terminating connection due to administrator command', { code: '57P01' }),
      err('database "x" is not currently accepting connections', { code: '55000' }),
      err('too many connections for database "x"', { code: '53300' }),
      err('Timed out fetching a new connection from the connection pool.', { code: 'P2024' }),
      err('driver adapter error', { cause: { kind: 'DatabaseNotReachable' } }),
      err('Invalid `prisma.user.findMany()` invocation', { meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P01' } } } }),
      err('wrapped', { cause: err('inner', { code: 'ECONNRESET' }) }),
    ]) {
      expect(isDatabaseUnavailable(e), e.message).toBe(true);
    }
  });

  it('leaves bugs and data errors alone', () => {
    for (const e of [
      err('Cannot read properties of undefined'),
      err('duplicate key value violates unique constraint', { code: '23505' }),
      err('Unique constraint failed', { code: 'P2002' }),
      err('value too long', { cause: { kind: 'LengthMismatch' } }),
      'a string',
      null,
    ]) {
      expect(isDatabaseUnavailable(e)).toBe(false);
    }
  });
});
