// The runner cache and the heartbeat buffer against the PostgreSQL server: an entry is served until its
// runner's change is announced, nothing is cached while the notification connection is down, and a flush
// writes every buffered heartbeat in one statement. Writes made with the triggers off (session_replication_role
// = replica) change a row without a notification: what a lookup then returns shows whether it read the
// cache or the database. Skipped without DATABASE_URL.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../db/migrations';
import { needsServer } from '../db/test-server';
import { useServerDatabase } from '../db/test-database';
import { closeHub, HUB_APPLICATION_NAME } from '../notifications/hub';
import { digest } from '../auth/secrets';
import { cachedRunnerCount, findPollingRunner } from './contact-cache';
import { bufferHeartbeat, flushHeartbeats } from './heartbeat';

const NAME = `runway_test_runner_cache_${process.pid}`;
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('[RUNNERS] runner cache and heartbeat buffer', needsServer('LISTEN/NOTIFY across connections'), () => {
  let other: pg.Client;
  let n = 0;

  useServerDatabase(NAME);

  beforeAll(async () => {
    const url = process.env.RUNWAY_RESOLVED_DATABASE_URL!;
    await applyMigrations(url, { lock: false });
    other = new pg.Client({ connectionString: url });
    await other.connect();
  }, 120_000);

  afterEach(async () => {
    await closeHub();
  });

  afterAll(async () => {
    await other?.end();
  });

  async function newRunner(): Promise<{ id: number; token: string }> {
    const token = `glrt-cache-test-${process.pid}-${++n}`;
    const { rows } = await other.query(`INSERT INTO ci_runners (runner_type, token_digest) VALUES ('instance_type', $1) RETURNING id`, [digest(token)]);
    return { id: rows[0].id, token };
  }

  /** An UPDATE that fires no trigger, so no notification: only a database read can see it. */
  async function silently(text: string, values: unknown[]): Promise<void> {
    await other.query('SET session_replication_role = replica');
    try {
      await other.query(text, values);
    } finally {
      await other.query('SET session_replication_role = origin');
    }
  }

  const updatedAt = async (token: string) => (await findPollingRunner(token))?.updatedAt.toISOString();

  it('serves a runner from the cache until a change to it is announced, then refuses it once deleted', async () => {
    const r = await newRunner();
    const first = await updatedAt(r.token);
    expect(first).toBeDefined();
    expect(cachedRunnerCount()).toBeGreaterThan(0);
    await silently(`UPDATE ci_runners SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [r.id]);
    expect(await updatedAt(r.token)).toBe(first);
    // A fresh read (a held poll woken up) goes to the database.
    expect((await findPollingRunner(r.token, { fresh: true }))?.updatedAt.toISOString()).not.toBe(first);

    await other.query(`UPDATE ci_runners SET active = false, updated_at = now() + interval '1 minute' WHERE id = $1`, [r.id]);
    await settle();
    const paused = await updatedAt(r.token);
    const { rows } = await other.query('SELECT updated_at FROM ci_runners WHERE id = $1', [r.id]);
    expect(paused).toBe(rows[0].updated_at.toISOString());

    await other.query('DELETE FROM ci_runners WHERE id = $1', [r.id]);
    await settle();
    expect(await findPollingRunner(r.token)).toBeNull();
  });

  it('stops serving a cached token when it expires', async () => {
    const r = await newRunner();
    await other.query(`UPDATE ci_runners SET token_expires_at = now() + interval '1 second' WHERE id = $1`, [r.id]);
    expect(await findPollingRunner(r.token)).not.toBeNull();
    await settle(100);
    // Cached: a change the cache is not told of is not seen, but the clock is.
    await silently(`UPDATE ci_runners SET token_expires_at = now() + interval '1 hour' WHERE id = $1`, [r.id]);
    expect(await findPollingRunner(r.token)).not.toBeNull();
    await silently(`UPDATE ci_runners SET token_expires_at = now() - interval '1 hour' WHERE id = $1`, [r.id]);
    await settle(1_000);
    expect(await findPollingRunner(r.token)).toBeNull();
  });

  it('caches nothing while the notification connection is down, and again once it is back', async () => {
    const r = await newRunner();
    const first = await updatedAt(r.token);
    const { rows } = await other.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [NAME, HUB_APPLICATION_NAME]);
    expect(rows).toHaveLength(1);
    await other.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await settle(50);
    expect(cachedRunnerCount()).toBe(0);
    await silently(`UPDATE ci_runners SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [r.id]);
    const second = await updatedAt(r.token);
    expect(second).not.toBe(first);
    // Reconnected (backoff from 100 ms): entries are trusted again.
    await settle(1_000);
    expect(await updatedAt(r.token)).toBe(second);
    await silently(`UPDATE ci_runners SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [r.id]);
    expect(await updatedAt(r.token)).toBe(second);
  });

  it('writes buffered heartbeats in one flush: contact, creation state, managers and their latest info', async () => {
    const [r, gone] = [await newRunner(), await newRunner()];
    const contact = { systemXid: 's_000000000001', ip: '10.0.0.1', finish: true };
    bufferHeartbeat(r.id, { ...contact, info: { version: '18.0.0', platform: 'linux' } });
    bufferHeartbeat(r.id, { ...contact, info: { version: '18.1.0' } });
    bufferHeartbeat(r.id, { ...contact, systemXid: 's_000000000002', info: {} });
    bufferHeartbeat(gone.id, { ...contact, info: {} });
    await other.query('DELETE FROM ci_runners WHERE id = $1', [gone.id]);
    const { rows: before } = await other.query('SELECT contacted_at FROM ci_runners WHERE id = $1', [r.id]);
    expect(before[0].contacted_at).toBeNull();
    await flushHeartbeats();
    const { rows: runner } = await other.query('SELECT contacted_at, creation_state::text FROM ci_runners WHERE id = $1', [r.id]);
    expect(runner[0].contacted_at).not.toBeNull();
    expect(runner[0].creation_state).toBe('finished');
    const { rows: managers } = await other.query(
      'SELECT system_xid, version, platform, ip_address, creation_state::text FROM ci_runner_machines WHERE runner_id = $1 ORDER BY system_xid',
      [r.id],
    );
    expect(managers).toEqual([
      { system_xid: 's_000000000001', version: '18.1.0', platform: 'linux', ip_address: '10.0.0.1', creation_state: 'finished' },
      { system_xid: 's_000000000002', version: null, platform: null, ip_address: '10.0.0.1', creation_state: 'finished' },
    ]);
    // A contact older than the row's (another instance flushed later) never moves contacted_at back.
    await other.query(`UPDATE ci_runners SET contacted_at = now() + interval '1 hour' WHERE id = $1`, [r.id]);
    const { rows: ahead } = await other.query('SELECT contacted_at FROM ci_runners WHERE id = $1', [r.id]);
    bufferHeartbeat(r.id, { ...contact, info: {} });
    await flushHeartbeats();
    const { rows: after } = await other.query('SELECT contacted_at FROM ci_runners WHERE id = $1', [r.id]);
    expect(after[0].contacted_at.getTime()).toBe(ahead[0].contacted_at.getTime());
  });
});
