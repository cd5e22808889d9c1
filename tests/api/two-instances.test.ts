// Two Runway servers on ONE fresh database, started together with no NEXTAUTH_SECRET and a data folder
// each: whatever must be shared (the session secret, sessions and their revocation) goes through
// PostgreSQL, so a client may be served by either instance. Each case signs in, or fails to, on one
// instance and checks the effect on the other; add further shared-state cases inside the describe block.
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { freePort, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { signIn, signOut, type TestSession } from '../support/users';
import { needsServer } from '../../lib/db/test-server';

interface Instance {
  url: string;
  dataDir: string;
  server: ChildProcess;
}

/** GET /api/v4/path on one instance with a session cookie. */
const get = (instance: Instance, apiPath: string, session: TestSession) => fetch(`${instance.url}/api/v4${apiPath}`, { headers: { Cookie: session.cookie } });

describe('[PLATFORM] two Runway instances on one database', { ...needsServer('two Runway instances on one database'), timeout: 60_000 }, () => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;

  async function startInstance(): Promise<Instance> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'runway-two-instances-'));
    const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: url, RUNWAY_DATA_DIR: dataDir });
    // The point of the test: no shared secret is configured.
    delete env.NEXTAUTH_SECRET;
    return { url, dataDir, server: await startServer(port, env) };
  }

  beforeAll(async () => {
    database = await freshDatabase(`runway_test_two_instances_${process.pid}`, await freePort());
    // Started at once, so migrations, root and the generated secret are raced for, as in a real rollout.
    [a, b] = await Promise.all([startInstance(), startInstance()]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((i) => stopServer(i.server)));
    await database?.drop();
  });

  it('generate one session secret, kept in the database and not in either data folder', async () => {
    const client = new pg.Client({ connectionString: database.inspectUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('SELECT name FROM instance_secrets');
      expect(rows).toEqual([{ name: 'nextauth_secret' }]);
    } finally {
      await client.end();
    }
    for (const instance of [a, b]) expect(await readdir(instance.dataDir)).not.toContain('nextauth-secret');
  });

  it('share a session: signed in on A, it works on B; signed out on B, A refuses it', async () => {
    const session = await signIn('root', ROOT_PASSWORD, a.url);
    const onB = await get(b, '/user', session);
    expect(onB.status).toBe(200);
    expect((await onB.json()).username).toBe('root');
    const listed = await (await get(b, '/user/sessions', session)).json();
    expect(listed.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    await signOut(session, b.url);
    expect((await get(a, '/user', session)).status).toBe(401);
    expect((await get(b, '/user', session)).status).toBe(401);
  });

  it('share a revocation: a session revoked from B is refused by A at once', async () => {
    const victim = await signIn('root', ROOT_PASSWORD, a.url);
    const revoker = await signIn('root', ROOT_PASSWORD, b.url);
    expect((await get(a, '/user', victim)).status).toBe(200);
    const sessions = (await (await get(b, '/user/sessions', revoker)).json()) as Array<{ id: string; current: boolean }>;
    // Root's only active sessions are these two (the case above signed its session out).
    expect(sessions).toHaveLength(2);
    const victimId = sessions.find((s) => !s.current)!.id;
    const revoked = await fetch(`${b.url}/api/v4/user/sessions/${victimId}`, {
      method: 'DELETE',
      headers: { Cookie: revoker.cookie, 'X-CSRF-Token': revoker.csrf },
    });
    expect(revoked.status).toBe(204);
    expect((await get(a, '/user', victim)).status).toBe(401);
    expect((await get(a, '/user', revoker)).status).toBe(200);
  });
});
