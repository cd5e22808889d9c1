// [SESSIONS] A copy of the database signs no one in: user_sessions holds only a digest of each session id
// (the id itself travels only in the signed cookie), and with a configured secret (RUNWAY_SECRET,
// RUNWAY_SECRET_FILE or NEXTAUTH_SECRET) the database holds no signing secret either. A server of its own,
// started with no secret (the zero-configuration demo), then restarted with a key file.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { decode, encode } from 'next-auth/jwt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir } from '../../lib/db/migrations';
import { freshDatabase, type TestDatabase } from '../support/database';
import { freePort, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { signIn, type TestSession } from '../support/users';
import { needsServer } from '../../lib/db/test-server';

const COOKIE = 'next-auth.session-token';
// The migration that turned session ids into digests, and a secret kept in the database before it.
const DIGEST_MIGRATION = '20261126120000';
const STORED_SECRET = 'stored-before-the-upgrade-0123456789abcdefghij';
const FILE_SECRET = 'runway-secret-from-a-key-file-0123456789abcdef';
const external = !!process.env.DATABASE_URL;

let database: TestDatabase;
let server: ChildProcess | undefined;
let base: string;
let port: number;
let zeroConfigEnv: NodeJS.ProcessEnv;
/** A user and session made before the upgrade (PostgreSQL server only): the session's id was stored as is. */
let survivor: { userId: number; sid: string } | undefined;

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.inspectUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A session cookie made outside Runway, with next-auth's own encoder. */
async function mint(secret: string, userId: number, sid: string): Promise<string> {
  return `${COOKIE}=${await encode({ token: { sub: String(userId), sid }, secret })}`;
}

async function whoAmI(cookie: string): Promise<{ status: number; username?: string }> {
  const res = await fetch(`${base}/api/v4/user`, { headers: { Cookie: cookie } });
  const body = (await res.json()) as { username?: string };
  return { status: res.status, username: body.username };
}

/** The raw session id inside a cookie Runway issued (the test knows the secret it was signed with). */
async function sidOf(session: TestSession, secret: string): Promise<string> {
  const token = await decode({ token: session.cookie.slice(COOKIE.length + 1), secret });
  return token!.sid as string;
}

/** The database as the release before the digest migration left it, with a signed-in session. */
async function prepareOldDatabase(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-old-migrations-'));
  for (const name of readdirSync(migrationsDir())) {
    if (name === 'migration_lock.toml' || name < DIGEST_MIGRATION) cpSync(path.join(migrationsDir(), name), path.join(dir, name), { recursive: true });
  }
  await applyMigrations(database.inspectUrl, { lock: false, dir });
  await query('INSERT INTO instance_secrets (name, value) VALUES ($1, $2)', ['nextauth_secret', STORED_SECRET]);
  const [user] = await query<{ id: number }>(
    "INSERT INTO users (username, name, email, password_digest) VALUES ('survivor', 'Survivor', 'survivor@example.com', 'none') RETURNING id",
  );
  const sid = randomUUID();
  await query("INSERT INTO user_sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [sid, user.id]);
  survivor = { userId: user.id, sid };
}

beforeAll(async () => {
  port = await freePort();
  database = await freshDatabase(`runway_test_session_secrets_${process.pid}`, await freePort());
  base = `http://127.0.0.1:${port}`;
  zeroConfigEnv = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base });
  delete zeroConfigEnv.NEXTAUTH_SECRET;
  // The embedded database belongs to the server that holds it: only a PostgreSQL server can be prepared.
  if (external) await prepareOldDatabase();
  server = await startServer(port, zeroConfigEnv);
}, 180_000);

afterAll(async () => {
  if (server) await stopServer(server);
  await database?.drop();
});

