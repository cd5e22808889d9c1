// The fleet overview's reads. Every figure is aggregated by PostgreSQL in one statement per chart; the
// server never walks rows. Days are UTC days.
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { statusCase } from '../runners/status';

export interface StatusCounts {
  online: number;
  offline: number;
  stale: number;
  never_contacted: number;
  paused: number;
  total: number;
}

/** Runners by their one status now: a single pass over ci_runners. */
export const statusCountsSql = () => sql`
  SELECT count(*) FILTER (WHERE s = 'online')::int AS online,
         count(*) FILTER (WHERE s = 'offline')::int AS offline,
         count(*) FILTER (WHERE s = 'stale')::int AS stale,
         count(*) FILTER (WHERE s = 'never_contacted')::int AS never_contacted,
         count(*) FILTER (WHERE s = 'paused')::int AS paused,
         count(*)::int AS total
    FROM (SELECT ${statusCase('r')} AS s FROM ci_runners r) st`;

export async function statusCounts(): Promise<StatusCounts> {
  const [row] = await queryRows<StatusCounts>(statusCountsSql());
  return row;
}

/** The last `days` UTC days, oldest first; a day without a snapshot has no counts. */
export async function statusHistory(days: number): Promise<Array<{ date: string } & { [K in keyof StatusCounts]: number | null }>> {
  return queryRows(sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, s.online, s.offline, s.stale, s.never_contacted, s.paused, s.total
      FROM generate_series((now() AT TIME ZONE 'UTC')::date - (${days}::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
      LEFT JOIN ci_runner_fleet_snapshots s ON s.day = d.day::date
     ORDER BY d.day`);
}

export interface VersionRow {
  version: string;
  managers: number;
  runners: number;
  newest: boolean;
  outdated: boolean;
}

export interface VersionSummary {
  newest_version: string | null;
  versions_count: number;
  managers: number;
  runners: number;
  outdated_managers: number;
  outdated_runners: number;
}

/** At most this many versions are listed (newest first); the summary counts all of them. */
export const VERSIONS_LIMIT = 100;

// `major.minor.patch` at the start of a version string ("17.5.0~beta.12.gabc", "v16.11.1" parse too).
// A version is outdated when it is more than one minor release behind the newest: an older major, or the
// same major and a minor two or more below. Unparseable versions are neither newest nor outdated.
const VERSIONS = sql`
  WITH v AS (
    SELECT m.version, count(*)::int AS managers, count(DISTINCT m.runner_id)::int AS runners,
           (regexp_match(m.version, '^v?(\\d{1,9})\\.(\\d{1,9})(?:\\.(\\d{1,9}))?'))::int[] AS parts
      FROM ci_runner_machines m WHERE m.version IS NOT NULL AND m.version <> ''
     GROUP BY m.version),
  newest AS (SELECT version, parts FROM v WHERE parts IS NOT NULL ORDER BY parts[1] DESC, parts[2] DESC, coalesce(parts[3], 0) DESC, version DESC LIMIT 1),
  flagged AS (
    SELECT v.*, coalesce(v.version = n.version, false) AS newest,
           coalesce(v.parts[1] < n.parts[1] OR (v.parts[1] = n.parts[1] AND v.parts[2] < n.parts[2] - 1), false) AS outdated
      FROM v LEFT JOIN newest n ON true)`;

export async function versionRows(): Promise<VersionRow[]> {
  return queryRows<VersionRow>(sql`${VERSIONS}
    SELECT version, managers, runners, newest, outdated FROM flagged
     ORDER BY parts[1] DESC NULLS LAST, parts[2] DESC NULLS LAST, coalesce(parts[3], 0) DESC, version DESC
     LIMIT ${VERSIONS_LIMIT}`);
}

export async function versionSummary(): Promise<VersionSummary> {
  // Runners are counted once even when their managers run several versions.
  const [row] = await queryRows<VersionSummary>(sql`${VERSIONS}
    SELECT (SELECT version FROM flagged WHERE newest) AS newest_version,
           (SELECT count(*)::int FROM flagged) AS versions_count,
           (SELECT count(*)::int FROM ci_runner_machines WHERE version IS NOT NULL AND version <> '') AS managers,
           (SELECT count(DISTINCT runner_id)::int FROM ci_runner_machines WHERE version IS NOT NULL AND version <> '') AS runners,
           (SELECT coalesce(sum(managers), 0)::int FROM flagged WHERE outdated) AS outdated_managers,
           (SELECT count(DISTINCT m.runner_id)::int FROM ci_runner_machines m JOIN flagged f ON f.version = m.version AND f.outdated) AS outdated_runners`);
  return row;
}

export interface QueuedDuration {
  median: number | null;
  p90: number | null;
  p99: number | null;
}

export interface JobDay {
  date: string;
  jobs: number;
  queued_duration: QueuedDuration;
}

interface JobDayRow {
  date: string | null;
  jobs: number;
  median: number | null;
  p90: number | null;
  p99: number | null;
}

const percentiles = sql`
  percentile_cont(0.5) WITHIN GROUP (ORDER BY b.queued_duration) AS median,
  percentile_cont(0.9) WITHIN GROUP (ORDER BY b.queued_duration) AS p90,
  percentile_cont(0.99) WITHIN GROUP (ORDER BY b.queued_duration) AS p99`;

const windowStart = (days: number) => sql`((now() AT TIME ZONE 'UTC')::date - (${days}::int - 1))::timestamp AT TIME ZONE 'UTC'`;

/**
 * Jobs created per UTC day and their queued duration (seconds; jobs that never started have none), per day
 * and over the whole window, from one scan of the `ci_builds(created_at, ...)` index (GROUPING SETS).
 */
export async function jobDays(days: number): Promise<{ days: JobDay[]; total: Omit<JobDay, 'date'> }> {
  const rows = await queryRows<JobDayRow>(sql`
    WITH agg AS (
      SELECT (b.created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS jobs, ${percentiles}
        FROM ci_builds b WHERE b.created_at >= ${windowStart(days)}
       GROUP BY GROUPING SETS ((b.created_at AT TIME ZONE 'UTC')::date, ()))
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, coalesce(a.jobs, 0) AS jobs, a.median, a.p90, a.p99
      FROM generate_series((now() AT TIME ZONE 'UTC')::date - (${days}::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
      LEFT JOIN agg a ON a.day = d.day::date
    UNION ALL
    SELECT NULL, coalesce((SELECT jobs FROM agg WHERE day IS NULL), 0), (SELECT median FROM agg WHERE day IS NULL),
           (SELECT p90 FROM agg WHERE day IS NULL), (SELECT p99 FROM agg WHERE day IS NULL)
     ORDER BY 1 NULLS LAST`);
  const work = (r: JobDayRow) => ({ jobs: r.jobs, queued_duration: { median: r.median, p90: r.p90, p99: r.p99 } });
  const total = rows.pop()!;
  return { days: rows.map((r) => ({ date: r.date!, ...work(r) })), total: work(total) };
}

export interface RunnerWork {
  id: number;
  description: string | null;
  runner_type: string;
  status: string;
  jobs: number;
  median: number | null;
  p90: number | null;
  p99: number | null;
}

export const TOP_RUNNERS = 10;

/**
 * The busiest runners (most jobs) and those whose jobs waited longest (median queued duration, then p90),
 * ten each, from one pass over the window's jobs grouped by runner.
 */
export async function topRunners(days: number): Promise<{ busiest: RunnerWork[]; longestQueues: RunnerWork[] }> {
  const rows = await queryRows<RunnerWork & { list: 'busiest' | 'queues' }>(sql`
    WITH per_runner AS MATERIALIZED (
      SELECT b.runner_id, count(*)::int AS jobs, ${percentiles}
        FROM ci_builds b WHERE b.created_at >= ${windowStart(days)} AND b.runner_id IS NOT NULL
       GROUP BY b.runner_id),
    busiest AS (SELECT 'busiest' AS list, p.* FROM per_runner p ORDER BY p.jobs DESC, p.runner_id LIMIT ${TOP_RUNNERS}),
    queues AS (SELECT 'queues' AS list, p.* FROM per_runner p WHERE p.median IS NOT NULL
                ORDER BY p.median DESC, p.p90 DESC, p.runner_id LIMIT ${TOP_RUNNERS}),
    picked AS (SELECT * FROM busiest UNION ALL SELECT * FROM queues)
    SELECT x.list, r.id, r.description, r.runner_type::text AS runner_type, ${statusCase('r')} AS status,
           x.jobs, x.median, x.p90, x.p99
      FROM picked x JOIN ci_runners r ON r.id = x.runner_id
     ORDER BY x.list, CASE WHEN x.list = 'busiest' THEN x.jobs END DESC, CASE WHEN x.list = 'busiest' THEN r.id END,
              x.median DESC, x.p90 DESC, r.id`);
  return {
    busiest: rows.filter((r) => r.list === 'busiest'),
    longestQueues: rows.filter((r) => r.list === 'queues'),
  };
}
