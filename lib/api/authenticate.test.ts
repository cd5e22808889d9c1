// The token path reads the user with raw SQL for speed: it must yield exactly what Prisma's model gives.
import { describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { useInMemoryDatabase } from '../db/test-database';
import { insertUser } from '../users/service';
import { insertToken } from '../tokens/service';
import { authenticate } from './authenticate';

describe('[AUTH] token authentication', () => {
  useInMemoryDatabase({ migrate: true });

  it('returns the same user record as the Prisma model, with the token scopes', async () => {
    const user = await db().$transaction((tx) =>
      insertUser(tx, { username: 'raw.sql', name: 'Raw Sql', email: 'raw@example.com', password: 'long-enough-1', bio: 'b' }),
    );
    await db().user.update({ where: { id: user.id }, data: { lastActivityOn: new Date('2026-11-20T00:00:00Z'), currentSignInAt: new Date() } });
    const { value } = await insertToken({ userId: user.id, name: 't', scopes: ['read_api', 'read_user'] });
    const actor = await authenticate(new Request('http://x/api/v4/user', { headers: { 'PRIVATE-TOKEN': value } }), {});
    const model = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(actor?.user).toEqual(model);
    expect(actor?.token?.scopes).toEqual(['read_api', 'read_user']);
    expect(actor?.via).toBe('token');
  }, 60_000);
});