describe('[SESSIONS] a database dump', () => {
  it(
    'keeps the sessions signed in before the upgrade: their ids were digested in place',
    needsServer('a database prepared at the previous version before Runway starts on it'),
    async () => {
      expect(await whoAmI(await mint(STORED_SECRET, survivor!.userId, survivor!.sid))).toEqual({ status: 200, username: 'survivor' });
      const [row] = await query<{ row: string }>('SELECT to_jsonb(s)::text AS row FROM user_sessions s WHERE user_id = $1', [survivor!.userId]);
      expect(row.row).not.toContain(survivor!.sid);
    },
  );

  it('cannot be made into a session cookie: the stored secret with any stored or listed session value signs no one in (issue 20 repro)', async () => {
    const admin = await signIn('root', ROOT_PASSWORD, base);
    expect(await whoAmI(admin.cookie)).toEqual({ status: 200, username: 'root' });
    // What the dump holds: the generated secret (zero configuration) and the session rows.
    const [{ value: secret }] = await query<{ value: string }>("SELECT value FROM instance_secrets WHERE name = 'nextauth_secret'");
    const rows = await query<{ user_id: number; row: Record<string, unknown> }>(
      "SELECT s.user_id, to_jsonb(s) AS row FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'root' AND s.revoked_at IS NULL",
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { user_id, row } of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value !== 'string') continue;
        expect((await whoAmI(await mint(secret, user_id, value))).status, column).toBe(401);
      }
    }
    // Nor does an id GET /user/sessions shows, and the real cookie still works.
    const listed = (await (await fetch(`${base}/api/v4/user/sessions`, { headers: { Cookie: admin.cookie } })).json()) as { id: string }[];
    for (const { id } of listed) expect((await whoAmI(await mint(secret, rows[0].user_id, id))).status, id).toBe(401);
    expect((await whoAmI(admin.cookie)).status).toBe(200);
  });

  it('holds no secret once one is configured: RUNWAY_SECRET_FILE signs sessions, the generated secret is gone and unused', async () => {
    const before = await signIn('root', ROOT_PASSWORD, base);
    const [{ value: generated }] = await query<{ value: string }>("SELECT value FROM instance_secrets WHERE name = 'nextauth_secret'");
    const oldSid = await sidOf(before, generated);
    const [{ id: rootId }] = await query<{ id: number }>("SELECT id FROM users WHERE username = 'root'");

    await stopServer(server!);
    server = undefined;
    const keyFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'runway-key-')), 'secret');
    writeFileSync(keyFile, `${FILE_SECRET}\n`, { mode: 0o600 });
    server = await startServer(port, { ...zeroConfigEnv, RUNWAY_SECRET_FILE: keyFile });

    expect(await query('SELECT name FROM instance_secrets')).toEqual([]);
    // Whatever the stored secret signed no longer counts, even with a real session id.
    expect((await whoAmI(before.cookie)).status).toBe(401);
    expect((await whoAmI(await mint(generated, rootId, oldSid))).status).toBe(401);

    // Sessions and their CSRF tokens work under the configured secret.
    const [one, two] = [await signIn('root', ROOT_PASSWORD, base), await signIn('root', ROOT_PASSWORD, base)];
    expect(await whoAmI(one.cookie)).toEqual({ status: 200, username: 'root' });
    expect(await whoAmI(await mint(FILE_SECRET, rootId, await sidOf(two, FILE_SECRET)))).toEqual({ status: 200, username: 'root' });
    const listed = (await (await fetch(`${base}/api/v4/user/sessions`, { headers: { Cookie: one.cookie } })).json()) as { id: string; current: boolean }[];
    const other = listed.find((s) => !s.current)!;
    const revoke = (csrf: string) =>
      fetch(`${base}/api/v4/user/sessions/${other.id}`, { method: 'DELETE', headers: { Cookie: one.cookie, 'X-CSRF-Token': csrf } });
    expect((await revoke('not-the-token')).status).toBe(403);
    expect((await revoke(one.csrf)).status).toBe(204);
    expect(await query('SELECT name FROM instance_secrets')).toEqual([]);
  }, 180_000);
});
