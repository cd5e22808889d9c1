// The hub on the embedded database (PGlite, one session shared by every socket): the runner-change
// triggers reach this process's subscribers, through the pool connection whose transaction committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../db/migrations';
import { db, disconnectDb } from '../db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded';
import { publishDatabase } from '../server/database';
import { closeHub, IN_PROCESS_FLAG, parseRunnerChange, RUNNER_CHANGES_CHANNEL, subscribe } from './hub';
import { eventsAfter, parseEventNotification, RUNNER_EVENTS_CHANNEL } from '../runners/event-log';

describe('[PLATFORM] notification hub on the embedded database', () => {
  let embedded: EmbeddedDatabase;
  const saved = { ...process.env };

  beforeAll(async () => {
    embedded = await startEmbeddedDatabase({ dir: 'memory://' });
    publishDatabase({ url: embedded.url, directUrl: embedded.url, embedded: true, advertise: embedded.advertise, stop: embedded.stop });
    await applyMigrations(embedded.url, { lock: false });
  }, 120_000);

  afterAll(async () => {
    await closeHub();
    await disconnectDb();
    await embedded?.stop();
    for (const key of ['RUNWAY_RESOLVED_DATABASE_URL', 'RUNWAY_RESOLVED_DIRECT_URL', 'RUNWAY_DB_POOL_MAX', IN_PROCESS_FLAG]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it('delivers the triggers of a runner insert, pause and delete to a subscriber, on commit', async () => {
    expect(process.env[IN_PROCESS_FLAG]).toBe('true');
    const got: Array<{ id: number; op: string }> = [];
    const unsubscribe = await subscribe(RUNNER_CHANGES_CHANNEL, (payload) => {
      const change = parseRunnerChange(payload);
      if (change) got.push({ id: change.id, op: change.op });
    });
    const [{ id }] = await db().$queryRawUnsafe<Array<{ id: number }>>(
      `INSERT INTO ci_runners (runner_type, token_digest, updated_at) VALUES ('instance_type', 'embedded-hub-test-digest', now()) RETURNING id`,
    );
    await expect.poll(() => got).toContainEqual({ id, op: 'INSERT' });
    await db().$executeRawUnsafe(`UPDATE ci_runners SET active = false, updated_at = now() WHERE id = ${id}`);
    await expect.poll(() => got).toContainEqual({ id, op: 'UPDATE' });
    await db().$executeRawUnsafe(`DELETE FROM ci_runners WHERE id = ${id}`);
    await expect.poll(() => got).toContainEqual({ id, op: 'DELETE' });
    // A rolled-back change announces nothing.
    const before = got.length;
    await db()
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`INSERT INTO ci_runners (runner_type, token_digest, updated_at) VALUES ('instance_type', 'rolled-back-digest', now())`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(got.length).toBe(before);
    unsubscribe();
  }, 60_000);

  it('numbers and announces runner events at commit, as the live pages read them (runner event log)', async () => {
    const got: Array<{ eventId: number; id: number; action: string }> = [];
    const unsubscribe = await subscribe(RUNNER_EVENTS_CHANNEL, (payload) => {
      const e = parseEventNotification(payload);
      if (e) got.push({ eventId: e.eventId, id: e.id, action: e.action });
    });
    const [{ id }] = await db().$queryRawUnsafe<Array<{ id: number }>>(
      `INSERT INTO ci_runners (runner_type, token_digest, updated_at) VALUES ('instance_type', 'embedded-log-test-digest', now()) RETURNING id`,
    );
    await db().$executeRawUnsafe(`UPDATE ci_runners SET active = false, updated_at = now() WHERE id = ${id}`);
    await db().$executeRawUnsafe(`DELETE FROM ci_runners WHERE id = ${id}`);
    await expect.poll(() => got.filter((e) => e.id === id).map((e) => e.action)).toEqual(['created', 'updated', 'deleted']);
    const announced = got.filter((e) => e.id === id);
    expect(announced.map((e) => e.eventId)).toEqual([...announced.map((e) => e.eventId)].sort((a, b) => a - b));
    // The log holds the same events under the same ids, for a stream that reconnects.
    const logged = (await eventsAfter(announced[0].eventId - 1, 10)).filter((e) => e.id === id);
    expect(logged.map((e) => ({ eventId: e.eventId, id: e.id, action: e.action }))).toEqual(announced);
    unsubscribe();
  }, 60_000);
});
