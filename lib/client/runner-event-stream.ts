// The browser side of GET /api/v4/runners/events, without React (components/runners/use-runner-events.ts
// wires it to a page's queries). It remembers the id of the last event it was sent and, when it reopens
// a lost stream (itself, with backoff: the browser's own retry gives up on an HTTP error), passes it as
// ?last_event_id=, so the server replays what the page missed, on whichever instance answers, or sends
// `resync` when it cannot. Only a page that never got an id refetches everything on reopening, and one
// whose resumed stream does not acknowledge the id (an instance of an earlier release, mid-upgrade).
import { apiPath } from './api';

export type RunnerEventsState = 'connecting' | 'live' | 'reconnecting';
export interface RunnerEvent {
  id: number;
  action: 'created' | 'updated' | 'deleted';
}

export const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 15_000];
/**
 * A stream starts with `position` (after the replay, when resumed) or `resync`. One that says neither
 * within this long is served by an instance of an earlier release, which starts silently and ignores the
 * id: the page takes it as live then, and refetches instead of waiting for a replay when it resumed.
 */
export const RESUME_ACK_MS = 10_000;

/** What the stream needs of the browser's EventSource (a test passes a fake). */
export interface EventSourceLike {
  onopen: ((e: Event) => void) | null;
  onerror: ((e: Event) => void) | null;
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

export interface RunnerEventStreamHandlers {
  onState(state: RunnerEventsState): void;
  onRunner(event: RunnerEvent): void;
  /** Changes may have been missed: refetch every runner query. */
  onResync(): void;
}

function parseEvent(data: string): RunnerEvent | null {
  try {
    const v = JSON.parse(data) as Partial<RunnerEvent>;
    return typeof v.id === 'number' ? (v as RunnerEvent) : null;
  } catch {
    return null;
  }
}

export const runnerEventsUrl = (lastEventId?: string) => apiPath('/runners/events', { last_event_id: lastEventId });

/** Opens the stream and keeps it open until the returned function is called. */
export function openRunnerEventStream(
  handlers: RunnerEventStreamHandlers,
  create: EventSourceFactory = (url) => new EventSource(url) as unknown as EventSourceLike,
): () => void {
  let source: EventSourceLike | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let openedBefore = false;
  let lastEventId: string | undefined;
  let stopped = false;
  let unacknowledged: ReturnType<typeof setTimeout> | undefined;

  // Every event the server sends carries the id the page stands at (`position` carries nothing else).
  const track = (e: MessageEvent<string>) => {
    if (e.lastEventId) lastEventId = e.lastEventId;
  };
  const acknowledged = () => {
    clearTimeout(unacknowledged);
    unacknowledged = undefined;
  };

  const open = () => {
    const resuming = lastEventId !== undefined;
    const current = (source = create(runnerEventsUrl(lastEventId)));
    // Without an id to resume from, changes made while the stream was down are lost: refetch once, when
    // the stream has started (a refetch before the server listens could miss a change made in between).
    let refetchOnStart = false;
    let started = false;
    // The response opens before the server has subscribed to the changes; its first event comes after.
    // So 'live' waits for that event: before it, a change could go unheard, and a stream that dropped
    // would leave the page with no id to resume from (a reload's worth of refetching instead of a replay).
    const start = (refetch: boolean) => {
      if (started || source !== current) return;
      started = true;
      failures = 0;
      handlers.onState('live');
      if (refetch && refetchOnStart) handlers.onResync();
    };
    current.onopen = () => {
      refetchOnStart = openedBefore && !resuming;
      openedBefore = true;
      acknowledged();
      unacknowledged = setTimeout(() => {
        unacknowledged = undefined;
        if (resuming) handlers.onResync();
        start(!resuming);
      }, RESUME_ACK_MS);
    };
    current.addEventListener('runner', (e) => {
      track(e);
      start(true);
      const event = parseEvent(e.data);
      if (event) handlers.onRunner(event);
    });
    current.addEventListener('resync', (e) => {
      track(e);
      acknowledged();
      // One refetch covers both.
      start(false);
      handlers.onResync();
    });
    current.addEventListener('position', (e) => {
      track(e);
      acknowledged();
      start(true);
    });
    current.onerror = () => {
      current.close();
      acknowledged();
      if (stopped || source !== current) return;
      handlers.onState('reconnecting');
      retry = setTimeout(open, BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]);
    };
  };
  open();

  return () => {
    stopped = true;
    source?.close();
    clearTimeout(retry);
    acknowledged();
  };
}
