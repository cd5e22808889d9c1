// Issue 20, defect 10: per-client bounds on long-lived requests, on two Runway servers of their own with
// short bounds (a 2 s request timeout, long polling 6 s, 2 held polls per runner, 2 event streams per
// client), one answering runner polls on the fast path and one through Next.js:
// - a client that sends its headers or its body slowly gets 408 within the timeout (Node kept it 300 s);
// - a held poll and an event stream, long answers to requests already received, outlive that timeout;
// - one more held poll than a runner's cap, or event stream than a session's or token's, answers GitLab's
//   429 (`Retry later`, `Retry-After`), and the slot is free again once one ends.
import net from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { openEventStream } from '../support/event-stream';
import { expectHeld, jsonBody, rawRequest, type RawRequestOptions } from '../support/http';
import { cli, freePort, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { signIn } from '../support/users';
import { needsServer } from '../../lib/db/test-server';

// Two instances (fast path and Next.js) share one database: the embedded one belongs to a single process.
const server = needsServer('two Runway instances on one database');

// The bounds under test, set low (shipped: a 60 s request timeout, 50 s holds, 16 held polls per runner, 10
// streams per client) so that reaching and passing each takes seconds and a handful of requests; the
// behaviour at the bound is the same at any value.
const TIMEOUT_SECONDS = 2;
const HOLD_SECONDS = 6;
const HELD_POLLS = 2;
const STREAMS = 2;

interface Instance {
  name: string;
  port: number;
  base: string;
  server: ChildProcess;
}

let database: TestDatabase;
let fast: Instance;
let next: Instance;
let rootToken: string;

async function startInstance(name: string, extra: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = runwayEnv({
    ...database.env,
    RUNWAY_EXTERNAL_URL: base,
    RUNWAY_REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
    RUNWAY_LONG_POLLING_SECONDS: String(HOLD_SECONDS),
    RUNWAY_MAX_HELD_POLLS_PER_RUNNER: String(HELD_POLLS),
    RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT: String(STREAMS),
    ...extra,
  });
  return { name, port, base, server: await startServer(port, env) };
}

beforeAll(async () => {
  if (server.skip) return;
  const [dbPort] = [await freePort()];
  database = await freshDatabase(`runway_test_bounds_${process.pid}`, dbPort);
  const env = runwayEnv({ ...database.env });
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'bounds'], env);
  expect(made.status, made.stderr).toBe(0);
  rootToken = made.stdout.trim();
  fast = await startInstance('fast path', {});
  next = await startInstance('Next.js', { RUNWAY_RUNNER_FAST_PATH: 'false' });
}, 240_000);

afterAll(async () => {
  await Promise.all([fast, next].filter(Boolean).map((i) => stopServer(i.server)));
  await database?.drop();
});

const send = (instance: Instance, method: string, path: string, opts: RawRequestOptions = {}) => rawRequest(`${instance.base}/api/v4${path}`, method, opts);
const json = jsonBody;

async function newRunner(instance: Instance): Promise<string> {
  const res = await send(instance, 'POST', '/user/runners', {
    ...json({ runner_type: 'instance_type' }),
    headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
  });
  expect(res.status, res.body).toBe(201);
  return (JSON.parse(res.body) as { token: string }).token;
}

/** The runner's queue value: a poll that sends it back is held. */
async function queueValue(instance: Instance, token: string): Promise<string> {
  const res = await send(instance, 'POST', '/jobs/request', json({ token }));
  expect(res.status).toBe(204);
  return res.headers['x-gitlab-last-update'] as string;
}

function heldPoll(instance: Instance, token: string, lastUpdate: string, signal?: AbortSignal) {
  const started = Date.now();
  return send(instance, 'POST', '/jobs/request', { ...json({ token, last_update: lastUpdate }), signal }).then((a) => ({
    ...a,
    elapsed: Date.now() - started,
  }));
}

/** Resolves with what the server wrote and how long after `first` it closed the socket. */
function rawExchange(instance: Instance, first: string, trickle: string, everyMs: number) {
  return new Promise<{ text: string; elapsed: number }>((resolve, reject) => {
    const socket = net.connect(instance.port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(first);
      timer = setInterval(() => socket.writable && socket.write(trickle), everyMs);
    });
    socket.on('data', (d) => (text += d));
    socket.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err),
    );
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, elapsed: Date.now() - started });
    });
  });
}

// Node checks its timers every quarter of the timeout: the answer comes between 2 and 2.5 s, plus load.
const BOUND_MS = (TIMEOUT_SECONDS + 3) * 1000;

