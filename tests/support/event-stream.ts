// A Server-Sent Events reader for API tests: opens a stream with fetch, parses events as they arrive
// and lets a test wait for the next one that matches (with a deadline), or close the stream.
export interface StreamEvent {
  event: string;
  id?: string;
  data: any;
  /** performance.now() when the event was parsed. */
  at: number;
}

export interface EventStream {
  status: number;
  headers: Headers;
  events: StreamEvent[];
  /** The first event (from now on or already received, not yet consumed) matching `match`. */
  next(match: (e: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string>): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: StreamEvent[] = [];
  const consumed = new Set<StreamEvent>();
  let wake: (() => void) | undefined;
  let buffer = '';

  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const e: StreamEvent = { event: 'message', data: undefined, at: performance.now() };
          let data: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const [field, ...rest] = line.split(':');
            const v = rest.join(':').replace(/^ /, '');
            if (field === 'event') e.event = v;
            else if (field === 'id') e.id = v;
            else if (field === 'data') data = data === undefined ? v : `${data}\n${v}`;
          }
          if (data === undefined) continue;
          e.data = JSON.parse(data);
          events.push(e);
          wake?.();
        }
      }
    } catch {
      // aborted by close()
    }
  })();

  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    async next(match, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((e) => !consumed.has(e) && match(e));
        if (found) {
          consumed.add(found);
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => [e.event, e.data]))}`);
        await Promise.race([new Promise<void>((r) => (wake = r)), ended, new Promise((r) => setTimeout(r, left))]);
      }
    },
    close: () => abort.abort(),
  };
}
