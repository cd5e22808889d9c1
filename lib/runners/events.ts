// Live runner changes for one open page (GET /api/v4/runners/events, a Runway extension): PostgreSQL
// notifications from any Runway instance (through the notification hub), filtered to the runners the
// caller may read, as Server-Sent Events. The page refetches what changed; events carry ids, not data.
import type { Actor } from '../auth/authenticate';
import { parseRunnerChange, RUNNER_CHANGES_CHANNEL, subscribe } from '../notifications/hub';
import type { SseSink } from '../api/sse';
import { logError } from '../server/log';
import { findRunner } from './queries';
import { canReadDeletedRunner, canReadRunner, type DeletedRunnerFacts } from './policy';
import { RUNNER_TYPES } from './queries';

/**
 * Runner deletions with the ownership the row had (a BEFORE DELETE trigger), because after the commit
 * nothing is left to decide who may hear of it: {"id", "runner_type", "group_id", "project_ids" | null}.
 */
export const RUNNER_DELETIONS_CHANNEL = 'runway_runner_deletions';

export type RunnerEventAction = 'created' | 'updated' | 'deleted';
export interface RunnerEvent {
  id: number;
  action: RunnerEventAction;
}

/** Past this many undelivered changes a page is told to refetch everything instead (one `resync`). */
const MAX_BACKLOG = 200;
/** How often a long-lived stream checks that its session or token still holds (and who the caller is now). */
export const REAUTHENTICATE_MS = 60_000;
/** Runner ids this stream has told the page about, remembered up to this many. */
const MAX_SEEN = 10_000;

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

function parseJson(payload: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(payload);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A row change as the triggers send it; a runner's own DELETE is left to the deletions channel. */
export function parseChange(payload: string): RunnerEvent | null {
  const v = parseRunnerChange(payload);
  if (!v || !isId(v.id)) return null;
  if (v.table === 'ci_runners') {
    if (v.op === 'INSERT') return { id: v.id, action: 'created' };
    if (v.op === 'UPDATE') return { id: v.id, action: 'updated' };
    return null;
  }
  // An assignment or a manager of the runner changed: the runner's page and rows change.
  return { id: v.id, action: 'updated' };
}

export function parseDeletion(payload: string): (DeletedRunnerFacts & { id: number }) | null {
  const v = parseJson(payload);
  if (!v || !isId(v.id) || !RUNNER_TYPES.includes(v.runner_type as (typeof RUNNER_TYPES)[number])) return null;
  const projectIds = Array.isArray(v.project_ids) && v.project_ids.every(isId) ? (v.project_ids as number[]) : null;
  return {
    id: v.id,
    runnerType: v.runner_type as DeletedRunnerFacts['runnerType'],
    groupId: isId(v.group_id) ? v.group_id : null,
    projectIds,
  };
}

type Job = { kind: 'change'; event: RunnerEvent } | { kind: 'deletion'; facts: DeletedRunnerFacts & { id: number } };

/**
 * Wires one stream: subscribes to both channels, checks each change against the caller's access (a fresh
 * look-up per event, so a membership change applies at once), delivers in order, and sends `resync` when
 * notifications may have been missed (the hub's LISTEN connection was re-established, a backlog
 * overflowed, or the client reconnected with Last-Event-ID). Returns the cleanup.
 */
export async function startRunnerEvents(opts: {
  actor: Actor;
  sink: SseSink;
  /** Re-reads the caller; null or a throw ends the stream. */
  reauthenticate: () => Promise<Actor | null>;
  resumed: boolean;
}): Promise<() => void> {
  const { sink } = opts;
  let actor = opts.actor;
  let seq = 0;
  let queue: Promise<void> = Promise.resolve();
  let backlog = 0;
  let overflowed = false;
  let stopped = false;
  // Runners this page was told about: it may hear that they went away even once it can no longer read them.
  const seen = new Set<number>();

  const send = (event: string, data: unknown) => sink.send({ event, id: String(++seq), data });
  const resync = () => send('resync', {});
  const remember = (id: number) => {
    if (seen.size >= MAX_SEEN) seen.delete(seen.values().next().value as number);
    seen.add(id);
  };

  // A copy per check: the policy memoises access levels per Actor object, right for a request, wrong for
  // a stream that lives for hours.
  const fresh = () => ({ ...actor });

  async function visible(job: Job): Promise<boolean> {
    if (actor.user.admin) return true;
    if (job.kind === 'deletion') return seen.has(job.facts.id) || (await canReadDeletedRunner(fresh(), job.facts));
    const runner = await findRunner(job.event.id);
    if (runner && (await canReadRunner(fresh(), runner))) {
      remember(runner.id);
      return true;
    }
    // Gone or no longer readable: only a page that was shown it hears of the change (to drop it).
    return seen.delete(job.event.id);
  }

  function enqueue(job: Job) {
    if (stopped) return;
    if (backlog >= MAX_BACKLOG) {
      overflowed = true;
      return;
    }
    backlog++;
    queue = queue.then(async () => {
      try {
        if (!stopped && (await visible(job))) {
          send('runner', job.kind === 'deletion' ? { id: job.facts.id, action: 'deleted' } : job.event);
        }
      } catch (err) {
        // A failed look-up must not end the stream; the page catches up from a resync.
        logError('runner event check failed', err);
        overflowed = true;
      } finally {
        backlog--;
        if (backlog === 0 && overflowed && !stopped) {
          overflowed = false;
          resync();
        }
      }
    });
  }

  const onChange = (payload: string) => {
    const event = parseChange(payload);
    if (event) enqueue({ kind: 'change', event });
  };
  const onDeletion = (payload: string) => {
    const facts = parseDeletion(payload);
    if (facts) enqueue({ kind: 'deletion', facts });
  };

  const unsubscribers = await Promise.all([subscribe(RUNNER_CHANGES_CHANNEL, onChange, resync), subscribe(RUNNER_DELETIONS_CHANNEL, onDeletion, resync)]);

  const recheck = setInterval(() => {
    opts.reauthenticate().then(
      (next) => {
        if (next) actor = next;
        else sink.close();
      },
      () => sink.close(),
    );
  }, REAUTHENTICATE_MS);

  // Subscribed before this: whatever changed while the page was away is refetched after it.
  if (opts.resumed) resync();

  return () => {
    stopped = true;
    clearInterval(recheck);
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
