// The token cache against the PostgreSQL server: an entry is served until a change to its token or its
// user is announced, a revocation, deletion, block, demotion or new expiry is seen on the very next lookup
// after its commit, and nothing is cached while the notification connection is down. Writes made with the
// triggers off (session_replication_role = replica) change a row without a notification: what a lookup
// then returns shows whether it read the cache or the database. Skipped without DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { needsServer } from '../db/test-server';
import { useNotifiedDatabase } from '../db/test-database';
import { closeHub, HUB_APPLICATION_NAME } from '../notifications/hub';
import { digest } from './secrets';
import { cachedTokenCount, findTokenCredential } from './token-cache';

const NAME = `runway_test_token_cache_${process.pid}`;
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('[AUTH] token cache', needsServer('LISTEN/NOTIFY across connections'), () => {
  const other = useNotifiedDatabase(NAME, closeHub);
  let n = 0;

  async function newToken(admin = false): Promise<{ userId: number; tokenId: number; token: string }> {
    const i = ++n;
    const user = await other.query(
      `INSERT INTO users (username, email, name, admin, state, password_digest) VALUES ($1, $2, $1, $3, 'active', 'x') RETURNING id`,
      [`cache-user-${process.pid}-${i}`, `cache-${process.pid}-${i}@example.com`, admin],
    );
    const token = `glpat-cache-test-${process.pid}-${i}`;
    const made = await other.query(
      `INSERT INTO personal_access_tokens (user_id, name, token_digest, scopes) VALUES ($1, 'cache', $2, ARRAY['api']) RETURNING id`,
      [user.rows[0].id, digest(token)],
    );
    return { userId: user.rows[0].id, tokenId: made.rows[0].id, token };
  }

  const lookup = (token: string) => findTokenCredential(digest(token));
  const nameOf = async (token: string) => (await lookup(token))?.user.name;

  it('serves a token and its user from the cache until a change to either is announced', async () => {
    const t = await newToken();
    expect(await nameOf(t.token)).toBe(`cache-user-${process.pid}-${n}`);
    expect(cachedTokenCount()).toBeGreaterThan(0);
    await other.silently(`UPDATE users SET name = 'unseen' WHERE id = $1`, [t.userId]);
    expect(await nameOf(t.token)).toBe(`cache-user-${process.pid}-${n}`);

    await other.query(`UPDATE users SET name = 'renamed' WHERE id = $1`, [t.userId]);
    expect(await nameOf(t.token)).toBe('renamed');
    await other.silently(`UPDATE personal_access_tokens SET scopes = ARRAY['read_api'] WHERE id = $1`, [t.tokenId]);
    expect((await lookup(t.token))?.scopes).toEqual(['api']);
    await other.query(`UPDATE personal_access_tokens SET name = 'renamed' WHERE id = $1`, [t.tokenId]);
    expect((await lookup(t.token))?.scopes).toEqual(['read_api']);
    // The entry's user is shared by the requests it serves: nothing may change it.
    const user = (await lookup(t.token))!.user as { name: string };
    expect(() => {
      user.name = 'changed';
    }).toThrow(TypeError);
  });

  it('sees a revocation, a deletion, a block, a demotion and a new expiry on the very next lookup after the commit, without a pause', async () => {
    const changes: [string, (t: { userId: number; tokenId: number }) => Promise<unknown>, (c: Awaited<ReturnType<typeof lookup>>) => boolean][] = [
      ['revoked', (t) => other.query('UPDATE personal_access_tokens SET revoked = true WHERE id = $1', [t.tokenId]), (c) => c?.revoked === true],
      ['deleted', (t) => other.query('DELETE FROM personal_access_tokens WHERE id = $1', [t.tokenId]), (c) => c === null],
      ['user deleted', (t) => other.query('DELETE FROM users WHERE id = $1', [t.userId]), (c) => c === null],
      ['blocked', (t) => other.query(`UPDATE users SET state = 'blocked' WHERE id = $1`, [t.userId]), (c) => c?.user.state === 'blocked'],
      ['demoted', (t) => other.query('UPDATE users SET admin = false WHERE id = $1', [t.userId]), (c) => c?.user.admin === false],
      [
        'expired',
        (t) => other.query(`UPDATE personal_access_tokens SET expires_at = current_date - 1 WHERE id = $1`, [t.tokenId]),
        (c) => c?.expiresAt !== null && c!.expiresAt!.getTime() < Date.now(),
      ],
    ];
    for (let round = 0; round < 8; round++) {
      for (const [what, change, seen] of changes) {
        const t = await newToken(true);
        expect((await lookup(t.token))?.user.admin).toBe(true);
        expect((await lookup(t.token))?.user.admin).toBe(true);
        await change(t);
        // No settle: the commit was acknowledged, so the cache must not serve the old entry any more.
        expect(seen(await lookup(t.token)), `${what}, round ${round}`).toBe(true);
      }
    }
  });

  it('does not cache a revoked token', async () => {
    const t = await newToken();
    await other.query('UPDATE personal_access_tokens SET revoked = true WHERE id = $1', [t.tokenId]);
    expect((await lookup(t.token))?.revoked).toBe(true);
    await other.silently('UPDATE personal_access_tokens SET revoked = false WHERE id = $1', [t.tokenId]);
    expect((await lookup(t.token))?.revoked).toBe(false);
  });

  it('caches nothing while the notification connection is down, and again once it is back', async () => {
    const t = await newToken();
    expect(await nameOf(t.token)).toBeDefined();
    const { rows } = await other.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [NAME, HUB_APPLICATION_NAME]);
    expect(rows).toHaveLength(1);
    await other.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await settle(50);
    expect(cachedTokenCount()).toBe(0);
    await other.silently(`UPDATE users SET name = 'while down' WHERE id = $1`, [t.userId]);
    expect(await nameOf(t.token)).toBe('while down');
    // Reconnected (backoff from 100 ms): entries are trusted again.
    await settle(1_000);
    expect(await nameOf(t.token)).toBe('while down');
    await other.silently(`UPDATE users SET name = 'unseen' WHERE id = $1`, [t.userId]);
    expect(await nameOf(t.token)).toBe('while down');
  });
});
