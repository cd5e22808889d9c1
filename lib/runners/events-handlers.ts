// GET /api/v4/runners/events (Runway extension): the runner changes the caller may see, as Server-Sent
// Events, until the client leaves. Authenticated like every endpoint (session cookie or token with api
// or read_api); the stream re-checks the caller every minute. A session or token holds at most
// RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT streams open in one process, and a user at most
// RUNWAY_MAX_EVENT_STREAMS_PER_USER on all instances together, whatever their sessions and tokens
// (counted in PostgreSQL, lib/api/stream-leases.ts); one more answers GitLab's 429 with Retry-After.
import { applySudo, authenticate, type Actor } from '../api/authenticate';
import { endpoint } from '../api/handler';
import { eventStreamResponse, OVER_CAP_RETRY_AFTER_SECONDS } from '../api/sse';
import { retryLater } from '../api/response';
import { acquireStreamLease } from '../api/stream-leases';
import { integerSetting } from '../config/env';
import { startRunnerEvents } from './events';

/** The credential a stream is counted against: each session and each token is one client (Sudo included). */
function streamClientKey(actor: Actor): string {
  if (actor.sessionId) return `session:${actor.sessionId}`;
  if (actor.token) return `token:${actor.token.id}`;
  return `user:${actor.user.id}`;
}

export const runnerEventsEndpoint = endpoint({
  handle: async (ctx) => {
    const actor = ctx.user();
    // HEAD answers the stream's headers without opening it.
    if (ctx.method === 'HEAD')
      return new Response(null, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform' } });
    const lease = await acquireStreamLease(actor.user.id, integerSetting('RUNWAY_MAX_EVENT_STREAMS_PER_USER'));
    if (!lease) return retryLater(OVER_CAP_RETRY_AFTER_SECONDS);
    return eventStreamResponse(
      ctx.req.signal,
      (sink) =>
        startRunnerEvents({
          actor,
          sink,
          reauthenticate: async () => applySudo(await authenticate(ctx.req, ctx.raw), ctx.req, ctx.raw),
          // EventSource sends the id of the last event it saw when it reconnects by itself; a page that
          // reopens the stream itself passes it as ?last_event_id= (an EventSource cannot set headers).
          lastEventId: ctx.req.headers.get('last-event-id') ?? (typeof ctx.raw.last_event_id === 'string' ? ctx.raw.last_event_id : null),
        }),
      { key: streamClientKey(actor), limit: integerSetting('RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT') },
      lease.release,
    );
  },
});
