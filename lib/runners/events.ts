// Live runner changes for one open page (GET /api/v4/runners/events, a Runway extension): the runner
// event log's announcements from any Runway instance (through the notification hub), filtered to the
// runners the caller may read, as Server-Sent Events. The page refetches what changed; events carry
// ids, not data.
//
// Every event's SSE id is its id in the log (lib/runners/event-log.ts), which increases in commit
// order, so a reconnecting page (Last-Event-ID, to any instance) is replayed what it missed, through the
// same visibility check as live events. It is told to `resync` (refetch everything) instead when that
// cannot be done exactly: the id is not a number, is ahead of the log (another database, a restore),
// is older than what the log still holds (away longer than the retention window), or the missed events
// are too many to be worth replaying one by one.
import type { Actor } from '../api/authenticate';
import { subscribe } from '../notifications/hub';
import type { SseSink } from '../api/sse';
import { logError } from '../log/log';
import { eventLogBounds, eventsAfter, parseEventNotification, RUNNER_EVENTS_CHANNEL, type LoggedRunnerEvent } from './event-log';
import { findRunner } from './queries';
import { canReadDeletedRunner, canReadRunner } from './policy';

export type { RunnerEventAction } from './event-log';

/** Past this many undelivered changes a page is told to refetch everything instead (one `resync`). */
const MAX_BACKLOG = 200;
/** At most this many logged events are replayed (each is a visibility check); more means `resync`. */
export const MAX_REPLAY = 1_000;
/** How often a long-lived stream checks that its session or token still holds (and who the caller is now). */
export const REAUTHENTICATE_MS = 60_000;
/**
 * How often the page is sent its position (`position`, with the id of the last event looked at) when
 * the events since were not the caller's: a page that reconnects then starts from there, not from its
 * last visible event with thousands of other people's changes to filter.
 */
export const POSITION_MS = 5_000;
/** Runner ids this stream has told the page about, remembered up to this many. */
const MAX_SEEN = 10_000;

