import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeEventStreams, eventStreamResponse, formatEvent, HEARTBEAT_MS, openEventStreamCount } from './sse';
import { metrics } from '../metrics/registry';

async function readText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value } = await reader.read();
  return new TextDecoder().decode(value);
}

describe('[PLATFORM] server-sent events', () => {
  afterEach(() => {
    closeEventStreams();
    vi.useRealTimers();
  });

  it('formats an event on one data line, and keeps line breaks out of id and event', () => {
    expect(formatEvent({ event: 'runner', id: '7', data: { id: 1, note: 'a\nb' } })).toBe('id: 7\nevent: runner\ndata: {"id":1,"note":"a\\nb"}\n\n');
    expect(formatEvent({ event: 'x\ny', id: '1\r2', data: {} })).toBe('id: 12\nevent: xy\ndata: {}\n\n');
  });

  it('answers an unbuffered event stream that opens with the retry hint', async () => {
    const res = eventStreamResponse(new AbortController().signal, () => () => undefined);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(await readText(res.body!.getReader())).toBe('retry: 2000\n: connected\n\n');
  });

  it('refuses a client a stream past its limit with 429 Retry later, and frees the slot when one ends', async () => {
    const client = { key: 'token:1', limit: 2 };
    const first = new AbortController();
    const open = (signal = new AbortController().signal, who = client) => eventStreamResponse(signal, () => () => undefined, who);
    expect([open(first.signal).status, open().status]).toEqual([200, 200]);
    const over = open();
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toBe('text/plain');
    expect(over.headers.get('retry-after')).toBe('60');
    expect(await over.text()).toBe('Retry later\n');
    expect(openEventStreamCount()).toBe(2);
    expect(open(undefined, { key: 'token:2', limit: 2 }).status).toBe(200);
    first.abort();
    expect(open().status).toBe(200);
    expect(open().status).toBe(429);
  });

  it('runs the cleanup once when the client disconnects, and forgets the stream', async () => {
    const abort = new AbortController();
    const cleanup = vi.fn();
    const res = eventStreamResponse(abort.signal, (sink) => {
      sink.send({ event: 'hello', data: 1 });
      return cleanup;
    });
    const reader = res.body!.getReader();
    await readText(reader);
    expect(openEventStreamCount()).toBe(1);
    abort.abort();
    abort.abort();
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(openEventStreamCount()).toBe(0);
  });

  it('runs the cleanup when the reader cancels, and when the server closes every stream', async () => {
    const first = vi.fn();
    const second = vi.fn();
    const a = eventStreamResponse(new AbortController().signal, () => first);
    const b = eventStreamResponse(new AbortController().signal, () => second);
    const ra = a.body!.getReader();
    const rb = b.body!.getReader();
    await Promise.all([readText(ra), readText(rb)]);
    await ra.cancel();
    expect(first).toHaveBeenCalledTimes(1);
    closeEventStreams();
    expect(second).toHaveBeenCalledTimes(1);
    // A shutdown ends the stream with a last retry hint, so the client comes back (to another instance).
    expect(await readText(rb)).toBe('retry: 2000\n\n');
    expect((await rb.read()).done).toBe(true);
    expect(openEventStreamCount()).toBe(0);
  });

  it('counts open streams in runway_event_streams_open', async () => {
    const gauge = async () => (await metrics().eventStreams.get()).values[0]?.value ?? 0;
    const before = await gauge();
    const abort = new AbortController();
    const reader = eventStreamResponse(abort.signal, () => () => undefined).body!.getReader();
    await readText(reader);
    expect(await gauge()).toBe(before + 1);
    abort.abort();
    expect(await gauge()).toBe(before);
  });

  it('sends a heartbeat comment every 15 seconds', async () => {
    vi.useFakeTimers();
    const res = eventStreamResponse(new AbortController().signal, () => () => undefined);
    const reader = res.body!.getReader();
    await readText(reader);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(await readText(reader)).toBe(': heartbeat\n\n');
  });

  it('ends the stream when the producer cannot start (the client retries)', async () => {
    const res = eventStreamResponse(new AbortController().signal, async () => {
      throw new Error('database unavailable');
    });
    const reader = res.body!.getReader();
    await readText(reader);
    expect((await reader.read()).done).toBe(true);
    expect(openEventStreamCount()).toBe(0);
  });
});
