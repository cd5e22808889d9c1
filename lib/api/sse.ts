// Server-Sent Events as a streaming Response: the framing, a heartbeat comment, the headers that keep
// proxies and the compression layer from buffering, and one cleanup path for every way a stream ends
// (the client leaves, the producer closes it, the server shuts down).
import { logError } from '../server/log';
import { metrics } from '../metrics/registry';
import { markLongLived } from '../observability/request-context';

/** A comment line every 15 s keeps idle connections open through proxies and lets clients notice a dead one. */
export const HEARTBEAT_MS = 15_000;
/** What an EventSource waits before reconnecting after the stream dropped (the `retry` field). */
export const RETRY_MS = 2_000;

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

// Open streams of this process, so shutdown can end them: they are connections, not shared state. On
// globalThis because Next.js may load this module once per bundle while the launcher imports it too.
// Each entry ends its stream, after writing `last` when given.
const holder = globalThis as typeof globalThis & { __runwayEventStreams?: Set<(last?: string) => void> };
const streams = () => (holder.__runwayEventStreams ??= new Set());

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
 * once however the stream ends. `signal` is the request's: it aborts when the client disconnects.
 */
export function eventStreamResponse(signal: AbortSignal, start: (sink: SseSink) => Promise<() => void> | (() => void)): Response {
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
