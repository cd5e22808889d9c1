// Next.js pipes every route handler's and page's body to the socket by calling res.flushHeaders() before
// its first chunk, so an API answer of one JSON chunk left in two writes: the headers alone, then the
// chunk with the chunked-encoding end (two TCP segments, two system calls, two reads for the client).
// Deferred to the next turn of the event loop, the headers leave with the first chunk when it follows at
// once, as it does for every buffered answer; a stream whose first chunk is late (the live event streams)
// still gets its headers within a turn.
import type http from 'node:http';

/** Makes `res.flushHeaders()` send the headers with the first write, or a turn later if none comes. */
export function deferHeaderFlush(res: http.ServerResponse): void {
  const flushNow = res.flushHeaders.bind(res);
  let scheduled = false;
  res.flushHeaders = () => {
    if (scheduled || res.headersSent) return;
    scheduled = true;
    setImmediate(() => {
      // A write or the end has sent them meanwhile (headersSent), or there is nobody left to send them to.
      if (!res.headersSent && !res.destroyed) flushNow();
    });
  };
}
