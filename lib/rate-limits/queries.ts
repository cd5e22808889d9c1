// Rate-limit counters in PostgreSQL: one upsert per counted request, fixed windows aligned to the epoch
// (as Rack::Attack's cache keys), and the database's clock, so every instance agrees on the window.
import { db } from '../db/client';
import { sql } from '../db/sql';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** The database's time, in whole Unix seconds. */
  now: number;
}

export async function countRequest(key: string, period: number): Promise<WindowCount> {
  const rows = await db().$queryRaw<WindowCount[]>(sql`
    INSERT INTO rate_limit_counters AS c (key, window_start, expires_at, count)
    SELECT ${key}, to_timestamp(w.start), to_timestamp(w.start + ${period}::int), 1
      FROM (SELECT floor(extract(epoch FROM now()) / ${period}::int) * ${period}::int AS start) w
    ON CONFLICT (key, window_start) DO UPDATE SET count = c.count + 1
    RETURNING c.count, floor(extract(epoch FROM now()))::float8 AS now`);
  return rows[0];
}

/** Deletes the windows that have ended; returns how many. */
export async function deleteExpiredCounters(): Promise<number> {
  return db().$executeRaw`DELETE FROM rate_limit_counters WHERE expires_at < now()`;
}
