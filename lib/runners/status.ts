// Runner status as GitLab 18.x computes it (Ci::Runner#deprecated_rest_status, HasRunnerStatus): once for
// a row (entities) and once as SQL (filters), with the same constants so both always agree (the stale
// timeout is lib/settings/runner-constants.ts, which the cleanup settings validate with).
import { raw, sql, type Sql } from '../db/sql';
import { STALE_TIMEOUT_MS } from '../settings/runner-constants';

export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 60 * 60 * 1000;

export const RUNNER_STATUSES = ['online', 'offline', 'never_contacted', 'stale'] as const;
export const DEPRECATED_STATUSES = ['active', 'paused'] as const;
/** The `status` filter values (deprecated first, as GitLab lists them). */
export const STATUS_FILTER_VALUES = [...DEPRECATED_STATUSES, ...RUNNER_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTER_VALUES)[number];

interface Contactable {
  contactedAt: Date | null;
  createdAt: Date;
}

/** `true`/`false`, or `null` for a runner that never contacted (Ruby's `nil && ...`). */
export function isOnline(r: Contactable, now = new Date()): boolean | null {
  if (!r.contactedAt) return null;
  return r.contactedAt.getTime() > now.getTime() - ONLINE_CONTACT_TIMEOUT_MS;
}

export function isStale(r: Contactable, now = new Date()): boolean {
  const last = Math.max(r.createdAt.getTime(), r.contactedAt?.getTime() ?? 0);
  return last <= now.getTime() - STALE_TIMEOUT_MS;
}

/** The REST `status` of a runner: stale, never_contacted, online/offline when active, else paused. */
export function runnerStatus(r: Contactable & { active: boolean }, now = new Date()): string {
  if (isStale(r, now)) return 'stale';
  if (!r.contactedAt) return 'never_contacted';
  if (r.active) return isOnline(r, now) ? 'online' : 'offline';
  return 'paused';
}

/** A runner manager's status has no `paused`; it counts as contacted only once creation finished. */
export function managerStatus(m: Contactable & { creationState: string }, now = new Date()): string {
  if (isStale(m, now)) return 'stale';
  if (m.creationState !== 'finished') return 'never_contacted';
  return isOnline(m, now) ? 'online' : 'offline';
}

/**
 * SQL condition on the runner alias `r` for a status (or deprecated scope) filter value. The scopes
 * overlap as GitLab's do: `offline` includes stale runners that contacted once.
 */
/**
 * When a runner was created and last contacted, whichever is later: stale once it is 7 days old. The very
 * expression of the index ci_runners_stale_since_idx, so filters on it are index scans.
 */
export function staleSince(alias = 'r'): Sql {
  const col = (c: string) => raw(`${alias}.${c}`);
  return sql`greatest(${col('created_at')}, coalesce(${col('contacted_at')}, ${col('created_at')}))`;
}

export function statusCondition(status: StatusFilter, alias = 'r'): Sql {
  const col = (c: string) => raw(`${alias}.${c}`);
  switch (status) {
    case 'online':
      return sql`${col('contacted_at')} > now() - interval '2 hours'`;
    case 'offline':
      return sql`${col('contacted_at')} <= now() - interval '2 hours'`;
    case 'never_contacted':
      return sql`${col('contacted_at')} IS NULL`;
    case 'stale':
      return sql`${staleSince(alias)} <= now() - interval '7 days'`;
    case 'active':
      return sql`${col('active')} = true`;
    case 'paused':
      return sql`${col('active')} = false`;
  }
}

/** The one status a runner has (as `runnerStatus`), as a SQL expression on the runner alias `r`: the fleet's counts. */
export function statusCase(alias = 'r'): Sql {
  const col = (c: string) => raw(`${alias}.${c}`);
  return sql`CASE
    WHEN ${staleSince(alias)} <= now() - interval '7 days' THEN 'stale'
    WHEN ${col('contacted_at')} IS NULL THEN 'never_contacted'
    WHEN NOT ${col('active')} THEN 'paused'
    WHEN ${col('contacted_at')} > now() - interval '2 hours' THEN 'online'
    ELSE 'offline' END`;
}
