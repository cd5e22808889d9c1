// The fleet overview's reads. Every figure is aggregated by PostgreSQL in one statement per chart; the
// server never walks rows. Days are UTC days.
import { queryRows } from '../db/query';
import { raw, sql } from '../db/sql';
import { GITLAB_COMPAT_VERSION } from '../meta/version';
import { effectiveReleaseList, storedReleaseList } from '../runners/releases';
import { statusCase } from '../runners/status';
import { releaseIndex, UPGRADE_STATUSES, versionText, type UpgradeStatus } from '../runners/upgrade-status';
import { currentSettings } from '../settings/application';

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
  /** GitLab's upgrade status of the version; null while it is not processed yet. */
  upgrade_status: UpgradeStatus | null;
}

/** Versions, managers and runners (with a manager on such a version, as the list's filter finds them) of one status. */
export interface UpgradeStatusCount {
  versions: number;
  managers: number;
  runners: number;
}

/** The release list the statuses come from, and its daily refresh. */
export interface ReleaseListSummary {
  fetched_at: Date;
  source: string;
  versions_count: number;
  newest_version: string | null;
  /** The GitLab version the statuses compare with (what GET /version answers). */
  gitlab_version: string;
  refresh_enabled: boolean;
  refresh_attempted_at: Date | null;
  refresh_error: string | null;
}

export interface VersionSummary {
  newest_version: string | null;
  versions_count: number;
  managers: number;
  runners: number;
  outdated_managers: number;
  outdated_runners: number;
  upgrade_statuses: Record<UpgradeStatus | 'not_processed', UpgradeStatusCount>;
  releases: ReleaseListSummary;
}

/** At most this many versions are listed (newest first); the summary counts all of them. */
export const VERSIONS_LIMIT = 100;

// A version's status: its ci_runner_versions row's; a version too long for a row does not parse (invalid);
// a row without a status is not processed yet.
const versionStatus = (version: string) => sql`coalesce((SELECT rv.status::text FROM ci_runner_versions rv WHERE rv.version = ${raw(version)}),
    CASE WHEN octet_length(${raw(version)}) > 2048 THEN 'invalid' END)`;

// `major.minor.patch` at the start of a version string ("17.5.0~beta.12.gabc", "v16.11.1" parse too).
// A version is outdated when it is more than one minor release behind the newest: an older major, or the
// same major and a minor two or more below. Unparseable versions are neither newest nor outdated.
// One statement; `ci_runner_machines(version, runner_id)` feeds the grouping presorted, index only.
// Each version's upgrade status (GitLab's, lib/runners/upgrade-status.ts) comes from ci_runner_versions,
// and the figures per status count runners as the list's upgrade_status filter finds them (any manager).
export async function versionsInUse(): Promise<VersionSummary & { versions: VersionRow[] }> {
  const [[row], releases] = await Promise.all([
    queryRows<
      Omit<VersionSummary, 'releases'> & { versions: VersionRow[] | null; by_status: Array<UpgradeStatusCount & { status: string | null }> | null }
    >(sql`
    WITH v AS (
      SELECT m.version, count(*)::int AS managers, count(DISTINCT m.runner_id)::int AS runners,
             (regexp_match(m.version, '^v?(\\d{1,9})\\.(\\d{1,9})(?:\\.(\\d{1,9}))?'))::int[] AS parts
        FROM ci_runner_machines m WHERE m.version <> ''
       GROUP BY m.version),
    newest AS (SELECT version, parts FROM v WHERE parts IS NOT NULL ORDER BY parts[1] DESC, parts[2] DESC, coalesce(parts[3], 0) DESC, version DESC LIMIT 1),
    flagged AS (
      SELECT v.*, coalesce(v.version = n.version, false) AS newest,
             coalesce(v.parts[1] < n.parts[1] OR (v.parts[1] = n.parts[1] AND v.parts[2] < n.parts[2] - 1), false) AS outdated,
             ${versionStatus('v.version')} AS upgrade_status
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
           (SELECT json_agg(json_build_object('status', s.upgrade_status, 'versions', s.versions, 'managers', s.managers, 'runners', s.runners))
              FROM (SELECT f.upgrade_status, count(*)::int AS versions, sum(f.managers)::int AS managers,
                           (SELECT count(DISTINCT m.runner_id)::int FROM ci_runner_machines m
                             WHERE m.version = ANY(array_agg(f.version))) AS runners
                      FROM flagged f GROUP BY f.upgrade_status) s) AS by_status,
           (SELECT json_agg(json_build_object('version', version, 'managers', managers, 'runners', runners, 'newest', newest, 'outdated', outdated,
                                              'upgrade_status', upgrade_status)
                            ORDER BY parts[1] DESC NULLS LAST, parts[2] DESC NULLS LAST, coalesce(parts[3], 0) DESC, version DESC)
              FROM listed) AS versions`),
    releaseListSummary(),
  ]);
  const { by_status, versions, ...summary } = row;
  const upgrade_statuses = Object.fromEntries(
    [...UPGRADE_STATUSES, 'not_processed' as const].map((status) => {
      const found = by_status?.find((b) => (b.status ?? 'not_processed') === status);
      return [status, { versions: found?.versions ?? 0, managers: found?.managers ?? 0, runners: found?.runners ?? 0 }];
    }),
  ) as VersionSummary['upgrade_statuses'];
  return { ...summary, upgrade_statuses, releases, versions: versions ?? [] };
}

