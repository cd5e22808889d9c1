// One HTTP request on a connection of its own, for tests that need what fetch hides: every header as
// sent, a body written in chunks (then sent chunked), no connection reuse.
import http from 'node:http';
import { expect } from 'vitest';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequestOptions {
  headers?: Record<string, string>;
  /** Chunks go out as they are, chunked (no Content-Length). */
  body?: string | string[];
  signal?: AbortSignal;
}

export function rawRequest(url: string, method: string, opts: RawRequestOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: opts.headers, signal: opts.signal, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (Array.isArray(opts.body)) for (const chunk of opts.body) req.write(chunk);
    else if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export const jsonBody = (body: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Waits until a job poll is held: still unanswered well after a plain poll's time (a hold logs nothing). */
export async function expectHeld(poll: Promise<unknown>): Promise<void> {
  let answered = false;
  void poll.then(
    () => (answered = true),
    () => (answered = true),
  );
  await new Promise((r) => setTimeout(r, 700));
  expect(answered).toBe(false);
}
