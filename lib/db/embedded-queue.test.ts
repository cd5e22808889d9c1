// Several sockets on the embedded database's one session: parameterised queries (Parse, Bind, Execute, Sync)
// from different sockets never run on each other's portal, a transaction holds the session until it ends,
// and a socket that leaves mid-transaction gives the session back rolled back.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded';

let database: EmbeddedDatabase;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  clients.push(client);
  return client;
}

beforeAll(async () => {
  database = await startEmbeddedDatabase({ dir: 'memory://', maxConnections: 16 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await database.stop();
});

/** A socket speaking the wire protocol by hand, so a test can stop between Bind and Execute as a busy client may. */
async function rawSocket() {
  const url = new URL(database.url);
  const socket = net.connect(Number(url.port), url.hostname);
  let received = Buffer.alloc(0);
  socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0);
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const cstr = (text: string) => Buffer.from(`${text}\0`);
  /** Reads until ReadyForQuery; returns the reply's message types and the text of any error. */
  async function untilReady(): Promise<{ types: string; error: string | null }> {
    for (let waited = 0; waited < 5000; waited += 10) {
      if (received.length >= 6 && received[received.length - 6] === 0x5a) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    let types = '';
    let error: string | null = null;
    for (let at = 0; at < received.length;) {
      const type = String.fromCharCode(received[at]);
      const length = received.readInt32BE(at + 1);
      if (type === 'E') error = received.subarray(at + 5, at + 1 + length).toString('latin1');
      types += type;
      at += 1 + length;
    }
    received = Buffer.alloc(0);
    return { types, error };
  }
  const startup = Buffer.concat([Buffer.from([0, 3, 0, 0]), cstr('user'), cstr('postgres'), cstr('database'), cstr('postgres'), Buffer.from([0])]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(startup.length + 4);
  socket.write(Buffer.concat([length, startup]));
  await untilReady();
  return {
    parseAndBind(sql: string) {
      socket.write(
        Buffer.concat([
          message('P', Buffer.concat([cstr(''), cstr(sql), Buffer.from([0, 0])])),
          message('B', Buffer.concat([cstr(''), cstr(''), Buffer.from([0, 0, 0, 0, 0, 0])])),
        ]),
      );
    },
    executeAndSync() {
      socket.write(Buffer.concat([message('E', Buffer.concat([cstr(''), Buffer.from([0, 0, 0, 0])])), message('S', Buffer.alloc(0))]));
      return untilReady();
    },
    close: () => socket.destroy(),
  };
}

describe('the embedded session queue', () => {
  it('holds the session for a socket between its Bind and its Sync', async () => {
    const a = await rawSocket();
    const b = await connect();
    a.parseAndBind("SELECT 'a' AS who");
    await new Promise((resolve) => setTimeout(resolve, 50));
    let bAnswered = false;
    const other = b.query<{ who: string }>('SELECT $1::text AS who', ['b']).then((r) => ((bAnswered = true), r.rows[0].who));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bAnswered).toBe(false);
    const reply = await a.executeAndSync();
    expect(reply.error).toBeNull();
    // ParseComplete, BindComplete, DataRow, CommandComplete, (PGlite's ParameterStatus), ReadyForQuery.
    expect(reply.types).toMatch(/^12DC.*Z$/);
    expect(await other).toBe('b');
    a.close();
  });

  it('keeps each socket’s parameterised queries whole while four sockets query at once', async () => {
    const sockets = await Promise.all([connect(), connect(), connect(), connect()]);
    const results = await Promise.all(
      sockets.flatMap((client, socket) =>
        Array.from({ length: 50 }, (_, i) =>
          // A different text per socket: a Bind that reached another socket's statement would show.
          client.query<{ socket: number; i: number }>(`SELECT ${socket} AS socket, $1::int AS i`, [i]).then((r) => r.rows[0]),
        ),
      ),
    );
    expect(results).toEqual(sockets.flatMap((_, socket) => Array.from({ length: 50 }, (_, i) => ({ socket, i }))));
  });

  it('serves only the socket inside a transaction until it commits', async () => {
    const [a, b] = [await connect(), await connect()];
    await a.query('CREATE TABLE queue_probe (n int)');
    await a.query('BEGIN');
    await a.query('INSERT INTO queue_probe VALUES ($1)', [1]);
    let bSaw: number | null = null;
    const read = b.query<{ count: number }>('SELECT count(*)::int AS count FROM queue_probe WHERE n = $1', [1]).then((r) => (bSaw = r.rows[0].count));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bSaw).toBeNull();
    await a.query('COMMIT');
    await read;
    expect(bSaw).toBe(1);
  });

  it('rolls back the transaction of a socket that leaves, and serves the others', async () => {
    const [a, b] = [await connect(), await connect()];
    await a.query('CREATE TABLE queue_left (n int)');
    await a.query('BEGIN');
    await a.query('INSERT INTO queue_left VALUES ($1)', [7]);
    const waiting = b.query<{ count: number }>('SELECT count(*)::int AS count FROM queue_left WHERE n = $1', [7]);
    a.on('error', () => undefined);
    (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect((await waiting).rows[0].count).toBe(0);
  });

  it('answers the next socket after a socket’s query fails', async () => {
    const [a, b] = [await connect(), await connect()];
    const [failed, ok] = await Promise.allSettled([a.query('SELECT 1 / $1::int AS n', [0]), b.query('SELECT $1::int + 1 AS n', [41])]);
    expect(failed.status).toBe('rejected');
    expect(ok.status === 'fulfilled' && ok.value.rows[0]).toEqual({ n: 42 });
    expect((await a.query('SELECT $1::text AS t', ['after'])).rows[0]).toEqual({ t: 'after' });
  });
});
