// Edge behaviour that needs a Runway of its own: memory stays bounded under concurrent huge bodies, and a
// database outage answers 503 JSON (then recovers). Own database, so breaking it disturbs no other test.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { needsServer } from '../../lib/db/test-server';

const MiB = 1024 * 1024;

let database: TestDatabase;
let server: ChildProcess;
let base: string;
let token: string;

beforeAll(async () => {
  const [port, dbPort] = [await freePort(), await freePort()];
  database = await freshDatabase(`runway_test_edge_${process.pid}`, dbPort);
  base = `http://127.0.0.1:${port}`;
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base });
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'edge'], env);
  expect(made.status).toBe(0);
  token = made.stdout.trim();
  server = await startServer(port, env);
}, 120_000);

afterAll(async () => {
  if (server) await stopServer(server);
  await database?.drop();
});

/** Resident memory of the Runway process, in bytes (Linux). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

interface Upload {
  status: number;
  body: unknown;
  sent: number;
}

/**
 * Streams up to `total` bytes of a JSON-looking body in 1 MiB chunks (honouring backpressure) and stops
 * sending as soon as the answer arrives. `declared` sends a Content-Length, otherwise the body is chunked.
 */
function upload(path: string, total: number, opts: { declared: boolean; token?: string }): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (opts.token) headers['PRIVATE-TOKEN'] = opts.token;
    if (opts.declared) headers['Content-Length'] = String(total);
    // Keep-alive, as API clients connect: the server then discards the unread rest after answering instead
    // of closing on a client still sending (which may reset the connection before the answer is read).
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(`${base}/api/v4${path}`, { method: 'POST', headers, agent });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(MiB, 'a');
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        req.destroy();
        agent.destroy();
        resolve({ status: res.statusCode!, body: res.headers['content-type'] === 'application/json' ? JSON.parse(text) : text, sent });
      });
    });
    req.on('error', (e) => (answered ? undefined : reject(e)));
    // One chunk per turn of the event loop, so an early answer is read before the next write (writing on
    // after the server closed would end in EPIPE and lose the answer).
    const pump = () => {
      if (answered || req.destroyed) return;
      if (sent >= total) return void req.end();
      const first = sent === 0 ? Buffer.from('{"runner_type":"instance_type","description":"') : undefined;
      const piece = first ?? chunk.subarray(0, Math.min(MiB, total - sent));
      sent += piece.length;
      if (req.write(piece)) setImmediate(pump);
      else req.once('drain', () => setImmediate(pump));
    };
    // A declared length too large is answered at once: give that answer time to arrive before pumping
    // (writing on after it would meet the closed connection).
    if (opts.declared) {
      const head = Buffer.from('{"runner_type":"instance_type","description":"');
      sent += head.length;
      req.write(head);
      setTimeout(pump, 500);
    } else pump();
  });
}

describe('[EDGE] body size limit keeps memory bounded', () => {
  it('refuses 4 concurrent 200 MB bodies (declared and chunked, signed in and anonymous) with RSS growth under 150 MB', async () => {
    const pid = server.pid!;
    // Warm the route up so compiling and caching it is not counted as growth.
    for (let i = 0; i < 3; i++) await upload('/user/runners', 1024, { declared: true, token });
    const before = rss(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 25);
    try {
      const total = 200 * MiB;
      const [declared, chunked, anonymous] = await Promise.all([
        Promise.all([1, 2, 3, 4].map(() => upload('/user/runners', total, { declared: true, token }))),
        Promise.all([1, 2, 3, 4].map(() => upload('/user/runners', total, { declared: false, token }))),
        Promise.all([1, 2, 3, 4].map(() => upload('/user/runners', total, { declared: false }))),
      ]);
      for (const r of [...declared, ...chunked]) {
        expect(r.status).toBe(413);
        expect(r.body).toEqual({ message: '413 Request Entity Too Large' });
        expect(r.sent).toBeLessThan(total);
      }
      for (const r of anonymous) {
        expect(r.status).toBe(401);
        expect(r.body).toEqual({ message: '401 Unauthorized' });
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rss(pid));
    expect(peak - before).toBeLessThan(150 * MiB);
    // The server still serves.
    const ok = await fetch(`${base}/api/v4/version`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(ok.status).toBe(200);
  }, 60_000);

  it('still accepts a body just under the limit', async () => {
    const filler = 'x'.repeat(9 * MiB);
    const res = await fetch(`${base}/api/v4/user/runners`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ runner_type: 'instance_type', description: 'big-body', ignored: filler }),
    });
    expect(res.status).toBe(201);
  });
});

describe('[EDGE] database outage', () => {
  it(
    'answers 503 JSON while the database refuses connections, and recovers',
    { ...needsServer('the database refuses connections while Runway runs (the embedded one lives inside Runway)'), timeout: 60_000 },
    async () => {
      const name = new URL(database.inspectUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      const headers = { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' };
      const probes = () => [
        fetch(`${base}/api/v4/runners/all`, { headers }),
        fetch(`${base}/api/v4/version`, { headers }),
        fetch(`${base}/api/v4/projects`, { headers }),
        fetch(`${base}/api/v4/user/runners`, { method: 'POST', headers, body: JSON.stringify({ runner_type: 'instance_type' }) }),
      ];
      try {
        expect((await fetch(`${base}/api/v4/runners/all`, { headers })).status).toBe(200);
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        // Terminate the pool's open connections, repeatedly, while requests run against them.
        for (let round = 0; round < 3; round++) {
          await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
          for (const res of await Promise.all(probes())) {
            expect(res.status).toBe(503);
            expect(res.headers.get('content-type')).toBe('application/json');
            expect(await res.json()).toEqual({ message: '503 Service Unavailable' });
          }
        }
        // The database check fails; the instance check a load balancer probes does not, so a database
        // blip does not take every instance out of rotation at once.
        const ready = await fetch(`${base}/-/readiness?all=1`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toEqual({
          status: 'failed',
          master_check: [{ status: 'ok' }],
          db_check: [{ status: 'failed', message: 'database is not reachable' }],
        });
        expect((await fetch(`${base}/-/readiness`)).status).toBe(200);
      } finally {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        await admin.end();
      }
      for (const res of await Promise.all(probes())) expect(res.status).toBeLessThan(300);
      expect(server.exitCode).toBeNull();
    },
  );
});
