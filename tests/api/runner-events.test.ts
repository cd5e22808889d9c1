// GET /api/v4/runners/events (Runway extension): runner changes made through a SECOND Runway instance on
// the same database reach a stream open on the first (PostgreSQL LISTEN/NOTIFY), only for runners the
// caller may read; the stream is not buffered, ends its subscriptions when the client leaves, and ends
// when the server shuts down.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { openEventStream, type EventStream, type StreamEvent } from '../support/event-stream';
import { addProjectMember, createGroup, createProject } from '../support/namespaces';
import { freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { createToken, createUser, type TestUser } from '../support/users';
import { createRunner, dbQuery, HOUR, setRunnerTimes } from './runners-admin-support';
import { needsServer } from '../../lib/db/test-server';

const MAINTAINER = 40;
const eventsUrl = (base: string) => `${base}/api/v4/runners/events`;
const about = (id: number, action?: string) => (e: StreamEvent) => e.event === 'runner' && e.data.id === id && (!action || e.data.action === action);

// Two processes on one database need a PostgreSQL server (the embedded PGlite belongs to one process).
describe('[RUNNERS] live runner events across instances', { ...needsServer('two Runway instances on one database'), timeout: 60_000 }, () => {
  let b: { url: string; server: ChildProcess };
  const streams: EventStream[] = [];
  const open = async (base: string, headers: Record<string, string>) => {
    const s = await openEventStream(eventsUrl(base), headers);
    streams.push(s);
    return s;
  };
  /** A write through instance B, with the root token. */
  const onB = (method: string, path: string, json?: unknown) =>
    fetch(`${b.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    b = { url, server: await startServer(port, runwayEnv({ ...inject('runwayEnv'), RUNWAY_EXTERNAL_URL: url })) };
  }, 120_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    if (b) await stopServer(b.server);
  });

  it('refuses an anonymous caller with GitLab 401 JSON', async () => {
    const res = await fetch(eventsUrl(baseUrl()));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401 Unauthorized' });
  });

  it('streams unbuffered through compression: event-stream headers and the first bytes at once', async () => {
    const s = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken(), 'Accept-Encoding': 'gzip, deflate, br' });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('content-encoding')).toBeNull();
    expect(s.headers.get('cache-control')).toContain('no-transform');
    // An event written now must arrive, not wait in a compression buffer.
    const id = await createRunner('instance_type');
    await s.next(about(id, 'created'));
    s.close();
  });

  it('delivers a pause made on instance B to a stream on instance A in under a second', async () => {
    const id = await createRunner('instance_type');
    const s = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
    const started = performance.now();
    const res = await onB('PUT', `/runners/${id}`, { paused: true });
    expect(res.status).toBe(200);
    const event = await s.next(about(id, 'updated'));
    expect(event.data).toEqual({ id, action: 'updated' });
    console.log(`[RUNNERS] runner events: PUT on instance B to the event on A's stream: ${Math.round(event.at - started)} ms`);
    expect(event.at - started).toBeLessThan(1_000);
    s.close();
  });

  it('delivers creation, assignment and deletion made on B, with ids the page can refetch', async () => {
    const s = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
    const p1 = await createProject(rootToken());
    const p2 = await createProject(rootToken());
    const created = await onB('POST', '/user/runners', { runner_type: 'project_type', project_id: p1.id, description: 'live' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await s.next(about(id, 'created'));
    expect((await onB('POST', `/projects/${p2.id}/runners`, { runner_id: id })).status).toBe(201);
    await s.next(about(id, 'updated'));
    expect((await onB('DELETE', `/runners/${id}`)).status).toBe(204);
    await s.next(about(id, 'deleted'));
    s.close();
  });

  it('announces a runner coming back online (a heartbeat after two hours offline), not every heartbeat', async () => {
    const p = await createProject(rootToken());
    const made = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'project_type', project_id: p.id } });
    const { id, token } = made.body as { id: number; token: string };
    await setRunnerTimes(id, { contactedAgoMs: 3 * HOUR });
    const s = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
    const verify = () =>
      fetch(`${b.url}/api/v4/runners/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
    expect((await verify()).status).toBe(200);
    await s.next(about(id, 'updated'));
    // Online already: a further contact a few minutes later is no change of status, so no event.
    await setRunnerTimes(id, { contactedAgoMs: 5 * 60_000 });
    expect((await verify()).status).toBe(200);
    const marker = await createRunner('instance_type');
    await s.next(about(marker, 'created'));
    expect(s.events.filter(about(id))).toHaveLength(1);
    s.close();
  });

  describe('a non-admin', () => {
    let user: TestUser;
    let mine: number;
    let hidden: number;
    let hiddenGroupRunner: number;

    beforeAll(async () => {
      user = await createUser();
      const visible = await createProject(rootToken());
      await addProjectMember(rootToken(), visible.id, user.id, MAINTAINER);
      const other = await createProject(rootToken());
      const group = await createGroup(rootToken());
      mine = await createRunner('project_type', { projectId: visible.id });
      hidden = await createRunner('project_type', { projectId: other.id });
      hiddenGroupRunner = await createRunner('group_type', { groupId: group.id });
    });

    it('hears only of runners they may read, deletions included', async () => {
      const s = await open(baseUrl(), { 'PRIVATE-TOKEN': user.token });
      expect(s.status).toBe(200);
      // Changes of hidden runners first: delivered in order, they would arrive before the visible one's.
      expect((await onB('PUT', `/runners/${hidden}`, { paused: true })).status).toBe(200);
      expect((await onB('PUT', `/runners/${hiddenGroupRunner}`, { paused: true })).status).toBe(200);
      expect((await onB('DELETE', `/runners/${hidden}`)).status).toBe(204);
      expect((await onB('DELETE', `/runners/${hiddenGroupRunner}`)).status).toBe(204);
      expect((await onB('PUT', `/runners/${mine}`, { paused: true })).status).toBe(200);
      await s.next(about(mine, 'updated'));
      expect((await onB('DELETE', `/runners/${mine}`)).status).toBe(204);
      await s.next(about(mine, 'deleted'));
      const ids = new Set(s.events.filter((e) => e.event === 'runner').map((e) => e.data.id));
      expect(ids.has(hidden)).toBe(false);
      expect(ids.has(hiddenGroupRunner)).toBe(false);
      s.close();
    });

    it('may use a read_api token', async () => {
      const readOnly = await createToken(user.id, ['read_api']);
      const s = await open(baseUrl(), { 'PRIVATE-TOKEN': readOnly });
      expect(s.status).toBe(200);
      s.close();
    });
  });

  it('tells a client that reconnects with Last-Event-ID to resync', async () => {
    const s = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': '41' });
    const resync = await s.next((e) => e.event === 'resync');
    expect(resync.data).toEqual({});
    s.close();
  });

  /** The LISTEN connections of the notification hubs (one per instance that has subscribers). */
  const hubConnections = () =>
    dbQuery<{ pid: number; query: string }>(
      `SELECT pid, query FROM pg_stat_activity WHERE application_name = 'runway-notifications' AND datname = current_database()`,
    );

  it('unsubscribes when the client leaves (the hub of B UNLISTENs)', async () => {
    // B has served no stream yet: the hub connection that appears with this one is B's.
    const before = new Set((await hubConnections()).map((c) => c.pid));
    const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken() });
    const id = await createRunner('instance_type');
    await s.next(about(id, 'created'));
    const onB = (await hubConnections()).filter((c) => !before.has(c.pid));
    expect(onB).toHaveLength(1);
    expect(onB[0].query).toMatch(/^LISTEN /);
    s.close();
    const deadline = Date.now() + 10_000;
    let query = onB[0].query;
    while (Date.now() < deadline && !query.startsWith('UNLISTEN')) {
      await new Promise((r) => setTimeout(r, 100));
      query = (await hubConnections()).find((c) => c.pid === onB[0].pid)?.query ?? '';
    }
    expect(query).toMatch(/^UNLISTEN /);
  });

  it('ends open streams when the server shuts down, and the server exits cleanly', async () => {
    const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken() });
    expect(s.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => b.server.once('exit', (code) => resolve(code)));
    b.server.kill('SIGTERM');
    await s.ended;
    expect(await exited).toBe(0);
  });
});
