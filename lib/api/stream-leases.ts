// The event streams a user holds open, counted on every instance: one row of event_stream_leases per open
// stream (GET /runners/events), so a ceiling per user holds however many Runway instances serve the user
// and however many sessions and tokens the user has. A stream is admitted in one transaction that takes
// the user's advisory lock, counts the user's unexpired rows and inserts its own row only below the
// ceiling (two instances admitting the same user's streams at once queue on the lock, and the second
// counts the first's row). The stream's instance deletes the row when the stream ends, and renews the
// expiry of its open rows every RENEW_MS; a crashed instance's rows expire after LEASE_TTL_SECONDS, so its
// streams stop counting then. What this process keeps in memory is only the ids of its own open rows,
// to renew them: the count itself lives in PostgreSQL.
import { db } from '../db/client';
import { executeStatement, queryRows } from '../db/query';
import { sql } from '../db/sql';
import { log } from '../log/log';

/** A crashed instance's streams stop counting after this. */
export const LEASE_TTL_SECONDS = 90;
/** How often an instance renews the rows of its open streams (well within the TTL). */
const RENEW_MS = 30_000;
/**
 * Stream admission's advisory locks: pg_advisory_xact_lock(STREAM_LOCK_SPACE, user id). The two-key form
 * is a lock space of its own, apart from the one-key locks used elsewhere.
 */
const STREAM_LOCK_SPACE = 729645;

interface LeaseState {
  open: Set<string>;
  timer?: NodeJS.Timeout;
}

// One per process, whichever bundle loaded this module: the rows this process must renew.
const holder = globalThis as typeof globalThis & { __runwayStreamLeases?: LeaseState };
const leases = (): LeaseState => (holder.__runwayStreamLeases ??= { open: new Set() });

/** Renews this process's open rows, and deletes rows long expired (any instance's), in one statement. */
async function renew(): Promise<void> {
  const ids = [...leases().open];
  await executeStatement(sql`
    WITH renewed AS (
      UPDATE event_stream_leases SET expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS})
       WHERE id = ANY(${ids}::bigint[]))
    DELETE FROM event_stream_leases WHERE expires_at < now() - interval '1 hour'`);
}

function scheduleRenewal(): void {
  const s = leases();
  if (s.timer || !s.open.size) return;
  s.timer = setTimeout(() => {
    s.timer = undefined;
    if (!s.open.size) return;
    renew()
      .catch((err: unknown) => log('warn', 'event stream leases not renewed', { error: (err as Error).message }))
      .finally(scheduleRenewal);
  }, RENEW_MS).unref();
}

export interface StreamLease {
  /** Ends the lease (once; later calls do nothing). */
  release(): void;
}

/**
 * Admits one more stream of `userId` if the user holds fewer than `limit` on all instances together:
 * the lease to release when the stream ends, or null at the ceiling.
 */
export async function acquireStreamLease(userId: number, limit: number): Promise<StreamLease | null> {
  const id = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${STREAM_LOCK_SPACE}::int, ${userId}::int)::text`;
    // A statement of its own after the lock: its snapshot sees every row committed before the lock was ours.
    const rows = await tx.$queryRaw<{ id: bigint }[]>`
      INSERT INTO event_stream_leases (user_id, expires_at)
      SELECT ${userId}, now() + make_interval(secs => ${LEASE_TTL_SECONDS})
       WHERE (SELECT count(*) FROM event_stream_leases WHERE user_id = ${userId} AND expires_at > now()) < ${limit}
      RETURNING id`;
    return rows[0]?.id;
  });
  if (id === undefined) return null;
  const key = id.toString();
  leases().open.add(key);
  scheduleRenewal();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      leases().open.delete(key);
      // Not awaited: the stream has ended whatever this answers; a row left behind expires.
      void executeStatement(sql`DELETE FROM event_stream_leases WHERE id = ${key}::bigint`).catch((err: unknown) =>
        log('warn', 'event stream lease not released', { error: (err as Error).message }),
      );
    },
  };
}

/** The streams `userId` holds on all instances (tests, diagnostics). */
export async function heldStreamCount(userId: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(sql`SELECT count(*)::int AS n FROM event_stream_leases WHERE user_id = ${userId} AND expires_at > now()`);
  return rows[0]?.n ?? 0;
}
