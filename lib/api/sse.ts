// Server-Sent Events as a streaming Response: the framing, a heartbeat comment, the headers that keep
// proxies and the compression layer from buffering, and one cleanup path for every way a stream ends
// (the client leaves, the producer closes it, the server shuts down), and a cap on the streams one client
// holds open in this process.
import { logError } from '../log/log';
import { metrics } from '../metrics/registry';
import { markLongLived } from '../observability/request-context';
import { retryLater } from './response';

/** A comment line every 15 s keeps idle connections open through proxies and lets clients notice a dead one. */
export const HEARTBEAT_MS = 15_000;
/** What an EventSource waits before reconnecting after the stream dropped (the `retry` field). */
export const RETRY_MS = 2_000;
/** `Retry-After` of a stream refused over its client's cap: about when one of the client's tabs may have closed. */
export const OVER_CAP_RETRY_AFTER_SECONDS = 60;

export interface SseEvent {
  event?: string;
  id?: string;
  data: unknown;
}

export interface SseSink {
  send(event: SseEvent): void;
  /** Ends the stream (the client reconnects after `retry`). */
  close(): void;
}

// Open streams of this process, so shutdown can end them, and how many each client holds: they are
// connections, not shared state. On globalThis because Next.js may load this module once per bundle while
// the launcher imports it too. Each entry ends its stream, after writing `last` when given.
const holder = globalThis as typeof globalThis & {
  __runwayEventStreams?: Set<(last?: string) => void>;
  __runwayEventStreamClients?: Map<string, number>;
};
const streams = () => (holder.__runwayEventStreams ??= new Set());
const perClient = () => (holder.__runwayEventStreamClients ??= new Map());

/** Who holds a stream (a session or a token, never its secret) and how many they may hold at once. */
export interface StreamClient {
  key: string;
  limit: number;
}

export function openEventStreamCount(): number {
  return streams().size;
}

/**
 * Ends every open stream of this process (server shutdown), each with a last `retry` hint so that the
 * client reconnects after it (to another instance behind the load balancer) instead of its own backoff.
 */
export function closeEventStreams(): void {
  for (const close of [...streams()]) close(`retry: ${RETRY_MS}\n\n`);
}

/** One event in the text/event-stream format; data is JSON on one line. */
export function formatEvent(e: SseEvent): string {
  let out = '';
  if (e.id !== undefined) out += `id: ${e.id.replace(/[\r\n]/g, '')}\n`;
  if (e.event) out += `event: ${e.event.replace(/[\r\n]/g, '')}\n`;
  return `${out}data: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * A text/event-stream Response. `start` wires the producer and returns its cleanup, which runs exactly
 * once however the stream ends. `signal` is the request's: it aborts when the client disconnects. A
 * client already holding `client.limit` streams gets GitLab's 429 instead. `onEnd` runs once, when the
 * stream ends or is refused (the caller's per-user lease, lib/api/stream-leases.ts).
 */
export function eventStreamResponse(
  signal: AbortSignal,
  start: (sink: SseSink) => Promise<() => void> | (() => void),
  client?: StreamClient,
  onEnd: () => void = () => undefined,
): Response {
  const held = client ? (perClient().get(client.key) ?? 0) : 0;
  if (client && held >= client.limit) {
    onEnd();
    return retryLater(OVER_CAP_RETRY_AFTER_SECONDS);
  }
  // Counted now, before anything awaits, so concurrent requests of one client cannot both pass the check.
  if (client) perClient().set(client.key, held + 1);
  const release = () => {
    if (!client) return;
    const left = (perClient().get(client.key) ?? 1) - 1;
    if (left > 0) perClient().set(client.key, left);
    else perClient().delete(client.key);
  };
  const encoder = new TextEncoder();
  let finish: (last?: string) => void = () => undefined;
  markLongLived('event_stream');

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let cleanup: (() => void) | undefined;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          finish();
        }
      };
      finish = (last) => {
        if (closed) return;
        if (last) write(last);
        closed = true;
        release();
        onEnd();
        clearInterval(heartbeat);
        signal.removeEventListener('abort', onAbort);
        streams().delete(finish);
        metrics().eventStreams.dec();
        cleanup?.();
        try {
          controller.close();
        } catch {
          // already closed or cancelled by the client
        }
      };
      const onAbort = () => finish();
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
      streams().add(finish);
      metrics().eventStreams.inc();
      signal.addEventListener('abort', onAbort);
      // The retry hint, and a first byte so clients and proxies see the stream open at once.
      write(`retry: ${RETRY_MS}\n: connected\n\n`);
      try {
        const stop = await start({ send: (e) => write(formatEvent(e)), close: () => finish() });
        if (closed) stop();
        else cleanup = stop;
      } catch (err) {
        // The producer could not start (database unavailable): end the stream; the client retries.
        logError('event stream failed to start', err);
        finish();
        return;
      }
      if (signal.aborted) finish();
    },
    cancel() {
      finish();
    },
  });

  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: the compression middleware (and proxies) must pass events through unbuffered.
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
