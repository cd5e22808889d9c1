// The measurement of each rule kind: one indexed statement each, cheap at 100,000 runners
// (bench/runner-alerts.ts): online share counts the active runners of a type (ci_runners_runner_type_id_idx,
// or the tag_ids GIN index), went_offline reads a range of contacted_at, the tag rule the tag_ids GIN
// index, the queue rule the jobs started in the window (ci_builds_started_at_idx) and the pending jobs
// (ci_builds_status_created_at_idx).
import type { Prisma } from '../db/client';
import type { RunnerAlertRule } from '../db/generated/client';
import { empty, sql, type Sql } from '../db/sql';
import { ONLINE_CONTACT_TIMEOUT_MS } from '../runners/status';
import { defaultWindow, type AlertKind } from './rule';

type Tx = Prisma.TransactionClient;

/** GitLab's online: contacted within the last 2 hours (lib/runners/status.ts). */
const onlineCutoff = sql`now() - ${ONLINE_CONTACT_TIMEOUT_MS / 1000} * interval '1 second'`;

function runnerScope(rule: Pick<RunnerAlertRule, 'runnerType' | 'tag'>): Sql {
  const type = rule.runnerType ? sql` AND r.runner_type = ${rule.runnerType}::"RunnerType"` : empty;
  // A tag no runner has yet names no id: no runner matches (-1 is no tag's id).
  const tag = rule.tag ? sql` AND r.tag_ids @> ARRAY[COALESCE((SELECT t.id FROM tags t WHERE t.name = ${rule.tag}), -1)]::int[]` : empty;
  return sql`${type}${tag}`;
}

const windowOf = (rule: Pick<RunnerAlertRule, 'kind' | 'windowMinutes'>) => rule.windowMinutes ?? defaultWindow(rule.kind as AlertKind) ?? 10;

/** The rule's value now: a percentage, a count of runners, or seconds; null when there is nothing to measure. */
export async function measure(tx: Tx, rule: RunnerAlertRule): Promise<number | null> {
  const scope = runnerScope(rule);
  switch (rule.kind as AlertKind) {
    case 'online_share_below': {
      const [row] = await tx.$queryRaw<{ total: number; online: number }[]>(sql`
        SELECT count(*)::int AS total, (count(*) FILTER (WHERE r.contacted_at > ${onlineCutoff}))::int AS online
          FROM ci_runners r WHERE r.active${scope}`);
      return row.total ? (row.online * 100) / row.total : null;
    }
    case 'went_offline': {
      // Offline now, and online (contacted within 2 hours) at the start of the window: they crossed the line in it.
      const [row] = await tx.$queryRaw<{ n: number }[]>(sql`
        SELECT count(*)::int AS n FROM ci_runners r
         WHERE r.active${scope}
           AND r.contacted_at <= ${onlineCutoff}
           AND r.contacted_at > ${onlineCutoff} - ${windowOf(rule)} * interval '1 minute'`);
      return row.n;
    }
    case 'tag_without_online_runner': {
      const [row] = await tx.$queryRaw<{ n: number }[]>(sql`
        SELECT count(*)::int AS n FROM ci_runners r WHERE r.active AND r.contacted_at > ${onlineCutoff}${scope}`);
      return row.n;
    }
    case 'queue_wait_p95_above': {
      // Started jobs wait until they started (queued_duration when recorded); pending jobs have waited until
      // now, those of the last day only: GitLab drops a job pending for a day (BUILD_PENDING_OUTDATED_TIMEOUT),
      // and one abandoned for weeks would otherwise keep the rule firing for ever.
      const [row] = await tx.$queryRaw<{ p95: number | null }[]>(sql`
        SELECT percentile_cont(0.95) WITHIN GROUP (ORDER BY w.wait) AS p95 FROM (
          SELECT COALESCE(b.queued_duration, EXTRACT(EPOCH FROM (b.started_at - b.created_at))::float8) AS wait
            FROM ci_builds b WHERE b.started_at > now() - ${windowOf(rule)} * interval '1 minute'
          UNION ALL
          SELECT EXTRACT(EPOCH FROM (now() - b.created_at))::float8 FROM ci_builds b
           WHERE b.status = 'pending' AND b.created_at > now() - interval '1 day'
        ) w`);
      return row.p95 === null ? null : Number(row.p95);
    }
    default:
      return null;
  }
}
