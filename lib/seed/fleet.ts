// The fleet overview's history for the demo (part of `RUNWAY_DEMO=true` / `runway seed`): 29 past daily
// snapshots plus today's, so the status chart has a month of history on a fresh database. Past days are
// reconstructed from the demo runners with the status rule of lib/runners/status.ts applied at each day's
// end: a runner existed once created, and one that contacts today was contacting then too (give or take
// a few hours, so some days it shows offline). Idempotent: days that have a snapshot are left alone.
import { db } from '../db/client';
import { sql } from '../db/sql';
import { takeFleetSnapshot } from '../fleet/snapshots';

export const DEMO_HISTORY_DAYS = 30;

export async function seedFleetDemo(): Promise<void> {
  await db().$executeRaw(sql`
    WITH days AS (
      SELECT (now() AT TIME ZONE 'UTC')::date - d AS day, d,
             (((now() AT TIME ZONE 'UTC')::date - d + 1)::timestamp AT TIME ZONE 'UTC') AS day_end
        FROM generate_series(1, ${DEMO_HISTORY_DAYS - 1}::int) d),
    as_of AS (
      SELECT days.day, r.active, r.created_at, days.day_end,
             CASE WHEN r.contacted_at IS NULL THEN NULL
                  WHEN r.contacted_at >= days.day_end THEN days.day_end - ((r.id * 37 + days.d * 11) % 10) * interval '20 minutes'
                  ELSE r.contacted_at END AS contacted_at
        FROM days JOIN ci_runners r ON r.created_at <= days.day_end),
    classified AS (
      SELECT day, CASE
               WHEN greatest(created_at, coalesce(contacted_at, created_at)) <= day_end - interval '7 days' THEN 'stale'
               WHEN contacted_at IS NULL THEN 'never_contacted'
               WHEN NOT active THEN 'paused'
               WHEN contacted_at > day_end - interval '2 hours' THEN 'online'
               ELSE 'offline' END AS s
        FROM as_of)
    INSERT INTO ci_runner_fleet_snapshots (day, online, offline, stale, never_contacted, paused, total, taken_at)
    SELECT day, count(*) FILTER (WHERE s = 'online'), count(*) FILTER (WHERE s = 'offline'), count(*) FILTER (WHERE s = 'stale'),
           count(*) FILTER (WHERE s = 'never_contacted'), count(*) FILTER (WHERE s = 'paused'), count(*),
           (day + 1)::timestamp AT TIME ZONE 'UTC' - interval '1 minute'
      FROM classified GROUP BY day
    ON CONFLICT (day) DO NOTHING`);
  await takeFleetSnapshot();
}
