// The `runway` user and token commands against the test database, while the test server runs on it: on
// a PostgreSQL server they connect to it, on the embedded database they work through the running server.
// The last suite runs its own server on a fresh embedded database, to use the CLI with it up and down.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, uniq } from '../support/api';
import { cli, freePort, ROOT, ROOT_PASSWORD, runwayEnv, startServer, stopServer } from '../support/server';
import { signIn } from '../support/users';
import pkg from '../../package.json';

const external = !!process.env.DATABASE_URL;
const run = (args: string[]) => cli(args, { ...process.env, ...inject('runwayEnv') });

async function passwordDigest(username: string, url = inject('inspectUrl')): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ password_digest: string }>('SELECT password_digest FROM users WHERE username = $1', [username]);
    return r.rows[0].password_digest;
  } finally {
    await client.end();
  }
}

describe('[PLATFORM] runway --version', { timeout: 60_000 }, () => {
  it("prints Runway's version and the git revision, even when the configuration is invalid", () => {
    for (const args of [['--version'], ['version']]) {
      const r = cli(args, { ...process.env, PORT: 'not-a-port' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Version: +${pkg.version.replace(/\./g, '\\.')}\nGit revision: +([0-9a-f]{12}(-dirty)?|unknown)\n`));
    }
    // Every other command validates the configuration first.
    const bad = cli(['migrate'], { ...process.env, PORT: 'not-a-port' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('PORT');
  });
});

// Each CLI run transpiles the sources and checks migrations: seconds, not milliseconds.
describe(`[PLATFORM] runway CLI next to the running server (${external ? 'PostgreSQL server' : 'embedded database'})`, { timeout: 180_000 }, () => {
  it('create-user creates a user the API can see, and refuses a taken email', async () => {
    const username = uniq('cli');
    const made = run(['create-user', '--username', username, '--email', `${username}@example.com`, '--name', 'CLI User', '--password', 'cli-password-1']);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(new RegExp(`^created user ${username} \\(id \\d+\\)\\n$`));
    const again = run(['create-user', '--username', `${username}x`, '--email', `${username}@example.com`, '--password', 'cli-password-1']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('email has already been taken');
  });

  it('create-user exits 2 with a clear message on bad arguments', () => {
    const missing = run(['create-user', '--username', 'someone', '--password', 'cli-password-1']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--email is required');
    const unknown = run(['create-user', '--username', 'x', '--email', 'x@example.com', '--password', 'p-p-p-p-p', '--colour', 'red']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown option: --colour');
  });

  it('create-token prints only the token, which then authenticates', async () => {
    const username = uniq('clitok');
    expect(run(['create-user', '--username', username, '--email', `${username}@example.com`, '--password', 'cli-password-1']).status).toBe(0);
    const made = run(['create-token', '--username', username, '--scopes', 'read_api,read_user', '--name', 'from-cli']);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^glpat-[A-Za-z0-9_-]{20}\n$/);
    const token = made.stdout.trim();
    const me = await api('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(username);
    const self = await api('GET', '/personal_access_tokens/self', { token });
    expect(self.body).toMatchObject({ name: 'from-cli', scopes: ['read_api', 'read_user'] });
  });

  it('create-token exits 2 on bad arguments and 1 for an unknown user', () => {
    const noScopes = run(['create-token', '--username', 'root']);
    expect(noScopes.status).toBe(2);
    expect(noScopes.stderr).toContain('--scopes is required');
    expect(noScopes.stdout).toBe('');
    const badDate = run(['create-token', '--username', 'root', '--scopes', 'api', '--expires-at', 'tomorrow']);
    expect(badDate.status).toBe(2);
    expect(badDate.stderr).toContain('--expires-at must be YYYY-MM-DD');
    const stray = run(['create-token', 'root']);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain('unexpected argument: root');
    const badScope = run(['create-token', '--username', 'root', '--scopes', 'api,not_a_scope']);
    expect(badScope.status).toBe(2);
    expect(badScope.stderr).toContain('unknown scopes: not_a_scope');
    expect(badScope.stdout).toBe('');

    const nobody = run(['create-token', '--username', 'no_such_user_anywhere', '--scopes', 'api']);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toContain('no user named no_such_user_anywhere');
    expect(nobody.stdout).toBe('');
  });

  it('reset-password replaces the stored digest; short passwords and unknown users fail', async () => {
    const username = uniq('clipw');
    expect(run(['create-user', '--username', username, '--email', `${username}@example.com`, '--password', 'cli-password-1']).status).toBe(0);
    const before = await passwordDigest(username);
    const reset = run(['reset-password', '--username', username, '--password', 'another-password-2']);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout).toBe(`password of ${username} updated\n`);
    const after = await passwordDigest(username);
    expect(after).not.toBe(before);
    expect(after).toMatch(/^\$argon2id\$/);
    expect(after).not.toContain('another-password-2');
    const short = run(['reset-password', '--username', username, '--password', 'short']);
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('at least 8 characters');
    const nobody = run(['reset-password', '--username', 'no_such_user_anywhere', '--password', 'another-password-2']);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toContain('no user named no_such_user_anywhere');
  });
});

describe('[PLATFORM] runway CLI on an embedded database, with its server up and down', { timeout: 300_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let base: string;
  let port: number;
  let dbPort: number;
  const lock = () => path.join(dir, 'pgdata.lock');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'runway-cli-embedded-'));
    // A data folder others may list, as /var/lib/runway often is: what keeps them out is Runway's own modes.
    chmodSync(dir, 0o755);
    [port, dbPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    // DATABASE_URL empty: the embedded database even when the test run uses a PostgreSQL server.
    env = runwayEnv({ DATABASE_URL: '', RUNWAY_DATA_DIR: dir, RUNWAY_EMBEDDED_DB_PORT: String(dbPort), RUNWAY_EXTERNAL_URL: base });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const whoAmI = async (token: string) => {
    const res = await fetch(`${base}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } });
    return { status: res.status, username: ((await res.json()) as { username?: string }).username };
  };

  it('with the server up, create-token and reset-password work through it, and the results hold over HTTP', async () => {
    const server = await startServer(port, env);
    try {
      // The server advertised its database socket in the data folder's lock file.
      const socket = path.join(dir, 'pgdata.sock');
      expect(JSON.parse(readFileSync(lock(), 'utf8'))).toEqual({ pid: server.pid, role: 'server', port: dbPort, socket });
      // PGlite checks no password: the socket's folder, the database's files and the lock file are the owner's
      // alone, and nothing listens on a loopback port any local user could reach (before: 127.0.0.1:<port>, 0644).
      expect(statSync(socket).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(dir, 'pgdata')).mode & 0o777).toBe(0o700);
      expect(statSync(lock()).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(socket, `.s.PGSQL.${dbPort}`)).isSocket()).toBe(true);
      const tcp = await new Promise<string>((resolve) => {
        const c = net.connect({ host: '127.0.0.1', port: dbPort }, () => (c.destroy(), resolve('connected')));
        c.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
      expect(tcp).toBe('ECONNREFUSED');
      if (process.getuid?.() === 0) {
        // Another local user (nobody) cannot reach the socket; the owner (here root) can, as psql does.
        const other = spawnSync(
          process.execPath,
          [
            '-e',
            `require('net').connect(${JSON.stringify(path.join(socket, `.s.PGSQL.${dbPort}`))}).on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(0) })`,
          ],
          { uid: 65534, gid: 65534, encoding: 'utf8', timeout: 30_000 },
        );
        expect(other.stdout.trim()).toBe('EACCES');
      }
      const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'while-up'], env);
      expect(made.status, made.stderr).toBe(0);
      expect(made.stdout).toMatch(/^glpat-[A-Za-z0-9_-]{20}\n$/);
      expect(await whoAmI(made.stdout.trim())).toEqual({ status: 200, username: 'root' });

      const before = await passwordDigest(
        'root',
        `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dir, 'pgdata.sock'))}&port=${dbPort}&sslmode=disable`,
      );
      const reset = cli(['reset-password', '--username', 'root', '--password', 'changed-while-up'], env);
      expect(reset.status, reset.stderr).toBe(0);
      expect(reset.stdout).toBe('password of root updated\n');
      expect(
        await passwordDigest(
          'root',
          `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dir, 'pgdata.sock'))}&port=${dbPort}&sslmode=disable`,
        ),
      ).not.toBe(before);
      await expect(signIn('root', 'changed-while-up', base)).resolves.toMatchObject({ cookie: expect.stringContaining('next-auth.session-token=') });
      await expect(signIn('root', ROOT_PASSWORD, base)).rejects.toThrow('sign-in failed');
      // The server still serves after the commands (they used its connection, not the data folder).
      expect(await whoAmI(made.stdout.trim())).toEqual({ status: 200, username: 'root' });
    } finally {
      await stopServer(server);
    }
  });

  it('with the server stopped, the same commands open the database themselves; the server then sees their work', async () => {
    expect(existsSync(lock())).toBe(false);
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'while-down'], env);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^glpat-[A-Za-z0-9_-]{20}\n$/);
    const reset = cli(['reset-password', '--username', 'root', '--password', 'changed-while-down'], env);
    expect(reset.status, reset.stderr).toBe(0);
    expect(existsSync(lock())).toBe(false); // each command released the folder

    const server = await startServer(port, env);
    try {
      expect(await whoAmI(made.stdout.trim())).toEqual({ status: 200, username: 'root' });
      await expect(signIn('root', 'changed-while-down', base)).resolves.toMatchObject({ cookie: expect.stringContaining('next-auth.session-token=') });
      // A second server on the same folder is refused: the commands, not a second server, share it.
      const second = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'start'], {
        env: { ...env, PORT: String(await freePort()) },
        encoding: 'utf8',
        timeout: 90_000, // were it to start, it would serve until killed
      });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(`is in use by another Runway process (pid ${server.pid})`);
    } finally {
      await stopServer(server);
    }
  });
});
