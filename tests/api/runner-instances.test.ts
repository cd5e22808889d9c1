// Two Runway instances on one PostgreSQL database, both with the shipped defaults (no override but the
// address each answers on):
// - issue 29 defect 4: a runner whose token was reset, or which was deleted, through one instance is refused
//   on the very next poll on the other, however soon after the change was acknowledged (the runner cache
//   catches up with the change notifications before serving an entry);
// - issue 34: a personal access token served from the other instance's token cache is refused there on the
//   very next request after it was revoked, its user blocked or demoted, as without a cache;
// - issue 29 defect 5: event streams are capped per user on all instances together, whatever the user's
//   tokens (RUNWAY_MAX_EVENT_STREAMS_PER_USER, counted in PostgreSQL), with GitLab's 429 and Retry-After.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { openEventStream, type EventStream } from '../support/event-stream';
import { jsonBody, rawRequest, type Answer } from '../support/http';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { needsServer } from '../../lib/db/test-server';

interface Instance {
  base: string;
  server: ChildProcess;
}

/** The shipped defaults: RUNWAY_MAX_EVENT_STREAMS_PER_USER 20, RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT 10. */
const PER_USER = 20;
const PER_CLIENT = 10;

describe('[RUNNERS] two instances on one database, shipped defaults', { ...needsServer('Runway instances on one database'), timeout: 120_000 }, () => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;
  let root: string;

  async function startInstance(): Promise<Instance> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    return { base, server: await startServer(port, runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base })) };
  }

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_instances_${process.pid}`, await freePort());
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'instances'], runwayEnv({ ...database.env }));
    expect(made.status, made.stderr).toBe(0);
    root = made.stdout.trim();
    [a, b] = await Promise.all([startInstance(), startInstance()]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((i) => stopServer(i.server)));
    await database?.drop();
  });

  const call = (instance: Instance, token: string, method: string, path: string, body?: unknown): Promise<Answer> =>
    rawRequest(`${instance.base}/api/v4${path}`, method, {
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const poll = (instance: Instance, token: string): Promise<Answer> =>
    rawRequest(`${instance.base}/api/v4/jobs/request`, 'POST', jsonBody({ token, system_id: 's_instances0001', info: { version: '18.5.0' } }));

  async function cachedRunner(): Promise<{ id: number; token: string }> {
    const res = await call(a, root, 'POST', '/user/runners', { runner_type: 'instance_type', description: 'instances' });
    expect(res.status).toBe(201);
    const runner = JSON.parse(res.body) as { id: number; token: string };
    // Polled on `b` until its cache serves it (the first contact's own change notification drops it once).
    for (let i = 0; i < 3; i++) expect((await poll(b, runner.token)).status).toBe(204);
    return runner;
  }

  it('refuses the old token on the other instance on every poll sent after a reset or deletion was acknowledged', async () => {
    const ROUNDS = 20;
    const POLLS = 5;
    let accepted = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const runner = await cachedRunner();
      const change =
        round % 2 ? await call(a, root, 'DELETE', `/runners/${runner.id}`) : await call(a, root, 'POST', `/runners/${runner.id}/reset_authentication_token`);
      expect(change.status).toBe(round % 2 ? 204 : 201);
      const answers = await Promise.all(Array.from({ length: POLLS }, () => poll(b, runner.token)));
      accepted += answers.filter((x) => x.status !== 403).length;
      if (!(round % 2)) expect((await poll(b, JSON.parse(change.body).token)).status).toBe(204);
    }
    expect(accepted, `old tokens accepted in ${ROUNDS * POLLS} polls`).toBe(0);
  });

  it('refuses a cached token on the other instance on the very next request after a demotion, a block or a revocation', async () => {
    const ROUNDS = 6;
    for (let round = 0; round < ROUNDS; round++) {
      const made = await call(a, root, 'POST', '/users', {
        username: `cached-${round}`,
        email: `cached-${round}@example.com`,
        name: `Cached ${round}`,
        password: 'runway-test-password-1',
        skip_confirmation: true,
        admin: true,
      });
      expect(made.status).toBe(201);
      const userId = (JSON.parse(made.body) as { id: number }).id;
      const issued = await call(a, root, 'POST', `/users/${userId}/personal_access_tokens`, { name: 'cached', scopes: ['api'] });
      expect(issued.status).toBe(201);
      const { id: tokenId, token } = JSON.parse(issued.body) as { id: number; token: string };
      // Used on `b` until its cache serves it (the first use writes last_used_at, whose notification drops it once).
      for (let i = 0; i < 3; i++) expect((await call(b, token, 'GET', '/runners/all?per_page=1')).status).toBe(200);

      const step = round % 3;
      if (step === 0) {
        expect((await call(a, root, 'PUT', `/users/${userId}`, { admin: false })).status).toBe(200);
        const answers = await Promise.all(Array.from({ length: 5 }, () => call(b, token, 'GET', '/runners/all?per_page=1')));
        expect(answers.map((x) => x.status)).toEqual(Array(5).fill(403));
      } else if (step === 1) {
        expect((await call(a, root, 'POST', `/users/${userId}/block`)).status).toBe(201);
        const answers = await Promise.all(Array.from({ length: 5 }, () => call(b, token, 'GET', '/user')));
        expect(answers.map((x) => x.status)).toEqual(Array(5).fill(403));
        expect(JSON.parse(answers[0].body)).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
      } else {
        expect((await call(a, root, 'DELETE', `/personal_access_tokens/${tokenId}`)).status).toBe(204);
        const answers = await Promise.all(Array.from({ length: 5 }, () => call(b, token, 'GET', '/user')));
        expect(answers.map((x) => x.status)).toEqual(Array(5).fill(401));
      }
    }
  });

  it('caps the event streams of one user on all instances together, whatever their tokens: 429 with Retry-After', async () => {
    const user = await call(a, root, 'POST', '/users', {
      username: 'streamer',
      email: 'streamer@example.com',
      name: 'Streamer',
      password: 'runway-test-password-1',
      skip_confirmation: true,
    });
    expect(user.status).toBe(201);
    const userId = (JSON.parse(user.body) as { id: number }).id;
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) {
      const t = await call(a, root, 'POST', `/users/${userId}/personal_access_tokens`, { name: `streams ${i}`, scopes: ['read_api'] });
      expect(t.status).toBe(201);
      tokens.push((JSON.parse(t.body) as { token: string }).token);
    }
    const open: EventStream[] = [];
    const stream = (instance: Instance, token: string) => openEventStream(`${instance.base}/api/v4/runners/events`, { 'PRIVATE-TOKEN': token });
    try {
      // Two tokens, each at its per-client cap, on different instances: the user's ceiling is reached.
      for (let i = 0; i < PER_CLIENT; i++) open.push(await stream(a, tokens[0]), await stream(b, tokens[1]));
      expect(open.map((s) => s.status)).toEqual(Array(PER_USER).fill(200));
      // A third and fourth token, on either instance, get GitLab's 429.
      for (const [instance, token] of [
        [a, tokens[2]],
        [b, tokens[3]],
      ] as const) {
        const refused = await stream(instance, token);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        refused.close();
      }
      // One stream closed on `a` makes room on `b`.
      open.shift()!.close();
      let reopened: EventStream | undefined;
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const s = await stream(b, tokens[3]);
        if (s.status === 200) {
          reopened = s;
          break;
        }
        s.close();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(reopened?.status).toBe(200);
      open.push(reopened!);
    } finally {
      for (const s of open) s.close();
    }
  });
});
