// Two demo seeds at once (two instances started with --demo on one database): both finish, and the demo
// exists once. Without the seed lock both found nothing and the second failed on a unique username.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from '../db/client';
import { applyMigrations } from '../db/migrations';
import { useServerDatabase } from '../db/test-database';
import { needsServer } from '../db/test-server';
import { seedPlatformDemo } from './platform';
import { seedRunnersDemo } from './runners';

describe('[SEED] concurrent demo seeds', needsServer('two transactions at once on separate connections'), () => {
  useServerDatabase(`runway_test_seed_lock_${process.pid}`);

  beforeAll(async () => {
    await applyMigrations(process.env.RUNWAY_RESOLVED_DATABASE_URL!, { lock: false });
    // A pool of several connections, as two processes would have.
    process.env.RUNWAY_DB_POOL_MAX = '4';
    await disconnectDb();
  }, 120_000);

  afterAll(() => {
    delete process.env.RUNWAY_DB_POOL_MAX;
  });

  it('lets both finish and seeds the demo once', async () => {
    const [first, second] = await Promise.all([seedPlatformDemo(), seedPlatformDemo()]);
    expect(second).toEqual(first);
    await Promise.all([seedRunnersDemo(), seedRunnersDemo()]);
    const users = await db().user.count({ where: { id: { in: Object.values(first.users) } } });
    expect(users).toBe(Object.keys(first.users).length);
    const markers = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM ci_runners GROUP BY description HAVING count(*) > 1`;
    expect(markers).toEqual([]);
  }, 180_000);
});