/** The release list in use (the stored one, or the shipped one until a reconcile stores it) and its refresh. */
export async function releaseListSummary(): Promise<ReleaseListSummary> {
  const [stored, settings] = await Promise.all([storedReleaseList(), currentSettings()]);
  const list = effectiveReleaseList(stored);
  const newest = releaseIndex(list.versions).newest;
  return {
    fetched_at: list.fetchedAt,
    source: list.source,
    versions_count: list.versions.length,
    newest_version: newest ? versionText(newest) : null,
    gitlab_version: GITLAB_COMPAT_VERSION,
    refresh_enabled: settings.updateRunnerVersionsEnabled,
    refresh_attempted_at: stored?.refreshAttemptedAt ?? null,
    refresh_error: stored?.refreshError ?? null,
  };
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

/**
 * Whose runners a usage export covers: the instance's (admins), or a group's and its descendants'; of one
 * runner type, or all.
 */
export type UsageScope = ({ kind: 'instance' } | { kind: 'group'; groupId: number }) & { runnerType: string | null };

/** The runner usage export's period: jobs that finished at or after `from` and before `to`. */
export interface UsagePeriod {
  from: Date;
  to: Date;
}

/** A runner and project's usage in a period, one row of the export. Durations in seconds. */
export interface UsageRow {
  runner_id: number;
  runner_type: string;
  runner_description: string | null;
  project_id: number;
  project_path: string | null;
  jobs: number;
  failed: number;
  total_s: number;
  median_s: number | null;
  queued_s: number;
  median_queued_s: number | null;
}

/**
 * The scope's runners: a group's own, its subgroups', and the project runners of its projects (the
 * runners it owns, as the group runner list's membership=descendants shows them).
 */
function usageRunnersSql(scope: UsageScope) {
  const type = scope.runnerType ? sql`r.runner_type = ${scope.runnerType}::"RunnerType"` : sql`TRUE`;
  if (scope.kind === 'instance') return type;
  const subtree = sql`SELECT ns.id FROM namespaces ns WHERE ${scope.groupId} = ANY(ns.traversal_ids)`;
  return sql`${type} AND ((r.runner_type = 'group_type' AND r.group_id IN (${subtree}))
           OR (r.runner_type = 'project_type' AND r.owner_project_id IN (SELECT p.id FROM projects p WHERE p.namespace_id IN (${subtree}))))`;
}

/** The next `limit` runner ids of the scope after `after`, in id order: the export walks the fleet by them. */
export async function usageRunnerBatch(scope: UsageScope, after: number, limit: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(sql`
    SELECT r.id FROM ci_runners r WHERE r.id > ${after} AND ${usageRunnersSql(scope)} ORDER BY r.id LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

/** How many of the scope's runners ran a job that finished in the period (the export's progress total). */
export async function usageRunnerCount(scope: UsageScope, period: UsagePeriod): Promise<number> {
  const [row] = await queryRows<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM ci_runners r
     WHERE ${usageRunnersSql(scope)}
       AND EXISTS (SELECT 1 FROM ci_builds j WHERE j.runner_id = r.id AND j.finished_at >= ${period.from} AND j.finished_at < ${period.to})`);
  return row.n;
}

/**
 * The usage rows of a batch of runners, by runner then project: each runner's finished jobs in the period,
 * read through ci_builds (runner_id, finished_at). Duration is started to finished (a job that never
 * started counts as none); the queued time is the job's queued_duration.
 */
export async function usageRows(runnerIds: number[], period: UsagePeriod): Promise<UsageRow[]> {
  if (!runnerIds.length) return [];
  return queryRows<UsageRow>(sql`
    SELECT u.runner_id, r.runner_type::text AS runner_type, r.description AS runner_description, u.project_id, p.full_path AS project_path,
           u.jobs, u.failed, u.total_s, u.median_s, u.queued_s, u.median_queued_s
      FROM (SELECT j.runner_id, j.project_id,
                   count(*)::int AS jobs,
                   count(*) FILTER (WHERE j.status = 'failed')::int AS failed,
                   COALESCE(sum(extract(epoch FROM j.finished_at - j.started_at)), 0)::float8 AS total_s,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM j.finished_at - j.started_at))::float8 AS median_s,
                   COALESCE(sum(j.queued_duration), 0)::float8 AS queued_s,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY j.queued_duration)::float8 AS median_queued_s
              FROM ci_builds j
             WHERE j.runner_id = ANY(${runnerIds}::int[]) AND j.finished_at >= ${period.from} AND j.finished_at < ${period.to}
             GROUP BY j.runner_id, j.project_id) u
      JOIN ci_runners r ON r.id = u.runner_id
      LEFT JOIN projects p ON p.id = u.project_id
     ORDER BY u.runner_id, u.project_id`);
}
