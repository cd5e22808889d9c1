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
// One statement; `ci_runner_machines(version, runner_id)` feeds the grouping presorted, index only.
export async function versionsInUse(): Promise<VersionSummary & { versions: VersionRow[] }> {
  const [row] = await queryRows<VersionSummary & { versions: VersionRow[] | null }>(sql`
    WITH v AS (
      SELECT m.version, count(*)::int AS managers, count(DISTINCT m.runner_id)::int AS runners,
             (regexp_match(m.version, '^v?(\\d{1,9})\\.(\\d{1,9})(?:\\.(\\d{1,9}))?'))::int[] AS parts
        FROM ci_runner_machines m WHERE m.version <> ''
       GROUP BY m.version),
    newest AS (SELECT version, parts FROM v WHERE parts IS NOT NULL ORDER BY parts[1] DESC, parts[2] DESC, coalesce(parts[3], 0) DESC, version DESC LIMIT 1),
    flagged AS (
      SELECT v.*, coalesce(v.version = n.version, false) AS newest,
             coalesce(v.parts[1] < n.parts[1] OR (v.parts[1] = n.parts[1] AND v.parts[2] < n.parts[2] - 1), false) AS outdated
        FROM v LEFT JOIN newest n ON true),
    listed AS (
      SELECT * FROM flagged
       ORDER BY parts[1] DESC NULLS LAST, parts[2] DESC NULLS LAST, coalesce(parts[3], 0) DESC, version DESC
       LIMIT ${VERSIONS_LIMIT})
    SELECT (SELECT version FROM newest) AS newest_version,
           (SELECT count(*)::int FROM v) AS versions_count,
           (SELECT coalesce(sum(managers), 0)::int FROM v) AS managers,
           (SELECT count(DISTINCT runner_id)::int FROM ci_runner_machines WHERE version <> '') AS runners,
           (SELECT coalesce(sum(managers), 0)::int FROM flagged WHERE outdated) AS outdated_managers,
           (SELECT count(DISTINCT m.runner_id)::int FROM ci_runner_machines m JOIN flagged f ON f.version = m.version AND f.outdated) AS outdated_runners,
           (SELECT json_agg(json_build_object('version', version, 'managers', managers, 'runners', runners, 'newest', newest, 'outdated', outdated)
                            ORDER BY parts[1] DESC NULLS LAST, parts[2] DESC NULLS LAST, coalesce(parts[3], 0) DESC, version DESC)
              FROM listed) AS versions`);
  return { ...row, versions: row.versions ?? [] };
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

interface StatsRow {
  jobs: number;
  /** [median, p90, p99] */
  q: Array<number | null> | null;
}

const queued = (q: StatsRow['q']): QueuedDuration => ({ median: q?.[0] ?? null, p90: q?.[1] ?? null, p99: q?.[2] ?? null });

// One ordered-set aggregate for the three percentiles: one sort of the values, not three.
const percentiles = sql`percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY b.queued_duration) AS q`;

const today = sql`(now() AT TIME ZONE 'UTC')::date`;
const windowStart = (days: number) => sql`(${today} - (${days}::int - 1))::timestamp AT TIME ZONE 'UTC'`;

/**
 * Jobs created per UTC day and their queued duration (seconds; jobs that never started have none), per day
 * and over the whole window. Each day is its own range of the `ci_builds(created_at, ...)` index, so a day's
 * values are sorted alone; the window's percentiles sort the window's values once, in a second statement
 * that runs at the same time.
 */
export async function jobDays(days: number): Promise<{ days: JobDay[]; total: Omit<JobDay, 'date'> }> {
  const [perDay, [total]] = await Promise.all([
    queryRows<StatsRow & { date: string }>(sql`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date, x.jobs, x.q
        FROM generate_series(${today} - (${days}::int - 1), ${today}, interval '1 day') AS d(day),
        LATERAL (SELECT count(*)::int AS jobs, ${percentiles} FROM ci_builds b
                  WHERE b.created_at >= d.day::timestamp AT TIME ZONE 'UTC'
                    AND b.created_at < (d.day + interval '1 day')::timestamp AT TIME ZONE 'UTC') x
       ORDER BY d.day`),
    queryRows<StatsRow>(sql`SELECT count(*)::int AS jobs, ${percentiles} FROM ci_builds b WHERE b.created_at >= ${windowStart(days)}`),
  ]);
  return {
    days: perDay.map((r) => ({ date: r.date, jobs: r.jobs, queued_duration: queued(r.q) })),
    total: { jobs: total.jobs, queued_duration: queued(total.q) },
  };
}

export interface RunnerWork {
  id: number;
  description: string | null;
  runner_type: string;
  status: string;
  jobs: number;
  mean: number | null;
  q: Array<number | null> | null;
}

export const TOP_RUNNERS = 10;

/**
 * The busiest runners (most jobs) and those whose jobs waited longest (highest mean queued duration), ten
 * each. Counts and means come from one hash aggregate over the window's jobs; percentiles are then taken
 * for the (at most twenty) chosen runners only, from the `ci_builds(runner_id, created_at, ...)` index.
 */
export async function topRunners(days: number): Promise<{ busiest: RunnerWork[]; longestQueues: RunnerWork[] }> {
  const rows = await queryRows<RunnerWork & { busy_rank: number | null; queue_rank: number | null }>(sql`
    WITH per_runner AS MATERIALIZED (
      SELECT b.runner_id, count(*)::int AS jobs, avg(b.queued_duration) AS mean
        FROM ci_builds b WHERE b.created_at >= ${windowStart(days)} AND b.runner_id IS NOT NULL
       GROUP BY b.runner_id),
    busiest AS (SELECT runner_id, row_number() OVER (ORDER BY jobs DESC, runner_id) AS busy_rank
                  FROM (SELECT * FROM per_runner ORDER BY jobs DESC, runner_id LIMIT ${TOP_RUNNERS}) t),
    queues AS (SELECT runner_id, row_number() OVER (ORDER BY mean DESC, runner_id) AS queue_rank
                 FROM (SELECT * FROM per_runner WHERE mean IS NOT NULL ORDER BY mean DESC, runner_id LIMIT ${TOP_RUNNERS}) t),
    picked AS (SELECT coalesce(b.runner_id, q.runner_id) AS runner_id, b.busy_rank::int, q.queue_rank::int
                 FROM busiest b FULL JOIN queues q ON q.runner_id = b.runner_id)
    SELECT p.busy_rank, p.queue_rank, r.id, r.description, r.runner_type::text AS runner_type, ${statusCase('r')} AS status,
           pr.jobs, pr.mean, x.q
      FROM picked p
      JOIN per_runner pr ON pr.runner_id = p.runner_id
      JOIN ci_runners r ON r.id = p.runner_id,
      LATERAL (SELECT ${percentiles} FROM ci_builds b WHERE b.runner_id = p.runner_id AND b.created_at >= ${windowStart(days)}) x`);
  const ranked = (key: 'busy_rank' | 'queue_rank') => rows.filter((r) => r[key] !== null).sort((a, b) => a[key]! - b[key]!);
  return { busiest: ranked('busy_rank'), longestQueues: ranked('queue_rank') };
}
