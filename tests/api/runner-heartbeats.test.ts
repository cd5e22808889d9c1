// Buffered runner heartbeats and the runner cache (lib/runner-agent/heartbeat, lib/runner-agent/contact-cache) on
// Runway instances sharing one database:
//   a, b  - flush every FLUSH_SECONDS (shorter than the 5 s default, so that the waits for a flush are
//           short); polls on `a` are served from its runner cache
//   slow  - flushes only every 300 s, so its heartbeats reach the database only at shutdown
// A change made on one instance must reach the other's next poll, contacted_at must reach the other
// instance's API within the flush interval, a stopped instance must write what it buffered, and an idle
// poll must cost (almost) no transaction, counted on a database of its own.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { jsonBody, rawRequest, type Answer } from '../support/http';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { needsServer } from '../../lib/db/test-server';

const FLUSH_SECONDS = 2;
const SYSTEM_ID = 's_0123456789ab';

interface Instance {
  base: string;
  server: ChildProcess;
}

async function startInstance(database: TestDatabase, extra: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base, RUNWAY_HEARTBEAT_FLUSH_SECONDS: String(FLUSH_SECONDS), ...extra });
  return { base, server: await startServer(port, env) };
}

function rootTokenFor(database: TestDatabase): string {
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'heartbeats'], runwayEnv({ ...database.env }));
  expect(made.status).toBe(0);
  return made.stdout.trim();
}

