// Gauges read at scrape time: the pool now, the background queue (an indexed count of unfinished jobs),
// and runners by status and type, counted at most once a minute per process so a scrape every few
// seconds never counts 100,000 runners each time.
import { connection } from '../db/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { metrics } from '../metrics/registry';

const RUNNER_COUNT_TTL_MS = 60_000;
let runnersCountedAt = 0;

export async function refreshGauges(now = Date.now()): Promise<void> {
  const m = metrics();
  const { pool } = connection();
  m.poolConnections.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
  m.poolConnections.set({ state: 'idle' }, pool.idleCount);
  m.poolConnections.set({ state: 'waiting' }, pool.waitingCount);
  m.poolMax.set(pool.options.max ?? 10);

  const queue = await queryRows<{ status: string; n: number }>(
    sql`SELECT status, count(*)::int AS n FROM background_jobs WHERE status IN ('queued', 'running') GROUP BY status`,
  );
  for (const status of ['queued', 'running']) m.backgroundQueue.set({ status }, queue.find((r) => r.status === status)?.n ?? 0);

  // Fleet alert rules: a handful of rows, read at every scrape so a rule that fired shows at once.
  const rules = await queryRows<{ id: number; name: string; kind: string; state: string; last_value: number | null }>(
    sql`SELECT id, name, kind, state, last_value FROM runner_alert_rules WHERE enabled ORDER BY id`,
  );
  m.fleetAlertFiring.reset();
  m.fleetAlertValue.reset();
  for (const r of rules) {
    const labels = { rule_id: String(r.id), rule_name: r.name, kind: r.kind };
    m.fleetAlertFiring.set(labels, r.state === 'firing' ? 1 : 0);
    if (r.last_value !== null) m.fleetAlertValue.set(labels, r.last_value);
  }

  if (now - runnersCountedAt < RUNNER_COUNT_TTL_MS) return;
  runnersCountedAt = now;
  // One pass, the same conditions as lib/runners/status.ts (runnerStatus): stale, never_contacted,
  // online/offline for active runners, else paused.
  const rows = await queryRows<{ status: string; runner_type: string; n: number }>(sql`
    SELECT CASE
             WHEN created_at <= now() - interval '7 days' AND (contacted_at IS NULL OR contacted_at <= now() - interval '7 days') THEN 'stale'
             WHEN contacted_at IS NULL THEN 'never_contacted'
             WHEN NOT active THEN 'paused'
             WHEN contacted_at > now() - interval '2 hours' THEN 'online'
             ELSE 'offline'
           END AS status,
           runner_type, count(*)::int AS n
      FROM ci_runners GROUP BY 1, 2`);
  m.runners.reset();
  for (const r of rows) m.runners.set({ status: r.status, runner_type: r.runner_type }, r.n);
}

/** For tests: count runners again on the next scrape. */
export function forgetRunnerCounts(): void {
  runnersCountedAt = 0;
}
