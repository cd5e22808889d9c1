// [UPGRADE] A database made by an earlier release upgrades in place. Each dump of tests/fixtures/upgrade (the
// database of an earlier commit's migrations, with users, tokens, sessions, groups, shares, runners, jobs,
// merge requests and audit events: seed.ts) is loaded into an empty database and migrated by `runway migrate`,
// as an operator upgrades; then a Runway started on the previous release's database must serve those rows.
//
// What fails here, and not in a test on a fresh database:
// - a migration that cannot run over rows (a NOT NULL column without a default, a unique index or a cast the
//   old values break): `runway migrate` exits non-zero;
// - a migration that loses or rewrites rows: the row counts, and the sign-ins, tokens and lists below;
// - a released migration edited or renamed afterwards: the recorded names and checksums differ from the
//   folder's (a renamed one would also be applied twice), and the upgraded schema from a fresh install's;
// - a migration whose result depends on the data (the upgraded schema is compared with a fresh install's);
// - code that only works on rows today's code writes (a column only new code fills, a token, password or
//   session digest format that changed): the old admin's password, session and token, the old runners'
//   tokens, tags and managers, the old registration token, shares and context commits, through the HTTP API.
// Remaking the fixtures: tests/fixtures/upgrade/README.md.
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadMigrationList, migrationsDir } from '../../lib/db/migrations';
import { needsServer } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { AUTH_SECRET, cli, freePort, ROOT, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { signIn } from '../support/users';
import {
  UPGRADE_CONTEXT_COMMITS,
  UPGRADE_IDS,
  UPGRADE_LAYOUTS,
  UPGRADE_RUNNER_MANAGERS,
  UPGRADE_RUNNER_TAGS,
  UPGRADE_SECRETS,
  type UpgradeLayout,
} from '../fixtures/upgrade/seed';

const S = UPGRADE_SECRETS;
const ID = UPGRADE_IDS;
const [previous] = UPGRADE_LAYOUTS;

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Every table's row count. */
const rowCounts = (url: string) =>
  withClient(url, async (c) => {
    const { rows } = await c.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
    const counts: Record<string, number> = {};
    for (const { tablename } of rows) counts[tablename] = (await c.query(`SELECT count(*)::int AS n FROM "${tablename}"`)).rows[0].n;
    return counts;
  });

/**
 * New tables a migration fills from the rows already there, and what they must then hold (one column, the
 * query that derives it from the old rows). Every other new table starts empty.
 */
const BACKFILLED: Record<string, { column: string; from: string }> = {
  // 20261207023850_runner_upgrade_statuses: one row per version a manager reported.
  ci_runner_versions: { column: 'version', from: 'SELECT DISTINCT version AS v FROM ci_runner_machines WHERE version IS NOT NULL ORDER BY 1' },
};

const queryAll = (url: string, text: string) => withClient(url, async (c) => (await c.query<{ v: unknown }>(text)).rows.map((r) => r.v));

/** The credentials of old rows, which no migration may rewrite. */
const storedDigests = (url: string) =>
  withClient(url, async (c) => ({
    passwords: (await c.query('SELECT id, password_digest FROM users ORDER BY id')).rows,
    tokens: (await c.query('SELECT id, token_digest, revoked FROM personal_access_tokens ORDER BY id')).rows,
    runners: (await c.query('SELECT id, token_digest, tag_ids FROM ci_runners ORDER BY id')).rows,
    sessions: (await c.query('SELECT id_digest, user_id, expires_at FROM user_sessions ORDER BY id_digest')).rows,
  }));

/**
 * The schema as the catalogs show it, sorted: columns, indexes, constraints, triggers, functions, enums,
 * sequences and extensions. `_prisma_migrations`'s rows are compared separately.
 */
const schemaOf = (url: string) =>
  withClient(url, async (c) => {
    const q = async (text: string) => (await c.query<{ x: string }>(text)).rows.map((r) => r.x).sort();
    return {
      columns: await q(`SELECT format('%s.%s %s %s %s', table_name, column_name, udt_name, is_nullable, column_default) AS x
                          FROM information_schema.columns WHERE table_schema = 'public'`),
      indexes: await q("SELECT indexdef AS x FROM pg_indexes WHERE schemaname = 'public'"),
      constraints: await q(`SELECT format('%s %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid), condeferrable) AS x
                              FROM pg_constraint WHERE connamespace = 'public'::regnamespace`),
      triggers: await q(`SELECT pg_get_triggerdef(t.oid) AS x FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid
                          WHERE r.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal`),
      functions: await q(`SELECT pg_get_functiondef(p.oid) AS x FROM pg_proc p LEFT JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
                           WHERE p.pronamespace = 'public'::regnamespace AND d.objid IS NULL`),
      enums: await q(`SELECT format('%s: %s', t.typname, string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder)) AS x
                        FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`),
      sequences: await q("SELECT sequencename AS x FROM pg_sequences WHERE schemaname = 'public'"),
      extensions: await q("SELECT extname AS x FROM pg_extension WHERE extname <> 'plpgsql'"),
    };
  });

/** The migrations the folder holds today, with the SHA-256 Prisma records as each one's checksum. */
async function todaysMigrations(): Promise<{ name: string; checksum: string }[]> {
  const list = (await loadMigrationList()) as unknown as { migrationDirectories: { path: string }[] };
  return list.migrationDirectories.map(({ path: name }) => ({
    name,
    checksum: createHash('sha256')
      .update(readFileSync(path.join(migrationsDir(), name, 'migration.sql')))
      .digest('hex'),
  }));
}

const recordedMigrations = (url: string) =>
  withClient(
    url,
    async (c) =>
      (
        await c.query<{ name: string; checksum: string; done: boolean }>(
          `SELECT migration_name AS name, checksum, finished_at IS NOT NULL AND rolled_back_at IS NULL AS done
             FROM _prisma_migrations ORDER BY migration_name`,
        )
      ).rows,
  );

interface Loaded {
  layout: UpgradeLayout;
  database: TestDatabase;
  env: NodeJS.ProcessEnv;
  counts: Record<string, number>;
  digests: Awaited<ReturnType<typeof storedDigests>>;
  migrations: { name: string; checksum: string; done: boolean }[];
}

describe(
  '[UPGRADE] a database made by an earlier release',
  {
    ...needsServer(
      'the dumps are loaded into an empty PostgreSQL database before Runway migrates it; loading them into an embedded data folder first is not done here (the migrations are the same SQL on both)',
    ),
    timeout: 120_000,
  },
  () => {
    const loaded: Loaded[] = [];
    let today: { name: string; checksum: string }[];

    beforeAll(async () => {
      today = await todaysMigrations();
      for (const [i, layout] of UPGRADE_LAYOUTS.entries()) {
        const database = await freshDatabase(`runway_test_upgrade_${i}_${process.pid}`, await freePort());
        const sql = readFileSync(path.join(ROOT, 'tests', 'fixtures', 'upgrade', layout.file), 'utf8');
        await withClient(database.inspectUrl, (c) => c.query(sql));
        loaded.push({
          layout,
          database,
          env: runwayEnv(database.env),
          counts: await rowCounts(database.inspectUrl),
          digests: await storedDigests(database.inspectUrl),
          migrations: await recordedMigrations(database.inspectUrl),
        });
      }
    }, 120_000);

    afterAll(async () => {
      for (const l of loaded) await l.database.drop();
    });

    describe.each(UPGRADE_LAYOUTS.map((layout, i) => ({ layout, i, name: `${layout.lastMigration} (${layout.commit.slice(0, 12)})` })))(
      'from $name',
      ({ i }) => {
        it('holds a prefix of today’s migrations, unedited: the released ones were not renamed or changed since', () => {
          const { migrations, layout } = loaded[i];
          expect(migrations.every((m) => m.done)).toBe(true);
          expect(migrations.at(-1)?.name).toBe(layout.lastMigration);
          expect(migrations.map(({ name, checksum }) => ({ name, checksum }))).toEqual(today.slice(0, migrations.length));
          expect(migrations.length).toBeLessThan(today.length);
        });

        it('is migrated by `runway migrate` with the newer migrations only, and a second migrate applies nothing', async () => {
          const { migrations, env, database } = loaded[i];
          const pending = today.slice(migrations.length).map((m) => m.name);
          const first = cli(['migrate'], env);
          expect(first.status, first.stderr).toBe(0);
          expect(first.stdout.trim()).toBe(`applied: ${pending.join(', ')}`);
          const second = cli(['migrate'], env);
          expect(second.status, second.stderr).toBe(0);
          expect(second.stdout.trim()).toBe('database is up to date');
          const recorded = await recordedMigrations(database.inspectUrl);
          expect(recorded.map(({ name, checksum, done }) => ({ name, checksum, done }))).toEqual(today.map((m) => ({ ...m, done: true })));
        });

        it('keeps every row and every stored digest', async () => {
          const { database, counts, digests } = loaded[i];
          const after = await rowCounts(database.inspectUrl);
          // The tables the newer migrations added are empty; every other one holds what it held (but the
          // migrations' own log, checked above).
          const kept = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([t]) => t in counts && t !== '_prisma_migrations'));
          expect(kept(after)).toEqual(kept(counts));
          for (const [table, n] of Object.entries(after)) if (!(table in counts) && !(table in BACKFILLED)) expect(n, table).toBe(0);
          // A new table a migration fills from the old rows holds exactly what they imply.
          for (const [table, expected] of Object.entries(BACKFILLED)) {
            if (table in counts) continue;
            expect(await queryAll(database.inspectUrl, `SELECT ${expected.column} AS v FROM ${table} ORDER BY 1`), table).toEqual(
              await queryAll(database.inspectUrl, expected.from),
            );
          }
          expect(await storedDigests(database.inspectUrl)).toEqual(digests);
        });

        it('ends with the schema of a fresh install (the API tests’ database, migrated from empty)', async () => {
          expect(await schemaOf(loaded[i].database.inspectUrl)).toEqual(await schemaOf(inject('inspectUrl')));
        });

        it('lets today’s CLI read and write its users: a new token for alice', () => {
          const made = cli(['create-token', '--username', 'alice', '--scopes', 'read_api', '--name', 'after-upgrade'], loaded[i].env);
          expect(made.status, made.stderr).toBe(0);
          expect(made.stdout.trim()).toMatch(/^glpat-/);
        });
      },
    );

    describe(`a Runway started on ${previous.lastMigration}’s database, upgraded`, () => {
      let server: ChildProcess | undefined;
      let base: string;

      beforeAll(async () => {
        const port = await freePort();
        base = `http://127.0.0.1:${port}`;
        // The start migrates too (the production start path), so this also holds when run on its own (-t).
        server = await startServer(port, { ...loaded[0].env, RUNWAY_EXTERNAL_URL: base });
      }, 180_000);
      afterAll(async () => {
        if (server) await stopServer(server);
      });

      const call = async (method: string, route: string, opts: { token?: string; cookie?: string; json?: unknown } = {}) => {
        const headers: Record<string, string> = {};
        if (opts.token) headers['PRIVATE-TOKEN'] = opts.token;
        if (opts.cookie) headers.Cookie = opts.cookie;
        if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
        const res = await fetch(`${base}/api/v4${route}`, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
        const text = await res.text();
        return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any, text };
      };
      const get = (route: string, token: string = S.personalAccessTokens.root) => call('GET', route, { token });

      it('signs the old admin in with the old password (not the INITIAL_ROOT_PASSWORD of this start), and keeps the old session', async () => {
        const session = await signIn('root', S.passwords.root, base);
        expect((await call('GET', '/user', { cookie: session.cookie })).body).toMatchObject({ id: ID.users.root, username: 'root', is_admin: true });
        await expect(signIn('root', ROOT_PASSWORD, base)).rejects.toThrow(/sign-in failed/);
        // The session signed in before the upgrade: user_sessions keeps its id's digest, the cookie the id.
        const cookie = `next-auth.session-token=${await encode({ token: { sub: String(ID.users.root), sid: S.rootSessionId }, secret: AUTH_SECRET })}`;
        expect((await call('GET', '/user', { cookie })).body).toMatchObject({ username: 'root' });
        const sessions = await call('GET', '/user/sessions', { cookie });
        expect(sessions.status).toBe(200);
        expect(sessions.body.find((s: { current: boolean }) => s.current)).toMatchObject({ ip_address: '192.0.2.10' });
      });

      it('authenticates the old personal access tokens, and still refuses the revoked one', async () => {
        expect((await get('/user')).body).toMatchObject({ id: ID.users.root, username: 'root', is_admin: true });
        expect((await get('/user', S.personalAccessTokens.alice)).body).toMatchObject({ id: ID.users.alice, username: 'alice' });
        expect((await get('/user', S.personalAccessTokens.carol)).body).toMatchObject({ id: ID.users.carol, username: 'carol' });
        expect((await get('/user', S.personalAccessTokens.bobRevoked)).status).toBe(401);
      });

      it('lists the old runners of all three types with their tags, owners and managers', async () => {
        const all = await get('/runners/all?per_page=100');
        expect(all.status).toBe(200);
        const old: number[] = Object.values(ID.runners);
        const listed = all.body
          .filter((r: { id: number }) => old.includes(r.id))
          .map((r: { id: number; runner_type: string; paused: boolean }) => [r.id, r.runner_type, r.paused]);
        expect(listed.sort()).toEqual([
          [ID.runners.instance, 'instance_type', false],
          [ID.runners.group, 'group_type', false],
          [ID.runners.project, 'project_type', false],
          [ID.runners.paused, 'instance_type', true],
        ]);
        const docker = await get('/runners/all?tag_list=docker');
        expect(docker.body.map((r: { id: number }) => r.id).sort()).toEqual([ID.runners.instance, ID.runners.group]);
        for (const id of old) {
          const runner = await get(`/runners/${id}`);
          expect([...runner.body.tag_list].sort(), `runner ${id}`).toEqual(UPGRADE_RUNNER_TAGS[id]);
          const managers = await get(`/runners/${id}/managers`);
          expect(managers.body.map((m: { system_id: string }) => m.system_id).sort(), `runner ${id}`).toEqual(UPGRADE_RUNNER_MANAGERS[id]);
        }
        expect((await get(`/runners/${ID.runners.group}`)).body.groups.map((g: { id: number }) => g.id)).toEqual([ID.groups.platform]);
        expect((await get(`/runners/${ID.runners.project}`)).body.projects.map((p: { id: number }) => p.id).sort()).toEqual([
          ID.projects.api,
          ID.projects.pipelines,
        ]);
        const jobs = await get(`/runners/${ID.runners.instance}/jobs`);
        expect(jobs.body.map((j: { id: number }) => j.id).sort()).toEqual([1, 2]);
      });

      it('verifies the old runner authentication tokens, and removes an old manager by the runner’s token', async () => {
        for (const [kind, token] of Object.entries(S.runnerTokens)) {
          const verified = await call('POST', '/runners/verify', { json: { token, system_id: `s_after_upgrade_${kind}` } });
          expect(verified.status, kind).toBe(200);
          expect(verified.body.id).toBe(ID.runners[kind as keyof typeof ID.runners]);
        }
        expect((await call('POST', '/runners/verify', { json: { token: 't1_notAFixtureToken0000' } })).status).toBe(403);
        // 20261206223000's trigger announces the removal of a manager row the previous release wrote.
        const [removed] = UPGRADE_RUNNER_MANAGERS[ID.runners.group];
        expect((await call('DELETE', '/runners/managers', { json: { token: S.runnerTokens.group, system_id: removed } })).status).toBe(204);
        const left = await get(`/runners/${ID.runners.group}/managers`);
        expect(left.body.map((m: { system_id: string }) => m.system_id)).toEqual(['s_after_upgrade_group']);
      });

      it('registers a runner with the old instance registration token, under a new id', async () => {
        const registered = await call('POST', '/runners', { json: { token: S.registrationTokens.instance, description: 'after-upgrade', tag_list: 'linux' } });
        expect(registered.status, registered.text).toBe(201);
        expect(registered.body.id).toBeGreaterThan(Math.max(...Object.values(ID.runners)));
        expect((await call('POST', '/runners/verify', { json: { token: registered.body.token } })).status).toBe(200);
        expect((await get(`/runners/${registered.body.id}`)).body.tag_list).toEqual(['linux']);
      });

      it('lists the old merge request’s context commits, to a developer of its group', async () => {
        const { projectId, iid } = ID.mergeRequest;
        const listed = await get(`/projects/${projectId}/merge_requests/${iid}/context_commits`, S.personalAccessTokens.alice);
        expect(listed.status).toBe(200);
        expect(listed.body.map((c: { id: string }) => c.id)).toEqual(UPGRADE_CONTEXT_COMMITS);
      });

      it('keeps the old memberships and shares: the group shared with partners opens to their owner', async () => {
        const members = await get(`/groups/${ID.groups.platform}/members`);
        expect(members.body.map((m: { username: string; access_level: number }) => [m.username, m.access_level]).sort()).toEqual([
          ['alice', 30],
          ['root', 50],
        ]);
        const group = await get(`/groups/${ID.groups.platform}`, S.personalAccessTokens.carol);
        expect(group.status).toBe(200);
        expect(group.body.shared_with_groups).toMatchObject([{ group_id: ID.groups.partners, group_access_level: 30 }]);
        expect((await get(`/projects/${ID.projects.pipelines}`, S.personalAccessTokens.carol)).status).toBe(200);
        expect((await get(`/projects/${ID.projects.api}`, S.personalAccessTokens.carol)).status).toBe(200);
      });

      it('shows the old audit events beside the new ones', async () => {
        const events = await get('/audit_events?per_page=100');
        expect(events.status).toBe(200);
        const old = events.body.filter((e: { id: number }) => e.id <= 3).map((e: { id: number; event_name: string }) => [e.id, e.event_name]);
        expect(old.sort()).toEqual([
          [1, 'ci_runner_created'],
          [2, 'ci_runner_created'],
          [3, 'user_access_locked'],
        ]);
      });
    });
  },
);