const admin = (instance: Instance, token: string, method: string, path: string, body?: unknown): Promise<Answer> =>
  rawRequest(`${instance.base}/api/v4${path}`, method, {
    headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function newRunner(instance: Instance, token: string): Promise<{ id: number; token: string }> {
  const res = await admin(instance, token, 'POST', '/user/runners', { runner_type: 'instance_type', description: 'heartbeats' });
  expect(res.status).toBe(201);
  return JSON.parse(res.body);
}

const poll = (instance: Instance, token: string, extra: Record<string, unknown> = {}): Promise<Answer> =>
  rawRequest(
    `${instance.base}/api/v4/jobs/request`,
    'POST',
    jsonBody({ token, system_id: SYSTEM_ID, info: { version: '18.5.0', platform: 'linux' }, ...extra }),
  );

async function queueValue(instance: Instance, token: string): Promise<string> {
  const res = await poll(instance, token);
  expect(res.status).toBe(204);
  return res.headers['x-gitlab-last-update'] as string;
}

async function dbRow<T>(database: TestDatabase, text: string, values: unknown[]): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: database.inspectUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows[0] as T | undefined;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('[RUNNERS] buffered heartbeats and the runner cache across instances', { ...needsServer('Runway instances on one database'), timeout: 60_000 }, () => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;
  let slow: Instance;
  let root: string;

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_heartbeats_${process.pid}`, await freePort());
    root = rootTokenFor(database);
    // A 3 s hold (shipped: 50 s): the pause cases wait for a held poll to be answered, and a short hold keeps
    // each case's wait short; the flush, the blackout and everything else are the shipped defaults.
    const quick = { RUNWAY_LONG_POLLING_SECONDS: '3' };
    [a, b, slow] = await Promise.all([
      startInstance(database, quick),
      startInstance(database, quick),
      startInstance(database, { ...quick, RUNWAY_HEARTBEAT_FLUSH_SECONDS: '300' }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a, b, slow].filter(Boolean).map((i) => stopServer(i.server)));
    await database?.drop();
  });

  it('gives the next poll on one instance the new queue value of a runner paused through another', async () => {
    const runner = await newRunner(b, root);
    // Polled twice on `a`: its runner cache holds the runner.
    const before = await queueValue(a, runner.token);
    expect(await queueValue(a, runner.token)).toBe(before);
    expect((await admin(b, root, 'PUT', `/runners/${runner.id}`, { paused: true })).status).toBe(200);
    const after = await queueValue(a, runner.token);
    expect(after).not.toBe(before);
    expect(after).toBe(await queueValue(b, runner.token));
    // Unpaused through `a` this time: `b`'s next poll learns it too.
    expect((await admin(a, root, 'PUT', `/runners/${runner.id}`, { paused: false })).status).toBe(200);
    const again = await queueValue(b, runner.token);
    expect(again).not.toBe(after);
    expect(again).toBe(await queueValue(a, runner.token));
  });

  it('refuses the next poll on one instance of a runner deleted, or whose token was reset, through another', async () => {
    const deleted = await newRunner(b, root);
    await queueValue(a, deleted.token);
    await queueValue(a, deleted.token);
    expect((await admin(b, root, 'DELETE', `/runners/${deleted.id}`)).status).toBe(204);
    const refused = await poll(a, deleted.token);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ message: '403 Forbidden' });

    const reset = await newRunner(b, root);
    await queueValue(a, reset.token);
    const rotated = await admin(b, root, 'POST', `/runners/${reset.id}/reset_authentication_token`);
    expect(rotated.status).toBe(201);
    expect((await poll(a, reset.token)).status).toBe(403);
    expect((await poll(a, JSON.parse(rotated.body).token)).status).toBe(204);
  });

  it('shows contacted_at, the status and the manager on another instance within the flush interval', async () => {
    const runner = await newRunner(b, root);
    const shown = async () => JSON.parse((await admin(b, root, 'GET', `/runners/${runner.id}`)).body);
    expect((await shown()).status).toBe('never_contacted');
    const polledAt = Date.now();
    expect((await poll(a, runner.token)).status).toBe(204);
    let seen: { contacted_at: string | null; status: string } | undefined;
    while (Date.now() - polledAt < (FLUSH_SECONDS + 2) * 1000) {
      seen = await shown();
      if (seen?.contacted_at) break;
      await sleep(100);
    }
    expect(seen?.contacted_at).toBeTruthy();
    expect(seen?.status).toBe('online');
    expect(Date.now() - polledAt).toBeLessThan((FLUSH_SECONDS + 2) * 1000);
    expect(Math.abs(new Date(seen!.contacted_at!).getTime() - polledAt)).toBeLessThan(2_000);
    const managers = JSON.parse((await admin(b, root, 'GET', `/runners/${runner.id}/managers`)).body);
    expect(managers).toMatchObject([{ system_id: SYSTEM_ID, version: '18.5.0', platform: 'linux', ip_address: '127.0.0.1' }]);
    // A newer version reported later is written by a later flush.
    expect((await poll(a, runner.token, { info: { version: '18.6.0' } })).status).toBe(204);
    await sleep((FLUSH_SECONDS + 1) * 1000);
    const updated = JSON.parse((await admin(b, root, 'GET', `/runners/${runner.id}/managers`)).body);
    expect(updated).toMatchObject([{ system_id: SYSTEM_ID, version: '18.6.0', platform: 'linux' }]);
  });

  it('writes the heartbeats an instance buffered when it is stopped (SIGTERM)', async () => {
    const runner = await newRunner(b, root);
    const row = (id: number) =>
      dbRow<{ contacted_at: Date | null; creation_state: string; managers: number }>(
        database,
        `SELECT contacted_at, creation_state::text, (SELECT count(*)::int FROM ci_runner_machines WHERE runner_id = r.id) AS managers
           FROM ci_runners r WHERE id = $1`,
        [id],
      );
    // A first contact is written at once, with its manager (GitLab writes it at once too).
    expect((await poll(slow, runner.token)).status).toBe(204);
    const first = await row(runner.id);
    expect(first?.contacted_at).not.toBeNull();
    expect(first).toMatchObject({ creation_state: 'finished', managers: 1 });
    // Twenty minutes back (under the 40 minutes after which GitLab, and Runway, write a contact at once): the
    // next poll is a repeat contact, buffered, and the next flush is minutes away.
    await dbRow(database, `UPDATE ci_runners SET contacted_at = now() - interval '20 minutes' WHERE id = $1`, [runner.id]);
    expect((await poll(slow, runner.token)).status).toBe(204);
    await sleep(500);
    expect((await row(runner.id))!.contacted_at!.getTime()).toBeLessThan(Date.now() - 15 * 60_000);
    await stopServer(slow.server);
    expect(slow.server.exitCode).toBe(0);
    expect((await row(runner.id))!.contacted_at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('[RUNNERS] database transactions per idle poll', { ...needsServer('a database of its own'), timeout: 90_000 }, () => {
  let database: TestDatabase;
  let instance: Instance;
  let root: string;
  let stats: pg.Client;

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_poll_xacts_${process.pid}`, await freePort());
    root = rootTokenFor(database);
    // A 1 s hold (shipped: 50 s): half the 200 counted polls are held, and 1 s keeps the run under a minute; a
    // held poll costs no transaction either way, so the count is the shipped one's.
    instance = await startInstance(database, { RUNWAY_LONG_POLLING_SECONDS: '1' });
    // Counted from another database, so the counting adds nothing to the count.
    const url = new URL(database.inspectUrl);
    url.pathname = '/postgres';
    stats = new pg.Client({ connectionString: url.toString() });
    await stats.connect();
  }, 240_000);

  afterAll(async () => {
    await stats?.end();
    if (instance) await stopServer(instance.server);
    await database?.drop();
  });

  const transactions = async () =>
    Number(
      (await stats.query(`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1`, [new URL(database.inspectUrl).pathname.slice(1)]))
        .rows[0].n,
    );

  /** The count once every backend has reported (they report when idle, deferred up to 10 s). */
  async function settledTransactions(): Promise<number> {
    await sleep(11_000);
    return transactions();
  }

  it('costs at most 0.2 transactions per poll in the steady state, held or answered at once', async () => {
    const RUNNERS = 20;
    const ROUNDS = 10;
    const runners = [];
    for (let i = 0; i < RUNNERS; i++) runners.push(await newRunner(instance, root));
    // Warm-up: each runner's first poll reads it into the cache and its first heartbeat is written.
    const values = await Promise.all(runners.map((r) => queueValue(instance, r.token)));
    await sleep((FLUSH_SECONDS + 1) * 1000);
    const before = await settledTransactions();
    let polls = 0;
    await Promise.all(
      runners.map(async (r, i) => {
        for (let round = 0; round < ROUNDS; round++) {
          // Half the polls echo the current value (held for the long polling time), half send none.
          const res = await poll(instance, r.token, round % 2 ? {} : { last_update: values[i] });
          expect(res.status).toBe(204);
          expect(res.headers['x-gitlab-last-update']).toBe(values[i]);
          polls++;
        }
      }),
    );
    const after = await settledTransactions();
    expect(polls).toBe(RUNNERS * ROUNDS);
    // The constant: heartbeat flushes (one per FLUSH_SECONDS at most) and the background worker's idle
    // checks (one every 1-5 s) over the ~17 s counted. Without the cache every poll reads its runner.
    expect(after - before).toBeLessThanOrEqual(0.2 * polls + 30);
  });
});
