// The counters' SQL on a real (in-memory) PostgreSQL: one row per key and window, expired windows deleted.
import { describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { useInMemoryDatabase } from '../db/test-database';
import { countRequest, deleteExpiredCounters } from './queries';

describe('[LIMITS] rate-limit counters', () => {
  useInMemoryDatabase({ migrate: true });

  it('counts per key within a window aligned to the period', async () => {
    // A period of a day: the window cannot end between these statements in practice.
    const period = 86_400;
    const first = await countRequest('t:user:1', period);
    const second = await countRequest('t:user:1', period);
    const other = await countRequest('t:user:2', period);
    expect([first.count, second.count, other.count]).toEqual([1, 2, 1]);
    expect(Math.abs(second.now - Date.now() / 1000)).toBeLessThan(5);
    const rows = await db().rateLimitCounter.findMany({ where: { key: 't:user:1' } });
    expect(rows).toHaveLength(1);
    expect((rows[0].windowStart.getTime() / 1000) % period).toBe(0);
    expect(rows[0].expiresAt.getTime() - rows[0].windowStart.getTime()).toBe(period * 1000);
  }, 60_000);

  it('deletes only the windows that have ended', async () => {
    const past = new Date(Date.now() - 120_000);
    await db().rateLimitCounter.create({ data: { key: 't:old', windowStart: new Date(past.getTime() - 60_000), expiresAt: past, count: 9 } });
    await countRequest('t:current', 3600);
    expect(await deleteExpiredCounters()).toBe(1);
    const keys = (await db().rateLimitCounter.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys).not.toContain('t:old');
    expect(keys).toContain('t:current');
  }, 60_000);
});
