// The runner event log (table runner_events, migration 20261126130000_runner_event_log): every change a
// live page hears of, with a database-wide id that increases in commit order, kept for a few minutes so
// that a stream reconnecting with Last-Event-ID, to any instance, is replayed what it missed. Triggers
// write it and announce each row on RUNNER_EVENTS_CHANNEL; this module reads and prunes it.
import { db } from '../db/client';
import { sql } from '../db/sql';
import type { DeletedRunnerFacts } from './policy';
import { RUNNER_TYPES } from '../settings/runner-constants';

/** The announcement of each logged event, sent at commit in id order: the row below as JSON. */
export const RUNNER_EVENTS_CHANNEL = 'runway_runner_events';

/** How long events are kept: a page away longer than this (or whose id is older) refetches instead. */
export const RETENTION_MS = 10 * 60_000;

export type RunnerEventAction = 'created' | 'updated' | 'deleted';

export interface LoggedRunnerEvent {
  /** The event's id in the log (the stream's `id:`). */
  eventId: number;
  /** The runner's id. */
  id: number;
  action: RunnerEventAction;
  /** Who could read the runner when the event happened: its type, group and projects then. */
  facts: DeletedRunnerFacts;
}

const ACTIONS: readonly string[] = ['created', 'updated', 'deleted'];
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** One event from its row or its announcement (snake_case JSON), or null when it is not one. */
export function toLoggedEvent(v: Record<string, unknown>): LoggedRunnerEvent | null {
  const eventId = typeof v.event === 'string' ? Number(v.event) : v.event;
  if (!isId(eventId) || !isId(v.id) || !ACTIONS.includes(v.action as string)) return null;
  if (!RUNNER_TYPES.includes(v.runner_type as (typeof RUNNER_TYPES)[number])) return null;
  const projectIds = Array.isArray(v.project_ids) && v.project_ids.every(isId) ? (v.project_ids as number[]) : null;
  return {
    eventId,
    id: v.id,
    action: v.action as RunnerEventAction,
    facts: { runnerType: v.runner_type as DeletedRunnerFacts['runnerType'], groupId: isId(v.group_id) ? v.group_id : null, projectIds },
  };
}

export function parseEventNotification(payload: string): LoggedRunnerEvent | null {
  try {
    const v: unknown = JSON.parse(payload);
    return v && typeof v === 'object' && !Array.isArray(v) ? toLoggedEvent(v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The oldest and newest ids still logged (null when the log is empty). */
export async function eventLogBounds(): Promise<{ oldest: number | null; newest: number | null }> {
  const rows = await db().$queryRaw<{ oldest: number | null; newest: number | null }[]>(
    sql`SELECT min(id)::float8 AS oldest, max(id)::float8 AS newest FROM runner_events WHERE id IS NOT NULL`,
  );
  return { oldest: rows[0]?.oldest ?? null, newest: rows[0]?.newest ?? null };
}

/** Up to `limit` events after `after`, in the log's id order (the runner's id is selected as `id`: order by e.id). */
export async function eventsAfter(after: number, limit: number): Promise<LoggedRunnerEvent[]> {
  const rows = await db().$queryRaw<Record<string, unknown>[]>(sql`
    SELECT e.id::float8 AS event, e.runner_id AS id, e.action, e.runner_type::text AS runner_type, e.group_id, e.project_ids
      FROM runner_events e WHERE e.id > ${after} ORDER BY e.id LIMIT ${limit}`);
  return rows.map(toLoggedEvent).filter((e): e is LoggedRunnerEvent => e !== null);
}

/**
 * Deletes events older than the retention window, but never the newest: while it stays, a page whose
 * last event is that one is known to have missed nothing, however quiet the fleet was since.
 */
export async function pruneRunnerEvents(): Promise<number> {
  return db().$executeRaw(sql`
    DELETE FROM runner_events
     WHERE created_at < now() - make_interval(secs => ${RETENTION_MS / 1000})
       AND id < (SELECT max(id) FROM runner_events)`);
}
