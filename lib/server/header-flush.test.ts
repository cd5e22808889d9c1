import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deferHeaderFlush } from './header-flush';

type Handler = (res: http.ServerResponse) => void;

/** Serves one handler, counting the socket writes (system calls) each response took. */
async function serve(handler: Handler): Promise<{ url: string; writes: number[]; close: () => Promise<void> }> {
  const writes: number[] = [];
  const server = http.createServer((_req, res) => {
    const socket = res.socket as unknown as { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };
    const i = writes.push(0) - 1;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes[i]++;
        return original(...args);
      };
    }
    handler(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, writes, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Next.js's writer: flushHeaders before the first chunk, write it, then end.
const nextLike =
  (defer: boolean): Handler =>
  (res) => {
    if (defer) deferHeaderFlush(res);
    res.setHeader('Content-Type', 'application/json');
    res.flushHeaders();
    res.write(Buffer.from('{"id":1}'));
    res.end();
  };

describe('deferHeaderFlush', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('sends the headers and a one-chunk body in one write, where flushHeaders alone took two', async () => {
    for (const [defer, expected] of [
      [false, 2],
      [true, 1],
    ] as const) {
      const s = await serve(nextLike(defer));
      close = s.close;
      const res = await fetch(s.url);
      expect(await res.json()).toEqual({ id: 1 });
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(s.writes, defer ? 'deferred' : 'as Next.js does it').toEqual([expected]);
      await s.close();
      close = undefined;
    }
  });

  it('still sends the headers of a stream whose first chunk is late', async () => {
    let finish: () => void = () => undefined;
    const s = await serve((res) => {
      deferHeaderFlush(res);
      res.setHeader('Content-Type', 'text/event-stream');
      res.flushHeaders();
      finish = () => res.end('data: late\n\n');
    });
    close = s.close;
    // The response (its headers) arrives while the body has not started.
    const res = await fetch(s.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    finish();
    expect(await res.text()).toBe('data: late\n\n');
  });
});
