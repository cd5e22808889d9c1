// The `runway` user and token commands against the test database. With the embedded database the
// running server owns the data folder, so these cases need an external PostgreSQL (DATABASE_URL).
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { api, uniq } from '../support/api';
import { cli } from '../support/server';

const external = !!process.env.DATABASE_URL;
const reason = 'needs DATABASE_URL: the embedded database is owned by the running server';
const run = (args: string[]) => cli(args, { ...process.env, ...inject('runwayEnv') });

async function passwordDigest(username: string): Promise<string> {
  const client = new pg.Client({ connectionString: inject('inspectUrl') });
  await client.connect();
  try {
    const r = await client.query<{ password_digest: string }>('SELECT password_digest FROM users WHERE username = $1', [username]);
    return r.rows[0].password_digest;
  } finally {
    await client.end();
  }
}

// Each CLI run transpiles the sources and checks migrations: seconds, not milliseconds.
describe.skipIf(!external)(`[PLATFORM] runway CLI (${external ? 'external PostgreSQL' : reason})`, { timeout: 180_000 }, () => {
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

describe.skipIf(external)('[PLATFORM] runway CLI on the embedded database', { timeout: 180_000 }, () => {
  it('refuses to open the data folder the running server owns, with a clear message', () => {
    const res = run(['create-token', '--username', 'root', '--scopes', 'api']);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/the embedded database .* is in use by another Runway process \(pid \d+\); stop it, or set DATABASE_URL/);
  });
});
