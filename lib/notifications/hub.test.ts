// The notification hub against the PostgreSQL server (LISTEN/NOTIFY is what it is for): delivery from
// other connections, one LISTEN connection per process, reconnect, the runner-change triggers, and the
// in-process mode of the embedded database. Skipped without DATABASE_URL.
import net from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../db/migrations';
import { needsServer } from '../db/test-server';
import { disconnectDb } from '../db/client';
import { closeHub, HUB_APPLICATION_NAME, IN_PROCESS_FLAG, notifyChannel, parseRunnerChange, RUNNER_CHANGES_CHANNEL, subscribe } from './hub';

const serverUrl = process.env.DATABASE_URL;
const NAME = `runway_test_hub_${process.pid}`;

/** Collects payloads, and resolves `next()` with the following one (or rejects after `ms`). */
function inbox() {
  const got: string[] = [];
  let waiter: ((p: string) => void) | undefined;
  return {
    got,
    push(p: string) {
      got.push(p);
      waiter?.(p);
    },
    next(ms = 5_000): Promise<string> {
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no notification')), ms);
        waiter = (p) => {
          clearTimeout(t);
          waiter = undefined;
          resolve(p);
        };
      });
    },
  };
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('[PLATFORM] notification hub', needsServer('LISTEN/NOTIFY across connections (the embedded one has a single session)'), () => {
  let url: string;
  let other: pg.Client;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${NAME}"`);
    await admin.end();
    const u = new URL(serverUrl!);
    u.pathname = `/${NAME}`;
    url = u.toString();
    await applyMigrations(url, { lock: false });
    process.env.RUNWAY_RESOLVED_DATABASE_URL = url;
    other = new pg.Client({ connectionString: url });
    await other.connect();
  }, 120_000);

  afterEach(async () => {
    await closeHub();
    delete process.env[IN_PROCESS_FLAG];
  });

  afterAll(async () => {
    await other?.end();
    await disconnectDb();
    delete process.env.RUNWAY_RESOLVED_DATABASE_URL;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
    await admin.end();
  });

  const hubConnections = async () =>
    (await other.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [NAME, HUB_APPLICATION_NAME])).rows;

  it('delivers a NOTIFY from another connection to every subscriber, over one LISTEN connection', async () => {
    const a = inbox();
    const b = inbox();
    const c = inbox();
    await subscribe('hub_test_one', a.push);
    await subscribe('hub_test_one', b.push);
    await subscribe('hub_test_two', c.push);
    const [na, nb] = [a.next(), b.next()];
    await other.query(`SELECT pg_notify('hub_test_one', 'hello')`);
    expect(await na).toBe('hello');
    expect(await nb).toBe('hello');
    const nc = c.next();
    await notifyChannel('hub_test_two', 'via helper');
    expect(await nc).toBe('via helper');
    expect(a.got).toEqual(['hello']);
    expect(await hubConnections()).toHaveLength(1);
  });

  it('stops delivering to a subscriber that unsubscribed, and UNLISTENs when the last one leaves', async () => {
    const a = inbox();
    const b = inbox();
    const offA = await subscribe('hub_test_leave', a.push);
    const offB = await subscribe('hub_test_leave', b.push);
    offA();
    const nb = b.next();
    await other.query(`SELECT pg_notify('hub_test_leave', 'one')`);
    expect(await nb).toBe('one');
    offB();
    await other.query(`SELECT pg_notify('hub_test_leave', 'two')`);
    await settle();
    expect(a.got).toEqual([]);
    expect(b.got).toEqual(['one']);
  });

  it('delivers only on commit: a rolled-back NOTIFY is never seen', async () => {
    const a = inbox();
    await subscribe('hub_test_tx', a.push);
    await other.query('BEGIN');
    await other.query(`SELECT pg_notify('hub_test_tx', 'rolled back')`);
    await other.query('ROLLBACK');
    await other.query('BEGIN');
    await other.query(`SELECT pg_notify('hub_test_tx', 'committed')`);
    await settle(100);
    expect(a.got).toEqual([]);
    const n = a.next();
    await other.query('COMMIT');
    expect(await n).toBe('committed');
    expect(a.got).toEqual(['committed']);
  });

  it('calls onLost when its connection is killed, then reconnects, calls onReconnect, and listens again', async () => {
    const a = inbox();
    let reconnected = 0;
    const events: string[] = [];
    const back = new Promise<void>((resolve) =>
      subscribe(
        'hub_test_reconnect',
        a.push,
        () => {
          reconnected += 1;
          events.push('reconnect');
          resolve();
        },
        (closed) => events.push(`lost closed=${closed}`),
      ),
    );
    await settle(100);
    const [{ pid }] = await hubConnections();
    await other.query('SELECT pg_terminate_backend($1)', [pid]);
    await back;
    expect(reconnected).toBe(1);
    expect(events).toEqual(['lost closed=false', 'reconnect']);
    const [again] = await hubConnections();
    expect(again.pid).not.toBe(pid);
    const n = a.next();
    await other.query(`SELECT pg_notify('hub_test_reconnect', 'after')`);
    expect(await n).toBe('after');
    await closeHub();
    expect(events).toEqual(['lost closed=false', 'reconnect', 'lost closed=true']);
  });

  it('notices a connection that went silent (no error, no answers) by its ping, and listens again on a new one', async () => {
    // A loopback relay to the server that can freeze the connections it carries: bytes stop both ways and
    // nothing is closed, as when a firewall drops an idle flow. New connections still pass.
    const target = new URL(url);
    const carried: { frozen: boolean }[] = [];
    const relay = net.createServer((inbound) => {
      const state = { frozen: false };
      carried.push(state);
      const outbound = net.connect(Number(target.port || 5432), target.hostname);
      inbound.on('data', (d) => state.frozen || outbound.write(d));
      outbound.on('data', (d) => state.frozen || inbound.write(d));
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(url);
    relayed.host = `127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
    process.env.RUNWAY_RESOLVED_DIRECT_URL = relayed.toString();
    process.env.RUNWAY_NOTIFICATIONS_PING_SECONDS = '0.5';
    try {
      const a = inbox();
      const events: string[] = [];
      let back!: () => void;
      const reconnected = new Promise<void>((resolve) => (back = resolve));
      await subscribe(
        'hub_test_silent',
        a.push,
        () => {
          events.push('reconnect');
          back();
        },
        (closed) => events.push(`lost closed=${closed}`),
      );
      expect(carried).toHaveLength(1);
      carried[0].frozen = true;
      await reconnected;
      expect(events).toEqual(['lost closed=false', 'reconnect']);
      expect(carried).toHaveLength(2);
      const n = a.next();
      await other.query(`SELECT pg_notify('hub_test_silent', 'after the silence')`);
      expect(await n).toBe('after the silence');
    } finally {
      delete process.env.RUNWAY_RESOLVED_DIRECT_URL;
      delete process.env.RUNWAY_NOTIFICATIONS_PING_SECONDS;
      await closeHub();
      relay.close();
      for (const c of carried) c.frozen = false;
    }
  }, 20_000);

  it('announces runner inserts, setting changes, first contact, assignments and deletes, but not a heartbeat alone', async () => {
    const changes = inbox();
    await subscribe(RUNNER_CHANGES_CHANNEL, changes.push);
    const next = async () => parseRunnerChange(await changes.next());

    let n = next();
    const {
      rows: [runner],
    } = await other.query(`INSERT INTO ci_runners (runner_type, token_digest) VALUES ('project_type', md5(random()::text)) RETURNING id`);
    expect(await n).toEqual({ id: runner.id, op: 'INSERT', table: 'ci_runners' });

    n = next();
    await other.query('UPDATE ci_runners SET contacted_at = now() WHERE id = $1', [runner.id]);
    expect(await n).toEqual({ id: runner.id, op: 'UPDATE', table: 'ci_runners' }); // first contact

    await other.query(`UPDATE ci_runners SET contacted_at = now() + interval '1 minute' WHERE id = $1`, [runner.id]);
    await settle();
    expect(changes.got).toHaveLength(2); // the heartbeat alone

    n = next();
    await other.query('UPDATE ci_runners SET active = false, updated_at = now() WHERE id = $1', [runner.id]);
    expect(await n).toEqual({ id: runner.id, op: 'UPDATE', table: 'ci_runners' });

    const {
      rows: [ns],
    } = await other.query(`INSERT INTO namespaces (kind, name, path, full_path) VALUES ('user', 'hub', 'hub', 'hub') RETURNING id`);
    const {
      rows: [project],
    } = await other.query(`INSERT INTO projects (name, path, namespace_id, full_path) VALUES ('p', 'p', $1, 'hub/p') RETURNING id`, [ns.id]);
    n = next();
    await other.query('INSERT INTO ci_runner_projects (runner_id, project_id) VALUES ($1, $2)', [runner.id, project.id]);
    expect(await n).toEqual({ id: runner.id, op: 'INSERT', table: 'ci_runner_projects' });
    n = next();
    await other.query('DELETE FROM ci_runner_projects WHERE runner_id = $1', [runner.id]);
    expect(await n).toEqual({ id: runner.id, op: 'DELETE', table: 'ci_runner_projects' });

    n = next();
    await other.query('DELETE FROM ci_runners WHERE id = $1', [runner.id]);
    expect(await n).toEqual({ id: runner.id, op: 'DELETE', table: 'ci_runners' });
  });

  it('in process (the embedded database), notifies its own subscribers without a LISTEN connection', async () => {
    process.env[IN_PROCESS_FLAG] = 'true';
    const a = inbox();
    await subscribe('hub_test_local', a.push);
    const n = a.next();
    await notifyChannel('hub_test_local', 'local');
    expect(await n).toBe('local');
    expect(await hubConnections()).toHaveLength(0);
  });

  it('refuses channel names that are not plain identifiers', async () => {
    await expect(subscribe('bad channel; DROP', () => undefined)).rejects.toThrow(/invalid notification channel/);
    await expect(notifyChannel('Bad', 'x')).rejects.toThrow(/invalid notification channel/);
  });
});

describe('[PLATFORM] runner change payloads', () => {
  it('parse the trigger payload and refuse anything else', () => {
    expect(parseRunnerChange('{"id": 7, "op": "DELETE", "table": "ci_runners"}')).toEqual({ id: 7, op: 'DELETE', table: 'ci_runners' });
    expect(parseRunnerChange('{"id": "7", "op": "DELETE", "table": "ci_runners"}')).toBeNull();
    expect(parseRunnerChange('{"id": 7, "op": "TRUNCATE", "table": "ci_runners"}')).toBeNull();
    expect(parseRunnerChange('not json')).toBeNull();
  });
});
