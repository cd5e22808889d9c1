// The runner cache and the heartbeat buffer against the PostgreSQL server: an entry is served until its
// runner's change is announced, nothing is cached while the notification connection is down, and a flush
// writes every buffered heartbeat in one statement. Writes made with the triggers off (session_replication_role
// = replica) change a row without a notification: what a lookup then returns shows whether it read the
// cache or the database. Skipped without DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { needsServer } from '../db/test-server';
import { useNotifiedDatabase } from '../db/test-database';
import { closeHub, HUB_APPLICATION_NAME } from '../notifications/hub';
import { digest } from '../auth/secrets';
import { cachedRunnerCount, findPollingRunner } from './contact-cache';
import { bufferHeartbeat, flushHeartbeats, recordContact } from './heartbeat';

const NAME = `runway_test_runner_cache_${process.pid}`;
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('[RUNNERS] runner cache and heartbeat buffer', needsServer('LISTEN/NOTIFY across connections'), () => {
  const other = useNotifiedDatabase(NAME, closeHub);
  let n = 0;

  async function newRunner(): Promise<{ id: number; token: string }> {
    const token = `glrt-cache-test-${process.pid}-${++n}`;
    const { rows } = await other.query(`INSERT INTO ci_runners (runner_type, token_digest) VALUES ('instance_type', $1) RETURNING id`, [digest(token)]);
    return { id: rows[0].id, token };
  }

  const updatedAt = async (token: string) => (await findPollingRunner(token))?.updatedAt.toISOString();

  it('serves a runner from the cache until a change to it is announced, then refuses it once deleted', async () => {
    const r = await newRunner();
    const first = await updatedAt(r.token);
    expect(first).toBeDefined();
    expect(cachedRunnerCount()).toBeGreaterThan(0);
    await other.silently(`UPDATE ci_runners SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [r.id]);
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
    await other.silently(`UPDATE ci_runners SET token_expires_at = now() + interval '1 hour' WHERE id = $1`, [r.id]);
    expect(await findPollingRunner(r.token)).not.toBeNull();
    await other.silently(`UPDATE ci_runners SET token_expires_at = now() - interval '1 hour' WHERE id = $1`, [r.id]);
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
    await other.silently(`UPDATE ci_runners SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [r.id]);
    const second = await updatedAt(r.token);
    expect(second).not.toBe(first);
    // Reconnected (backoff from 100 ms): entries are trusted again.
    await settle(1_000);
    expect(await updatedAt(r.token)).toBe(second);
    await other.silently(`UPDATE ci_runners SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [r.id]);
    expect(await updatedAt(r.token)).toBe(second);
  });

  it('refuses a deleted or reset runner on the very next lookup after the change committed, without a pause', async () => {
    for (let i = 0; i < 40; i++) {
      const r = await newRunner();
      expect(await findPollingRunner(r.token)).not.toBeNull();
      expect(await findPollingRunner(r.token)).not.toBeNull();
      if (i % 2) await other.query('DELETE FROM ci_runners WHERE id = $1', [r.id]);
      else await other.query('UPDATE ci_runners SET token_digest = $2 WHERE id = $1', [r.id, digest(`${r.token}-reset`)]);
      // No settle: the commit was acknowledged, so the cache must not serve the old token any more.
      expect(await findPollingRunner(r.token), `round ${i}`).toBeNull();
    }
  });

  const contactOf = (systemXid: string, info: Record<string, string>, finish = true) => ({ systemXid, info, ip: '10.0.0.1', finish });
  const managerRows = async (id: number) =>
    (
      await other.query(
        'SELECT system_xid, version, platform, ip_address, creation_state::text, contacted_at FROM ci_runner_machines WHERE runner_id = $1 ORDER BY system_xid',
        [id],
      )
    ).rows;
  const runnerRow = async (id: number) => (await other.query('SELECT contacted_at, creation_state::text FROM ci_runners WHERE id = $1', [id])).rows[0];

  it("writes a poll's first contact, creation state, new manager and changed report at once; buffers only the rest", async () => {
    const r = await newRunner();
    const poll = async (c: ReturnType<typeof contactOf>) => {
      const runner = await findPollingRunner(r.token, { systemXid: c.systemXid });
      expect(runner).not.toBeNull();
      await recordContact(r.token, runner!, c);
    };
    await poll(contactOf('s_000000000001', { version: '18.0.0', platform: 'linux' }, false));
    // No flush yet: the first contact and the new manager are there.
    expect((await runnerRow(r.id)).contacted_at).not.toBeNull();
    expect((await runnerRow(r.id)).creation_state).toBe('started');
    let managers = await managerRows(r.id);
    expect(managers).toMatchObject([{ system_xid: 's_000000000001', version: '18.0.0', platform: 'linux', ip_address: '10.0.0.1', creation_state: 'started' }]);
    // A job request finishes the creation at once.
    await poll(contactOf('s_000000000001', {}));
    expect((await runnerRow(r.id)).creation_state).toBe('finished');
    expect((await managerRows(r.id))[0].creation_state).toBe('finished');
    await settle();
    // A repeat with nothing new writes nothing until the flush.
    managers = await managerRows(r.id);
    const contacted = (await runnerRow(r.id)).contacted_at.getTime();
    await settle(20);
    await poll(contactOf('s_000000000001', { version: '18.0.0' }));
    expect((await managerRows(r.id))[0].contacted_at.getTime()).toBe(managers[0].contacted_at.getTime());
    expect((await runnerRow(r.id)).contacted_at.getTime()).toBe(contacted);
    // A new version, and a second manager, are written at once.
    await poll(contactOf('s_000000000001', { version: '18.1.0' }));
    await poll(contactOf('s_000000000002', {}));
    expect((await managerRows(r.id)).map((m) => [m.system_xid, m.version])).toEqual([
      ['s_000000000001', '18.1.0'],
      ['s_000000000002', null],
    ]);
    await flushHeartbeats();
    expect((await runnerRow(r.id)).contacted_at.getTime()).toBeGreaterThan(contacted);
    expect((await managerRows(r.id))[0].contacted_at.getTime()).toBeGreaterThan(managers[0].contacted_at.getTime());
    // A removed manager's system_id polling again gets its manager back at once, on every instance: the
    // removal is announced, so the cache forgets it.
    await other.query(`DELETE FROM ci_runner_machines WHERE runner_id = $1 AND system_xid = 's_000000000002'`, [r.id]);
    await poll(contactOf('s_000000000002', {}));
    expect((await managerRows(r.id)).map((m) => m.system_xid)).toEqual(['s_000000000001', 's_000000000002']);
  });

  it('flushes only contacted_at of runners and managers already known, never moving it back', async () => {
    const [r, fresh, gone] = [await newRunner(), await newRunner(), await newRunner()];
    const known = contactOf('s_000000000001', { version: '18.0.0' });
    await recordContact(r.token, (await findPollingRunner(r.token, { systemXid: known.systemXid }))!, known);
    // Buffered without their contact having been written: a flush does not create them (a manager removed
    // after a poll was buffered must stay removed; a runner's contacted_at cleared with its last manager too).
    bufferHeartbeat(fresh.id, contactOf('s_000000000003', {}));
    bufferHeartbeat(r.id, contactOf('s_000000000004', {}));
    bufferHeartbeat(gone.id, contactOf('s_000000000001', {}));
    await other.query('DELETE FROM ci_runners WHERE id = $1', [gone.id]);
    bufferHeartbeat(r.id, contactOf('s_000000000001', { platform: 'linux' }));
    await flushHeartbeats();
    expect((await runnerRow(fresh.id)).contacted_at).toBeNull();
    expect(await managerRows(fresh.id)).toEqual([]);
    expect((await managerRows(r.id)).map((m) => [m.system_xid, m.version, m.platform])).toEqual([['s_000000000001', '18.0.0', 'linux']]);
    // A contact older than the row's (another instance flushed later) never moves contacted_at back.
    await other.query(`UPDATE ci_runners SET contacted_at = now() + interval '1 hour' WHERE id = $1`, [r.id]);
    const ahead = (await runnerRow(r.id)).contacted_at.getTime();
    bufferHeartbeat(r.id, contactOf('s_000000000001', {}));
    await flushHeartbeats();
    expect((await runnerRow(r.id)).contacted_at.getTime()).toBe(ahead);
  });
});
