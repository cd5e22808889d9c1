// The hub on the embedded database (PGlite, one session shared by every socket): the runner-change
// triggers reach this process's subscribers, through the pool connection whose transaction committed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../db/migrations';
import { db, disconnectDb } from '../db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded';
import { publishDatabase } from '../server/database';
import { closeHub, IN_PROCESS_FLAG, parseRunnerChange, RUNNER_CHANGES_CHANNEL, subscribe } from './hub';

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
});
