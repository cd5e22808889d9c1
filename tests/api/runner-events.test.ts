// GET /api/v4/runners/events (Runway extension): runner changes made through a SECOND Runway instance on
// the same database reach a stream open on the first (PostgreSQL LISTEN/NOTIFY), only for runners the
// caller may read; the stream is not buffered, ends its subscriptions when the client leaves, replays
// what a client missed when it reconnects with Last-Event-ID to either instance (or tells it to resync),
// and ends when the server shuts down.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
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
  /**
   * Opens a stream and waits until it is subscribed: its first event (`position`, `resync` or a replayed
   * change) comes after that. The response headers come before, so a change made on seeing them could
   * precede the subscription; a page loads its data after opening the stream anyway.
   */
  const open = async (base: string, headers: Record<string, string>, url = eventsUrl(base)) => {
    const s = await openEventStream(url, headers);
    streams.push(s);
    const deadline = Date.now() + 5_000;
    while (s.status === 200 && !s.events.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return s;
  };
  const hubConnections = () =>
    dbQuery<{ pid: number; query: string }>(
      `SELECT pid, query FROM pg_stat_activity WHERE application_name = 'runway-notifications' AND datname = current_database()`,
    );
  /** A write through instance B, with the root token. */
  const onB = (method: string, path: string, json?: unknown) =>
    fetch(`${b.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });

  /** The notification connections that were there before B started: B's is the one that is not. */
  let hubsBeforeB = new Set<number>();

  beforeAll(async () => {
    hubsBeforeB = new Set((await hubConnections()).map((c) => c.pid));
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
    const answered = performance.now();
    console.log(`[RUNNERS] runner events: PUT on instance B to the event on A's stream: ${Math.round(event.at - started)} ms`);
    expect(event.at - started).toBeLessThan(1_000);
    // Once B is warm: the same PUT again, and a change committed straight to the database (no HTTP).
    const again = performance.now();
    expect((await onB('PUT', `/runners/${id}`, { paused: false })).status).toBe(200);
    const second = await s.next(about(id, 'updated'));
    const direct = performance.now();
    await dbQuery(`UPDATE ci_runners SET description = 'direct' WHERE id = $1`, [id]);
    const third = await s.next(about(id, 'updated'));
    console.log(
      `[RUNNERS] runner events: B answered the first PUT ${Math.round(answered - started)} ms in; a second PUT to the event: ${Math.round(second.at - again)} ms; a SQL UPDATE (connection included) to the event: ${Math.round(third.at - direct)} ms`,
    );
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

  /** The LISTEN connections of the notification hubs (one per instance that has subscribers). */
  it('unsubscribes when the client leaves (the hub of B UNLISTENs)', async () => {
    // B may hold more than one notification connection, opened before this test (its runner-token caches
    // listen since the first poll B served, one per bundle): the stream's is the one of B's whose last
    // statement is the LISTEN on the runner events channel (B has served no stream yet).
    const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken() });
    const id = await createRunner('instance_type');
    await s.next(about(id, 'created'));
    const onB = (await hubConnections()).filter((c) => !hubsBeforeB.has(c.pid) && /^LISTEN "?runway_runner_events"?/.test(c.query));
    expect(onB).toHaveLength(1);
    s.close();
    const deadline = Date.now() + 10_000;
    let query = onB[0].query;
    while (Date.now() < deadline && !query.startsWith('UNLISTEN')) {
      await new Promise((r) => setTimeout(r, 100));
      query = (await hubConnections()).find((c) => c.pid === onB[0].pid)?.query ?? '';
    }
    expect(query).toMatch(/^UNLISTEN /);
  });

  describe('reconnecting with Last-Event-ID', () => {
    /** Where a fresh stream stands: its first event, `position`, carries the newest id of the log. */
    const position = async (s: EventStream) => Number((await s.next((e) => e.event === 'position')).id);
    const runnerEvents = (s: EventStream, ids: number[]) => s.events.filter((e) => e.event === 'runner' && ids.includes(e.data.id));
    /** The log's events for these runners after `after`, in id order, as the database has them. */
    const logged = (after: number, ids: number[]) =>
      dbQuery<{ id: string; runner_id: number; action: string }>(
        // ORDER BY the column, not the text alias of the same name (which sorted '100' before '97').
        'SELECT e.id::text AS id, e.runner_id, e.action FROM runner_events e WHERE e.id > $1 AND e.runner_id = ANY($2::int[]) ORDER BY e.id',
        [after, ids],
      );
    const expectIncreasingIds = (s: EventStream) => {
      const ids = s.events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
      const runnerIds = s.events.filter((e) => e.event === 'runner').map((e) => Number(e.id));
      expect(new Set(runnerIds).size).toBe(runnerIds.length);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThanOrEqual(ids[i - 1]);
    };

    it('numbers events in commit order, not in the order the changes were made', async () => {
      const [early, late] = [await createRunner('instance_type'), await createRunner('instance_type')];
      const [first, second] = [new pg.Client({ connectionString: inject('inspectUrl') }), new pg.Client({ connectionString: inject('inspectUrl') })];
      await Promise.all([first.connect(), second.connect()]);
      try {
        await first.query('BEGIN');
        await first.query('UPDATE ci_runners SET description = $1 WHERE id = $2', ['changed first', early]);
        // Until it commits, the change has no id: nothing can be numbered behind a reader's back.
        expect((await first.query('SELECT id FROM runner_events WHERE runner_id = $1 ORDER BY seq DESC LIMIT 1', [early])).rows).toEqual([{ id: null }]);
        await second.query('BEGIN');
        await second.query('UPDATE ci_runners SET description = $1 WHERE id = $2', ['changed second, committed first', late]);
        await second.query('COMMIT');
        await first.query('COMMIT');
      } finally {
        await Promise.all([first.end(), second.end()]);
      }
      const order = (
        await dbQuery<{ runner_id: number }>(`SELECT runner_id FROM runner_events WHERE runner_id = ANY($1::int[]) AND action = 'updated' ORDER BY id`, [
          [early, late],
        ])
      ).map((r) => r.runner_id);
      expect(order).toEqual([late, early]);
    });

    it('replays on instance B what a stream on A missed, in order, then goes on live', async () => {
      const first = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
      await position(first);
      const kept = await createRunner('instance_type');
      const seen = await first.next(about(kept, 'created'));
      first.close();
      // While the page is away (its instance restarting): a pause, a new runner, its deletion.
      expect((await onB('PUT', `/runners/${kept}`, { paused: true })).status).toBe(200);
      const made = await onB('POST', '/user/runners', { runner_type: 'instance_type', description: 'made while away' });
      const { id: gone } = (await made.json()) as { id: number };
      expect((await onB('DELETE', `/runners/${gone}`)).status).toBe(204);

      const started = performance.now();
      const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': seen.id! });
      await s.next(about(gone, 'deleted'));
      console.log(`[RUNNERS] runner events: 3 missed events replayed after reconnecting to another instance in ${Math.round(performance.now() - started)} ms`);
      const replayed = runnerEvents(s, [kept, gone]).map((e) => [e.data.id, e.data.action]);
      expect(replayed).toEqual([
        [kept, 'updated'],
        [gone, 'created'],
        [gone, 'deleted'],
      ]);
      expect(runnerEvents(s, [kept, gone]).map((e) => e.id)).toEqual((await logged(Number(seen.id), [kept, gone])).map((r) => r.id));
      expect(s.events.some((e) => e.event === 'resync')).toBe(false);
      // Then live, from either instance.
      expect((await onB('PUT', `/runners/${kept}`, { paused: false })).status).toBe(200);
      await s.next(about(kept, 'updated'));
      expectIncreasingIds(s);
      s.close();
    });

    it("replays from the log what a stream missed while its server's LISTEN connection was down, without resync", async () => {
      const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken() });
      await position(s);
      const id = await createRunner('instance_type');
      await s.next(about(id, 'created'));
      // Cut the notification connections; changes made at once fall in the gap before LISTEN is back.
      await dbQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'runway-notifications' AND datname = current_database()`);
      await dbQuery(`UPDATE ci_runners SET description = 'while the hub reconnects' WHERE id = $1`, [id]);
      await s.next(about(id, 'updated'), 10_000);
      expect(s.events.some((e) => e.event === 'resync')).toBe(false);
      expectIncreasingIds(s);
      s.close();
    });

    it('takes the id as ?last_event_id= from a page that reopens the stream itself', async () => {
      const first = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
      const at = await position(first);
      first.close();
      const id = await createRunner('instance_type');
      const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken() }, `${eventsUrl(b.url)}?last_event_id=${at}`);
      await s.next(about(id, 'created'));
      expect(s.events.some((e) => e.event === 'resync')).toBe(false);
      s.close();
    });

    it('neither loses nor repeats events written while the stream reconnects', async () => {
      const ids = await Promise.all([1, 2, 3, 4].map(() => createRunner('instance_type')));
      const first = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
      const at = await position(first);
      first.close();
      // Writes before, during and after the reconnection: some replayed, some live, some possibly both.
      const writes = (async () => {
        for (let round = 0; round < 6; round++) {
          await Promise.all(ids.map((id) => onB('PUT', `/runners/${id}`, { description: `round ${round}` })));
        }
      })();
      await new Promise((r) => setTimeout(r, 30));
      const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': String(at) });
      await writes;
      const expected = (await logged(at, ids)).map((r) => r.id);
      expect(expected).toHaveLength(24);
      const deadline = Date.now() + 5_000;
      while (runnerEvents(s, ids).length < expected.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // Give a duplicate the time to show up.
      await new Promise((r) => setTimeout(r, 300));
      expect(runnerEvents(s, ids).map((e) => e.id)).toEqual(expected);
      expectIncreasingIds(s);
      s.close();
    });

    it('sends resync, with an id to resume from, for an id that is garbage or ahead of the log', async () => {
      for (const lastEventId of ['garbage', '-3', '999999999999']) {
        const s = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': lastEventId });
        const resync = await s.next((e) => e.event === 'resync');
        expect(resync.data).toEqual({});
        expect(resync.id).toMatch(/^\d+$/);
        // A resync is a position: live events go on after it.
        const id = await createRunner('instance_type');
        await s.next(about(id, 'created'));
        expect(s.events.filter((e) => e.event === 'runner' && Number(e.id) <= Number(resync.id))).toEqual([]);
        s.close();
      }
    });

    describe('past the retention window', () => {
      let pruneRunnerEvents: () => Promise<number>;
      beforeAll(async () => {
        // The worker's function, run here against the test server's database.
        process.env.DATABASE_URL = inject('inspectUrl');
        process.env.RUNWAY_DB_POOL_MAX = '2';
        ({ pruneRunnerEvents } = await import('../../lib/runners/event-log'));
      });
      afterAll(async () => (await import('../../lib/db/client')).disconnectDb());

      it('sends resync to a page whose missed events were pruned, and replays from what is kept', async () => {
        const first = await open(baseUrl(), { 'PRIVATE-TOKEN': rootToken() });
        const at = await position(first);
        first.close();
        const old = await createRunner('instance_type');
        const recent = await createRunner('instance_type');
        const [{ id: oldEvent }] = await logged(at, [old]);
        // The first change is eleven minutes old: past the ten kept, so the prune removes it.
        await dbQuery(`UPDATE runner_events SET created_at = now() - interval '11 minutes' WHERE id <= $1`, [oldEvent]);
        // The test server's worker runs the same prune every minute and may get there first (CI saw 0 rows
        // here once): what matters is that the aged event is gone, whoever removed it.
        await pruneRunnerEvents();
        expect(await logged(at, [old])).toEqual([]);

        const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': String(at) });
        const resync = await s.next((e) => e.event === 'resync');
        expect(runnerEvents(s, [old, recent])).toEqual([]);
        expect(Number(resync.id)).toBeGreaterThanOrEqual(Number(oldEvent));
        s.close();
        // From the oldest event kept on, replay works again.
        const again = await open(b.url, { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': oldEvent });
        await again.next(about(recent, 'created'));
        expect(again.events.some((e) => e.event === 'resync')).toBe(false);
        again.close();
      });

      it('never prunes the newest event: a page standing there has missed nothing, however quiet it was since', async () => {
        const newestId = async () => (await dbQuery<{ id: string }>('SELECT max(id)::text AS id FROM runner_events'))[0].id;
        // Other spec files write runners meanwhile: an attempt counts only if nothing newer came in.
        let newest = '';
        for (let attempt = 0; attempt < 5 && !newest; attempt++) {
          const before = await newestId();
          await dbQuery(`UPDATE runner_events SET created_at = now() - interval '1 hour' WHERE id <= $1`, [before]);
          await pruneRunnerEvents();
          if ((await newestId()) === before) newest = before;
        }
        expect(newest).not.toBe('');
        expect(await dbQuery('SELECT id::text FROM runner_events WHERE id <= $1', [newest])).toEqual([{ id: newest }]);
        const s = await open(b.url, { 'PRIVATE-TOKEN': rootToken(), 'Last-Event-ID': newest });
        const first = await s.next((e) => e.event === 'position' || e.event === 'resync');
        expect(first.event).toBe('position');
        s.close();
      });
    });

    describe('as a non-admin', () => {
      let user: TestUser;
      let mine: number;
      let leaving: number;
      let hidden: number;
      let visibleProject: number;
      let hiddenProject: number;

      beforeAll(async () => {
        user = await createUser();
        visibleProject = (await createProject(rootToken())).id;
        await addProjectMember(rootToken(), visibleProject, user.id, MAINTAINER);
        const other = await createProject(rootToken());
        hiddenProject = other.id;
        mine = await createRunner('project_type', { projectId: visibleProject });
        hidden = await createRunner('project_type', { projectId: other.id });
        leaving = await createRunner('project_type', { projectId: other.id });
        expect((await onB('POST', `/projects/${visibleProject}/runners`, { runner_id: leaving })).status).toBe(201);
      });

      it('is replayed hundreds of missed changes of runners they cannot read quickly, and none of them', async () => {
        const hiddenIds = await Promise.all(Array.from({ length: 20 }, () => createRunner('project_type', { projectId: hiddenProject })));
        const first = await open(baseUrl(), { 'PRIVATE-TOKEN': user.token });
        const at = await position(first);
        first.close();
        // 20 transactions of 20 runner changes each: 400 events, none theirs.
        for (let i = 0; i < 20; i++) {
          await dbQuery('UPDATE ci_runners SET description = md5(random()::text) WHERE id = ANY($1::int[])', [hiddenIds]);
        }
        const figures: string[] = [];
        for (const [who, token] of [
          ['maintainer', user.token],
          ['admin', rootToken()],
        ] as const) {
          const started = performance.now();
          const s = await open(b.url, { 'PRIVATE-TOKEN': token, 'Last-Event-ID': String(at) });
          if (who === 'maintainer') {
            const end = await s.next((e) => e.event === 'position');
            expect(Number(end.id)).toBeGreaterThanOrEqual(at + 400);
            expect(runnerEvents(s, hiddenIds)).toEqual([]);
          } else {
            const last = await logged(at, hiddenIds);
            await s.next((e) => e.event === 'runner' && e.id === last[last.length - 1].id, 10_000);
            expect(runnerEvents(s, hiddenIds)).toHaveLength(400);
          }
          figures.push(`${who} ${Math.round(performance.now() - started)} ms`);
          s.close();
        }
        console.log(`[RUNNERS] runner events: replaying 400 missed events (20 runners) after reconnecting: ${figures.join(', ')}`);
      });

      it('is replayed only the changes of runners they could read', async () => {
        const first = await open(baseUrl(), { 'PRIVATE-TOKEN': user.token });
        const at = await position(first);
        first.close();
        expect((await onB('PUT', `/runners/${hidden}`, { paused: true })).status).toBe(200);
        expect((await onB('PUT', `/runners/${mine}`, { paused: true })).status).toBe(200);
        // Taken out of their project while they were away: they hear of it (to drop it), though they
        // can no longer read it. Its later changes they do not hear of.
        expect((await onB('DELETE', `/projects/${visibleProject}/runners/${leaving}`)).status).toBe(204);
        expect((await onB('PUT', `/runners/${leaving}`, { paused: true })).status).toBe(200);
        expect((await onB('DELETE', `/runners/${hidden}`)).status).toBe(204);
        const marker = await createRunner('project_type', { projectId: visibleProject });

        const s = await open(b.url, { 'PRIVATE-TOKEN': user.token, 'Last-Event-ID': String(at) });
        // Created with its project: the runner, then its assignment.
        await s.next(about(marker, 'updated'));
        expect(runnerEvents(s, [mine, leaving, hidden, marker]).map((e) => [e.data.id, e.data.action])).toEqual([
          [mine, 'updated'],
          [leaving, 'updated'],
          [marker, 'created'],
          [marker, 'updated'],
        ]);
        expect(s.events.some((e) => e.event === 'resync')).toBe(false);
        s.close();
      });
    });
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
