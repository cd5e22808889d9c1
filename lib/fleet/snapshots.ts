// The daily snapshot of runners by status, kept by the background worker. One row per UTC day: each run
// upserts today's row with the counts of the moment, so the row ends the day with its last counts, and any
// number of instances running it at once leave exactly one row (INSERT ... ON CONFLICT on the day's key).
import { db } from '../db/client';
import { sql } from '../db/sql';
import { statusCountsSql } from './queries';

/** How often the worker refreshes today's row. */
export const SNAPSHOT_EVERY_MS = 10 * 60_000;

/** Writes (or refreshes) today's snapshot; returns the UTC day it wrote. */
export async function takeFleetSnapshot(): Promise<string> {
  const rows = await db().$queryRaw<Array<{ day: string }>>(sql`
    INSERT INTO ci_runner_fleet_snapshots (day, online, offline, stale, never_contacted, paused, total, taken_at)
    SELECT (now() AT TIME ZONE 'UTC')::date, c.online, c.offline, c.stale, c.never_contacted, c.paused, c.total, now()
      FROM (${statusCountsSql()}) c
    ON CONFLICT (day) DO UPDATE SET online = EXCLUDED.online, offline = EXCLUDED.offline, stale = EXCLUDED.stale,
      never_contacted = EXCLUDED.never_contacted, paused = EXCLUDED.paused, total = EXCLUDED.total, taken_at = EXCLUDED.taken_at
    RETURNING to_char(day, 'YYYY-MM-DD') AS day`);
  return rows[0].day;
}
