// The runner fast path and long polling, on three Runway servers sharing one fresh database:
//   fast  - RUNWAY_RUNNER_FAST_PATH on (the default), long polling 8 s, debug logs (to see holds end),
//           heartbeats buffered (flushed every second) and polls served from its runner cache
//   next  - RUNWAY_RUNNER_FAST_PATH=false: the same routes through Next.js, long polling 8 s, debug logs
//   nohold - fast path on, RUNWAY_LONG_POLLING_SECONDS=0
// The same requests sent to `fast` and `next` must get the same answers; a poll held on one instance is
// woken by a change made through another (PostgreSQL LISTEN/NOTIFY), and ends with its client or server.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { expectHeld, jsonBody, rawRequest, type Answer, type RawRequestOptions } from '../support/http';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { needsServer } from '../../lib/db/test-server';

interface Instance {
  base: string;
  server: ChildProcess;
  logs: string[];
}

const MAX_BODY = 4096;
const HOLD_SECONDS = 8;

let database: TestDatabase;
let fast: Instance;
let next: Instance;
let nohold: Instance;
let rootToken: string;

async function startInstance(extra: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base, RUNWAY_MAX_BODY_BYTES: String(MAX_BODY), ...extra });
  const server = await startServer(port, env);
  const logs: string[] = [];
  let partial = '';
  server.stdout?.on('data', (d) => {
    // A line may arrive in two chunks: keep the unfinished end for the next one.
    const lines = (partial + String(d)).split('\n');
    partial = lines.pop() ?? '';
    logs.push(...lines.filter(Boolean));
  });
  return { base, server, logs };
}

/** One raw request: a body given as chunks goes out chunked (no Content-Length). */
const send = (instance: Instance, method: string, path: string, opts: RawRequestOptions = {}): Promise<Answer> =>
  rawRequest(`${instance.base}/api/v4${path}`, method, { ...opts, headers: { 'X-Request-Id': 'fastpath-equivalence', ...(opts.headers ?? {}) } });

const json = jsonBody;

