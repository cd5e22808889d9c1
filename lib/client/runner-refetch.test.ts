// The page side of live runner events, with a fake EventSource and a real TanStack QueryClient: a
// reopened stream asks the server to resume from the last id it was sent, and `resync` (or a reopen with
// nothing to resume from) refetches every runner query, while an event refetches only its runner's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';
import { followRunnerEvents, BATCH_MS } from './runner-refetch';
import { BACKOFF_MS, RESUME_ACK_MS, type EventSourceLike, type RunnerEventsState } from './runner-event-stream';

class FakeSource implements EventSourceLike {
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  closed = false;
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  emit(type: string, id: string, data: unknown) {
    const e = { data: JSON.stringify(data), lastEventId: id } as MessageEvent<string>;
    for (const l of this.listeners.get(type) ?? []) l(e);
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
}

describe('[RUNNERS] live runner events in the page', () => {
  let client: QueryClient;
  let sources: FakeSource[];
  let states: RunnerEventsState[];
  let stop: () => void;
  const current = () => sources[sources.length - 1];
  const keys = {
    list: queryKeys.runners.listPage('all', { page: 1 }),
    count: queryKeys.runners.listCount('all', { status: 'online' }),
    one: queryKeys.runners.detail(1),
    two: queryKeys.runners.detail(2),
    extra: ['fleet', 'overview'],
  };
  const invalidated = () =>
    Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, client.getQueryCache().find({ queryKey: key, exact: true })?.state.isInvalidated]));
  const settle = async () => {
    await vi.advanceTimersByTimeAsync(BATCH_MS + 1);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient();
    for (const key of Object.values(keys)) client.setQueryData(key, { data: 1 });
    sources = [];
    states = [];
    stop = followRunnerEvents(client, { invalidate: () => [keys.extra], onEvent: () => undefined, onState: (s) => states.push(s) }, (url) => {
      const s = new FakeSource(url);
      sources.push(s);
      return s;
    });
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it("refetches only the event's runner (and the lists) for a runner event", async () => {
    current().open();
    current().emit('position', '7', {});
    current().emit('runner', '8', { id: 2, action: 'updated' });
    await settle();
    expect(invalidated()).toEqual({ list: true, count: true, one: false, two: true, extra: true });
  });

  it('refetches every runner query on resync', async () => {
    current().open();
    current().emit('resync', '9', {});
    await settle();
    expect(invalidated()).toEqual({ list: true, count: true, one: true, two: true, extra: true });
  });

  it('reopens a lost stream with the last id it was sent, and refetches nothing by itself', async () => {
    expect(current().url).toBe('/api/v4/runners/events');
    current().open();
    current().emit('runner', '12', { id: 1, action: 'updated' });
    current().emit('position', '15', {});
    await settle();
    for (const key of Object.values(keys)) client.setQueryData(key, { data: 2 });
    current().fail();
    expect(sources[0].closed).toBe(true);
    expect(states).toEqual(['live', 'reconnecting']);
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    expect(sources).toHaveLength(2);
    expect(current().url).toBe('/api/v4/runners/events?last_event_id=15');
    current().open();
    await settle();
    // The server replays what was missed (or says resync): nothing is refetched on reopening.
    expect(Object.values(invalidated()).some(Boolean)).toBe(false);
    current().emit('resync', '40', {});
    await settle();
    expect(Object.values(invalidated()).every(Boolean)).toBe(true);
  });

  it('refetches everything when it reopens with no id to resume from', async () => {
    current().fail();
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    expect(current().url).toBe('/api/v4/runners/events');
    current().open();
    expect(Object.values(invalidated()).some(Boolean)).toBe(false);
    current().fail();
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[1]);
    current().open();
    await settle();
    // Not before the server listens: a change made in between would be missed.
    expect(Object.values(invalidated()).some(Boolean)).toBe(false);
    current().emit('position', '3', {});
    await settle();
    expect(Object.values(invalidated()).every(Boolean)).toBe(true);
  });

  it('is live once the stream has started (its first event), not when the response opens', async () => {
    current().open();
    expect(states).toEqual([]);
    current().emit('position', '5', {});
    expect(states).toEqual(['live']);
    current().fail();
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    current().open();
    expect(states).toEqual(['live', 'reconnecting']);
    // A replay's first event: the server listens again.
    current().emit('runner', '6', { id: 1, action: 'updated' });
    expect(states).toEqual(['live', 'reconnecting', 'live']);
  });

  it('takes a stream that says nothing (an instance of an earlier release) as live after a while', async () => {
    current().open();
    await vi.advanceTimersByTimeAsync(RESUME_ACK_MS - 100);
    expect(states).toEqual([]);
    await vi.advanceTimersByTimeAsync(100 + BATCH_MS + 1);
    expect(states).toEqual(['live']);
    // The first open: nothing to catch up on.
    expect(Object.values(invalidated()).some(Boolean)).toBe(false);
  });

  it('refetches everything when a resumed stream never acknowledges the id (an instance of an earlier release)', async () => {
    current().open();
    current().emit('position', '20', {});
    current().fail();
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    expect(current().url).toBe('/api/v4/runners/events?last_event_id=20');
    current().open();
    await vi.advanceTimersByTimeAsync(RESUME_ACK_MS - 100);
    expect(Object.values(invalidated()).some(Boolean)).toBe(false);
    await vi.advanceTimersByTimeAsync(100 + BATCH_MS + 1);
    expect(Object.values(invalidated()).every(Boolean)).toBe(true);
  });

  it('refetches nothing once the resumed stream ends its replay with its position', async () => {
    current().open();
    current().emit('position', '20', {});
    current().fail();
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    current().open();
    current().emit('runner', '21', { id: 2, action: 'updated' });
    current().emit('position', '21', {});
    await vi.advanceTimersByTimeAsync(RESUME_ACK_MS + BATCH_MS + 1);
    expect(invalidated()).toEqual({ list: true, count: true, one: false, two: true, extra: true });
  });
});