/** Last-Event-ID as the log's id, or null when it is not one (garbage). */
export function parseLastEventId(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/**
 * Where a reconnecting stream starts: replay after `from`, or resync (then continue after `at`). An id
 * below the oldest kept but for gaps (a failed commit burns an id) is taken as pruned: a needless
 * refetch is cheaper than a missed change.
 */
export function resumePlan(lastEventId: number | null, bounds: { oldest: number | null; newest: number | null }) {
  const newest = bounds.newest ?? 0;
  if (lastEventId === null || lastEventId > newest) return { kind: 'resync' as const, at: newest };
  if (bounds.oldest !== null && lastEventId < bounds.oldest - 1) return { kind: 'resync' as const, at: newest };
  return { kind: 'replay' as const, from: lastEventId };
}

/**
 * Wires one stream: subscribes to the log's announcements, then (subscribed first, so nothing falls
 * between) replays what a reconnecting page missed or tells it where it stands, then delivers live
 * events in order, skipping any the replay already covered (ids at or below the stream's cursor).
 * Each event is checked against the caller's access (a fresh look-up per event, so a membership change
 * applies at once). When the hub's LISTEN connection was re-established the stream replays from its
 * cursor; when a backlog overflowed it sends `resync`. Returns the cleanup.
 */
export async function startRunnerEvents(opts: {
  actor: Actor;
  sink: SseSink;
  /** Re-reads the caller; null or a throw ends the stream. */
  reauthenticate: () => Promise<Actor | null>;
  /** The Last-Event-ID the client sent (header or query parameter), if any. */
  lastEventId: string | null;
}): Promise<() => void> {
  const { sink } = opts;
  let actor = opts.actor;
  let backlog = 0;
  let overflowed = false;
  let stopped = false;
  // The last event looked at (sent or not the caller's), the last id the page was sent, and the
  // newest id announced to this stream (dropped ones included).
  let cursor = 0;
  let sentId = -1;
  let received = 0;
  // Live events wait behind the start (replay or position).
  let opened!: () => void;
  let queue: Promise<void> = new Promise<void>((resolve) => (opened = resolve));
  // Runners this page was told about: it may hear that they went away even once it can no longer read them.
  const seen = new Set<number>();

  const send = (event: string, data: unknown, id: number) => {
    sentId = id;
    sink.send({ event, id: String(id), data });
  };
  const resync = (at: number) => {
    cursor = Math.max(cursor, at);
    send('resync', {}, cursor);
  };
  const remember = (id: number) => {
    if (seen.size >= MAX_SEEN) seen.delete(seen.values().next().value as number);
    seen.add(id);
  };

  // A copy per check: the policy memoises access levels per Actor object, right for a request, wrong for
  // a stream that lives for hours.
  const fresh = () => ({ ...actor });

  /**
   * Answers of one replay, by runner (readable now) and by owners (readable as it was then): within a
   * replay "now" is one moment, and a page back from a restart may have missed hundreds of changes of
   * a few runners.
   */
  type Answers = { now: Map<number, Promise<boolean>>; then: Map<string, Promise<boolean>> };
  const once = <K>(answers: Map<K, Promise<boolean>> | undefined, key: K, ask: () => Promise<boolean>) => {
    if (!answers) return ask();
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = ask()));
    return answer;
  };

  /**
   * Whether the caller may hear of the event: they may read the runner now, were shown it on this page,
   * or could read it as it was then (its owners at the event, e.g. the project it just left).
   */
  async function visible(e: LoggedRunnerEvent, answers?: Answers): Promise<boolean> {
    if (actor.user.admin) return true;
    if (e.action !== 'deleted') {
      const readable = await once(answers?.now, e.id, async () => {
        const runner = await findRunner(e.id);
        return !!runner && (await canReadRunner(fresh(), runner));
      });
      if (readable) {
        remember(e.id);
        return true;
      }
    }
    if (seen.delete(e.id)) return true;
    return once(answers?.then, JSON.stringify(e.facts), () => canReadDeletedRunner(fresh(), e.facts));
  }

  /** Delivers one logged event if it is new to this stream and the caller may see it. */
  async function deliver(e: LoggedRunnerEvent, answers?: Answers): Promise<void> {
    if (e.eventId <= cursor) return;
    cursor = e.eventId;
    if (await visible(e, answers)) send('runner', { id: e.id, action: e.action }, e.eventId);
  }

  /** `resync` as of now: the page's refetch will include every change logged so far. */
  async function resyncNow(): Promise<void> {
    resync(Math.max(received, (await eventLogBounds()).newest ?? 0));
  }

  /** Everything after the cursor from the log, or `resync` when it is too much (or gone). */
  async function catchUp(from: number): Promise<void> {
    const missed = await eventsAfter(from, MAX_REPLAY + 1);
    if (missed.length > MAX_REPLAY) return resyncNow();
    if (missed.length && missed[0].eventId > from + 1 && (await eventLogBounds()).oldest === missed[0].eventId) {
      // The log starts past where the page stands: what lay between was pruned.
      return resyncNow();
    }
    const answers: Answers = { now: new Map(), then: new Map() };
    for (const e of missed) {
      if (stopped) return;
      await deliver(e, answers);
    }
  }

  function run(job: () => Promise<void>, onFail: () => void) {
    queue = queue.then(async () => {
      if (stopped) return;
      try {
        await job();
      } catch (err) {
        // A failed look-up must not end the stream; the page catches up from a resync.
        logError('runner event check failed', err);
        onFail();
      }
    });
  }

  function enqueue(e: LoggedRunnerEvent) {
    if (stopped) return;
    received = Math.max(received, e.eventId);
    if (backlog >= MAX_BACKLOG) {
      overflowed = true;
      return;
    }
    backlog++;
    run(
      () => deliver(e),
      () => (overflowed = true),
    );
    queue = queue.then(() => {
      backlog--;
      if (backlog === 0 && overflowed && !stopped) {
        overflowed = false;
        resync(received);
      }
    });
  }

  const onEvent = (payload: string) => {
    const e = parseEventNotification(payload);
    if (e) enqueue(e);
  };
  // Announcements were lost while the hub reconnected, but the log has them: replay from the cursor.
  const onReconnect = () =>
    run(
      () => catchUp(cursor),
      () => resync(received),
    );

  const unsubscribe = await subscribe(RUNNER_EVENTS_CHANNEL, onEvent, onReconnect);

  try {
    // Subscribed before this: whatever commits from now on is announced, and the log holds the rest.
    const bounds = await eventLogBounds();
    if (opts.lastEventId === null) {
      cursor = bounds.newest ?? 0;
      send('position', {}, cursor);
    } else {
      const plan = resumePlan(parseLastEventId(opts.lastEventId), bounds);
      if (plan.kind === 'resync') resync(plan.at);
      else {
        cursor = plan.from;
        try {
          await catchUp(plan.from);
        } catch (err) {
          logError('runner event replay failed', err);
          resync(bounds.newest ?? 0);
        }
        // Always, even right after the last replayed event: the page knows the replay is over and that
        // this server resumed its stream (a server of an earlier release would not).
        send('position', {}, cursor);
      }
    }
  } catch (err) {
    unsubscribe();
    throw err;
  }
  opened();

  const recheck = setInterval(() => {
    opts.reauthenticate().then(
      (next) => {
        if (next) actor = next;
        else sink.close();
      },
      () => sink.close(),
    );
  }, REAUTHENTICATE_MS);
  const position = setInterval(() => {
    if (backlog === 0 && sentId < cursor) send('position', {}, cursor);
  }, POSITION_MS);

  return () => {
    stopped = true;
    clearInterval(recheck);
    clearInterval(position);
    unsubscribe();
  };
}