async function adminApi(method: string, path: string, body?: unknown): Promise<Answer> {
  return send(next, method, path, {
    headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function newRunner(): Promise<{ id: number; token: string }> {
  const res = await adminApi('POST', '/user/runners', { runner_type: 'instance_type', description: 'fast path' });
  expect(res.status).toBe(201);
  return JSON.parse(res.body);
}

/**
 * Every header must agree except: the date and connection handling; the framing (Next.js drops the
 * handler's Content-Length and sends chunked, the fast path keeps it; the body is compared byte for
 * byte instead); and Next.js's `Vary: rsc, next-router-…`, which concerns its page cache, not the API.
 */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'vary']);
const comparable = (a: Answer) => ({
  status: a.status,
  body: a.body,
  headers: Object.fromEntries(
    Object.entries(a.headers)
      .filter(([h]) => !FRAMING.has(h))
      .sort(([x], [y]) => x.localeCompare(y)),
  ),
});

/** Polls that echo the runner's current queue value. */
async function currentValue(instance: Instance, token: string): Promise<string> {
  const res = await send(instance, 'POST', '/jobs/request', json({ token, system_id: 's_0123456789ab' }));
  expect(res.status).toBe(204);
  return res.headers['x-gitlab-last-update'] as string;
}

const heldPoll = (instance: Instance, token: string, lastUpdate: string, signal?: AbortSignal) => {
  const started = Date.now();
  return send(instance, 'POST', '/jobs/request', { ...json({ token, system_id: 's_0123456789ab', last_update: lastUpdate }), signal }).then((a) => ({
    ...a,
    at: Date.now(),
    elapsed: Date.now() - started,
  }));
};

/** Resolves once `instance` logged a line matching `re` (the test's own timeout bounds the wait). */
async function logged(instance: Instance, re: RegExp, from = 0): Promise<string> {
  for (;;) {
    const line = instance.logs.slice(from).find((l) => re.test(l));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the poll is held: the instance has subscribed and the request has not been answered. */
const holdStarted = (instance: Instance, poll: Promise<unknown>): Promise<void> => expectHeld(poll);

describe('[RUNNERS] runner fast path and long polling', { ...needsServer('three Runway instances on one database'), timeout: 60_000 }, () => {
  beforeAll(async () => {
    database = await freshDatabase(`runway_test_fast_path_${process.pid}`, await freePort());
    const env = runwayEnv({ ...database.env });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'fast-path'], env);
    expect(made.status).toBe(0);
    rootToken = made.stdout.trim();
    const hold = String(HOLD_SECONDS);
    [fast, next, nohold] = await Promise.all([
      startInstance({ RUNWAY_LONG_POLLING_SECONDS: hold, RUNWAY_LOG_LEVEL: 'debug', RUNWAY_HEARTBEAT_FLUSH_SECONDS: '1' }),
      startInstance({ RUNWAY_LONG_POLLING_SECONDS: hold, RUNWAY_RUNNER_FAST_PATH: 'false', RUNWAY_LOG_LEVEL: 'debug' }),
      startInstance({ RUNWAY_LONG_POLLING_SECONDS: '0' }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([fast, next, nohold].filter(Boolean).map((i) => stopServer(i.server)));
    await database?.drop();
  });

  it('answer the same requests identically with the fast path on and off', async () => {
    const runner = await newRunner();
    const t = runner.token;
    const value = await currentValue(next, t);
    const cases: Array<[string, string, Parameters<typeof send>[3]]> = [
      ['POST', '/runners/verify', json({ token: t, system_id: 's_0123456789ab' })],
      ['POST', '/runners/verify', { headers: { 'RUNNER-TOKEN': t, 'Content-Type': 'application/json' }, body: '{}' }],
      ['POST', '/runners/verify', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `token=${t}` }],
      ['POST', `/runners/verify?token=${t}`, {}],
      ['POST', '/runners/verify', json({ token: 'glrt-not-a-token' })],
      ['POST', '/runners/verify', json({ token: t, system_id: 'x'.repeat(65) })],
      ['POST', '/jobs/request', json({ token: t, system_id: 's_0123456789ab', info: { version: '18.4.0' } })],
      ['POST', '/jobs/request', json({ token: t, last_update: 'not-the-value' })],
      ['POST', '/jobs/request', json({ token: t, last_update: value.slice(0, -1) })],
      ['POST', '/jobs/request', json({ token: 'glrt-not-a-token' })],
      ['POST', '/jobs/request', { headers: { 'RUNNER-TOKEN': 'bad', 'Content-Type': 'application/json' }, body: '{}' }],
      ['POST', '/jobs/request', { headers: { 'Content-Type': 'application/json' }, body: '{"token": ' }],
      ['POST', '/jobs/request', json({})],
      ['POST', '/jobs/request', json({ token: t, info: 'not a hash' })],
      ['POST', '/jobs/request', json({ token: 'a\u0000b' })],
      ['POST', '/jobs/request', { headers: { 'Content-Type': 'application/json', 'Content-Length': String(MAX_BODY + 1) }, body: 'x'.repeat(MAX_BODY + 1) }],
      ['POST', '/jobs/request', { headers: { 'Content-Type': 'application/json' }, body: ['{"token":"', 'x'.repeat(MAX_BODY), '"}'] }],
      ['HEAD', '/jobs/request', {}],
      ['GET', '/jobs/request', {}],
      ['PUT', '/runners/verify', json({ token: t })],
      ['DELETE', '/jobs/request', {}],
      ['OPTIONS', '/runners/verify', {}],
      ['PATCH', '/jobs/request', json({ token: t })],
    ];
    for (const [method, path, opts] of cases) {
      const viaFast = await send(fast, method, path, opts);
      const viaNext = await send(next, method, path, opts);
      expect(comparable(viaFast), `${method} ${path} ${opts?.body ?? ''}`.slice(0, 120)).toEqual(comparable(viaNext));
      // The framing the fast path sends is right: a declared length that matches the body.
      if (viaFast.headers['content-length'] !== undefined && method !== 'HEAD') {
        expect(Number(viaFast.headers['content-length'])).toBe(Buffer.byteLength(viaFast.body));
      }
    }
    // The statuses themselves, so the comparison cannot pass on two equally broken answers.
    const statuses = [];
    for (const [method, path, opts] of cases) statuses.push((await send(fast, method, path, opts)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 403, 400, 204, 204, 204, 403, 403, 400, 400, 400, 400, 413, 413, 404, 404, 404, 404, 404, 404]);
  });

  it('both ways in record the same heartbeat: the manager and its address', async () => {
    for (const instance of [fast, next]) {
      const runner = await newRunner();
      const res = await send(
        instance,
        'POST',
        '/jobs/request',
        json({ token: runner.token, system_id: 's_aaaaaaaaaaaa', info: { version: '18.5.0', platform: 'linux' } }),
      );
      expect(res.status).toBe(204);
      // `fast` buffers its heartbeats: they are written within its flush interval (1 s).
      const deadline = Date.now() + 3_000;
      let managers: unknown[] = [];
      while (Date.now() < deadline && !managers.length) {
        managers = JSON.parse((await adminApi('GET', `/runners/${runner.id}/managers`)).body);
        if (!managers.length) await new Promise((r) => setTimeout(r, 100));
      }
      expect(managers).toMatchObject([{ system_id: 's_aaaaaaaaaaaa', version: '18.5.0', platform: 'linux', ip_address: '127.0.0.1' }]);
    }
  });

  it('holds a poll whose last_update is current, then answers 204 with the same value when the time is up', async () => {
    const runner = await newRunner();
    const value = await currentValue(fast, runner.token);
    const res = await heldPoll(fast, runner.token, value);
    expect(res.status).toBe(204);
    expect(res.headers['x-gitlab-last-update']).toBe(value);
    expect(res.elapsed).toBeGreaterThanOrEqual(HOLD_SECONDS * 1000 - 100);
  });

  it('answers at once when last_update differs, and when long polling is off', async () => {
    const runner = await newRunner();
    const value = await currentValue(fast, runner.token);
    const stale = await heldPoll(fast, runner.token, `${value}0`);
    expect(stale.status).toBe(204);
    expect(stale.headers['x-gitlab-last-update']).toBe(value);
    expect(stale.elapsed).toBeLessThan((HOLD_SECONDS * 1000) / 2);
    const off = await heldPoll(nohold, runner.token, value);
    expect(off.status).toBe(204);
    expect(off.headers['x-gitlab-last-update']).toBe(value);
    expect(off.elapsed).toBeLessThan((HOLD_SECONDS * 1000) / 2);
  });

  it('wakes a poll held on one instance when the runner is paused through another, on both ways in', async () => {
    for (const [holder, changer] of [
      [fast, next],
      [next, fast],
    ] as const) {
      const runner = await newRunner();
      const value = await currentValue(holder, runner.token);
      const poll = heldPoll(holder, runner.token, value);
      await holdStarted(holder, poll);
      const paused = await send(changer, 'PUT', `/runners/${runner.id}`, {
        headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
        body: '{"paused":true}',
      });
      expect(paused.status).toBe(200);
      const changedAt = Date.now();
      const res = await poll;
      expect(res.status).toBe(204);
      expect(res.headers['x-gitlab-last-update']).not.toBe(value);
      expect(res.headers['x-gitlab-last-update']).toBe(await currentValue(changer, runner.token));
      expect(res.at - changedAt).toBeLessThan(1000);
    }
  });

  it('answers a held poll 403 when its runner is deleted through another instance', async () => {
    const runner = await newRunner();
    const value = await currentValue(fast, runner.token);
    const poll = heldPoll(fast, runner.token, value);
    await holdStarted(fast, poll);
    expect((await adminApi('DELETE', `/runners/${runner.id}`)).status).toBe(204);
    const deletedAt = Date.now();
    const res = await poll;
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ message: '403 Forbidden' });
    expect(res.at - deletedAt).toBeLessThan(1000);
  });

  it('does not wake a held poll for a heartbeat of the same runner, nor for a change to another runner', async () => {
    const [runner, other] = [await newRunner(), await newRunner()];
    const value = await currentValue(fast, runner.token);
    const poll = heldPoll(fast, runner.token, value);
    await holdStarted(fast, poll);
    // Another manager of the same runner polls (a heartbeat), and another runner is paused.
    expect((await send(next, 'POST', '/jobs/request', json({ token: runner.token, system_id: 's_bbbbbbbbbbbb' }))).status).toBe(204);
    expect((await adminApi('PUT', `/runners/${other.id}`, { paused: true })).status).toBe(200);
    const res = await poll;
    expect(res.status).toBe(204);
    expect(res.headers['x-gitlab-last-update']).toBe(value);
    expect(res.elapsed).toBeGreaterThanOrEqual(HOLD_SECONDS * 1000 - 100);
  });

  it('frees the hold when the client goes away, on both ways in', async () => {
    for (const instance of [fast, next]) {
      const runner = await newRunner();
      const value = await currentValue(instance, runner.token);
      const from = instance.logs.length;
      const controller = new AbortController();
      const poll = heldPoll(instance, runner.token, value, controller.signal);
      await holdStarted(instance, poll);
      controller.abort();
      await expect(poll).rejects.toThrow();
      const line = await logged(instance, new RegExp(`held runner poll ended.*"runner_id":${runner.id}\\b`), from);
      expect(JSON.parse(line)).toMatchObject({ reason: 'client_gone' });
    }
  });

  it('answers held polls at once when the server shuts down', async () => {
    const runner = await newRunner();
    const value = await currentValue(fast, runner.token);
    const poll = heldPoll(fast, runner.token, value);
    await holdStarted(fast, poll);
    const stopping = Date.now();
    const stopped = stopServer(fast.server);
    const res = await poll;
    expect(res.status).toBe(204);
    expect(res.headers['x-gitlab-last-update']).toBe(value);
    // Answered by the drain, from the middle of the shutdown blackout (5 s of the default 10 s: tests/api/drain.test.ts),
    // before the 8 s hold would have ended it.
    expect(res.at - stopping).toBeLessThan(HOLD_SECONDS * 1000 - 1000);
    await stopped;
    expect(fast.server.exitCode ?? fast.server.signalCode).not.toBeNull();
  });
});