describe('[PLATFORM] slow requests', server, () => {
  it('answers 408 to a body trickled slower than the request timeout, on every way in', async () => {
    const cases: Array<[Instance, string]> = [
      [fast, '/api/v4/projects'], // Next.js route, anonymous
      [fast, '/api/v4/jobs/request'], // the runner fast path
      [next, '/api/v4/jobs/request'], // the same route through Next.js
      [fast, '/api/auth/callback/credentials'], // next-auth, outside /api/v4
    ];
    const results = await Promise.all(
      cases.map(([instance, path]) =>
        rawExchange(instance, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":"`, 'x', 200),
      ),
    );
    for (const [i, { text, elapsed }] of results.entries()) {
      const label = `${cases[i][0].name} ${cases[i][1]}`;
      expect(text.split('\r\n')[0], label).toBe('HTTP/1.1 408 Request Timeout');
      expect(text.endsWith('{"message":"408 Request Timeout"}'), label).toBe(true);
      expect(elapsed, label).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 100);
      expect(elapsed, label).toBeLessThan(BOUND_MS);
    }
  });

  it('answers 408 to headers trickled slower than the request timeout', async () => {
    const { text, elapsed } = await rawExchange(fast, 'GET /api/v4/version HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n', 200);
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(elapsed).toBeLessThan(BOUND_MS);
  });

  it('does not cut a held poll or an event stream, long answers to requests already received', async () => {
    for (const instance of [fast, next]) {
      const token = await newRunner(instance);
      const held = await heldPoll(instance, token, await queueValue(instance, token));
      expect(held.status, instance.name).toBe(204);
      expect(held.elapsed, instance.name).toBeGreaterThanOrEqual(HOLD_SECONDS * 1000 - 500);
    }
    const stream = await openEventStream(`${fast.base}/api/v4/runners/events`, { 'PRIVATE-TOKEN': rootToken });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await new Promise((r) => setTimeout(r, (TIMEOUT_SECONDS * 2 + 1) * 1000));
    expect(ended).toBe(false);
    stream.close();
  }, 60_000);
});

describe('[RUNNERS] per-client caps on long-lived requests', server, () => {
  it(`holds at most ${HELD_POLLS} polls per runner in a process; one more answers 429 Retry later`, async () => {
    for (const instance of [fast, next]) {
      const token = await newRunner(instance);
      const value = await queueValue(instance, token);
      const aborts = Array.from({ length: HELD_POLLS }, () => new AbortController());
      const polls = aborts.map((a) => heldPoll(instance, token, value, a.signal).catch(() => null));
      await Promise.all(polls.map(expectHeld));
      const over = await heldPoll(instance, token, value);
      expect(over.status, instance.name).toBe(429);
      expect(over.body).toBe('Retry later\n');
      expect(over.headers['content-type']).toBe('text/plain');
      expect(over.headers['retry-after']).toBe(String(HOLD_SECONDS));
      // Another runner is not affected, nor is a poll that need not wait (its last_update is stale).
      const other = await newRunner(instance);
      await expectHeld(heldPoll(instance, other, await queueValue(instance, other)));
      expect((await heldPoll(instance, token, 'stale-value')).status).toBe(204);
      // A client gone frees its slot.
      aborts[0].abort();
      await polls[0];
      await new Promise((r) => setTimeout(r, 200));
      await expectHeld(heldPoll(instance, token, value));
      aborts.slice(1).forEach((a) => a.abort());
    }
  }, 60_000);

  it(`opens at most ${STREAMS} event streams per token or session in a process; one more answers 429 Retry later`, async () => {
    const url = `${fast.base}/api/v4/runners/events`;
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openEventStream(url, { 'PRIVATE-TOKEN': rootToken })));
    expect(streams.map((s) => s.status)).toEqual(Array(STREAMS).fill(200));
    const over = await send(fast, 'GET', '/runners/events', { headers: { 'PRIVATE-TOKEN': rootToken } });
    expect(over.status).toBe(429);
    expect(over.body).toBe('Retry later\n');
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    // A session of the same user is another client; it has its own cap.
    const session = await signIn('root', ROOT_PASSWORD, fast.base);
    const viaSession = await Promise.all(Array.from({ length: STREAMS }, () => openEventStream(url, { Cookie: session.cookie })));
    expect(viaSession.map((s) => s.status)).toEqual(Array(STREAMS).fill(200));
    expect((await send(fast, 'GET', '/runners/events', { headers: { Cookie: session.cookie } })).status).toBe(429);
    // The other process holds its own count (a socket lives in one process).
    const elsewhere = await openEventStream(`${next.base}/api/v4/runners/events`, { 'PRIVATE-TOKEN': rootToken });
    expect(elsewhere.status).toBe(200);
    // A closed stream frees its slot.
    streams[0].close();
    await new Promise((r) => setTimeout(r, 300));
    const again = await openEventStream(url, { 'PRIVATE-TOKEN': rootToken });
    expect(again.status).toBe(200);
    for (const s of [...streams, ...viaSession, elsewhere, again]) s.close();
  }, 60_000);
});
