// `runway doctor` against a real PostgreSQL server: what it finds wrong (a pooler without the direct URL, a
// secret file others may read, no secret at all, a data folder every user may open, a proxy that is not
// trusted or sends no X-Forwarded-For) and the fix it prints, and a clean bill when the setup is right.
// A TCP relay on another port stands in for PgBouncer: the server then reports a port the URL does not name.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { diagnose, type Finding } from '../../bin/doctor';
import { freePort, ROOT, runwayEnv } from '../support/server';

/** The CLI, run without blocking this process: the relay standing in for the pooler lives here. */
function cliAsync(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), ...args], { env, cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
  });
}

const serverUrl = process.env.DATABASE_URL;
const NAME = `runway_test_doctor_${process.pid}`;
const SETTINGS = [
  'DATABASE_URL',
  'RUNWAY_DATABASE_DIRECT_URL',
  'RUNWAY_SECRET',
  'RUNWAY_SECRET_FILE',
  'NEXTAUTH_SECRET',
  'RUNWAY_DATA_DIR',
  'RUNWAY_TRUSTED_PROXIES',
  'NODE_ENV',
];

describe.skipIf(!serverUrl)('[OPS] runway doctor', { timeout: 180_000 }, () => {
  const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));
  const work = mkdtempSync(path.join(os.tmpdir(), 'runway-doctor-'));
  let url: string;
  let relay: net.Server;
  let relayed: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${NAME}"`);
    await admin.end();
    const u = new URL(serverUrl!);
    u.pathname = `/${NAME}`;
    url = u.toString();
    // Only the columns the doctor reads: the addresses sign-ins and audit events recorded.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`CREATE TABLE user_sessions (ip text, user_id int, created_at timestamptz DEFAULT now());
                   CREATE TABLE audit_events (ip_address text, author_id int, created_at timestamptz DEFAULT now())`);
    await c.end();
    const port = await freePort();
    relay = net.createServer((inbound) => {
      const outbound = net.connect(Number(u.port || 5432), u.hostname);
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
    const r = new URL(url);
    r.hostname = '127.0.0.1';
    r.port = String(port);
    relayed = r.toString();
  });

  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  afterAll(async () => {
    relay?.close();
    rmSync(work, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  function setup(settings: Record<string, string>) {
    for (const k of SETTINGS) delete process.env[k];
    Object.assign(process.env, settings);
  }
  const secretFile = (mode: number) => {
    const file = path.join(work, `secret-${mode.toString(8)}`);
    writeFileSync(file, 'doctor-secret-0123456789abcdef0123456789abcdef\n');
    chmodSync(file, mode);
    return file;
  };
  const dataFolder = (mode: number) => {
    const dir = path.join(work, `data-${mode.toString(8)}`);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, mode);
    return dir;
  };
  const find = (findings: Finding[], check: string) => findings.filter((f) => f.check === check);
  const failures = (findings: Finding[]) => findings.filter((f) => f.verdict === 'fail');

  it('passes a correct setup: direct URL, secret file 0600, private data folder', async () => {
    setup({ DATABASE_URL: url, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700), NODE_ENV: 'production' });
    const findings = await diagnose();
    expect(failures(findings)).toEqual([]);
    expect(find(findings, 'database')[0].verdict).toBe('ok');
    expect(find(findings, 'pooler')).toEqual([]);
    // The scratch database has no migrations applied: said, with the command that applies them.
    expect(find(findings, 'migrations')[0]).toMatchObject({ verdict: 'warn', fix: expect.stringContaining('runway migrate') });
  });

  it('fails a pooled DATABASE_URL without RUNWAY_DATABASE_DIRECT_URL, and accepts it with one', async () => {
    setup({ DATABASE_URL: relayed, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700) });
    const without = await diagnose();
    expect(find(without, 'pooler')[0]).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('RUNWAY_DATABASE_DIRECT_URL') });
    setup({ DATABASE_URL: relayed, RUNWAY_DATABASE_DIRECT_URL: url, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700) });
    const withDirect = await diagnose();
    expect(failures(withDirect)).toEqual([]);
    expect(find(withDirect, 'direct URL')[0].verdict).toBe('ok');
    // A "direct" URL that is the pooler's again is no direct URL.
    setup({ DATABASE_URL: relayed, RUNWAY_DATABASE_DIRECT_URL: relayed, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700) });
    expect(find(await diagnose(), 'direct URL')[0].verdict).toBe('fail');
  });

  it('fails an unreachable database with the fix, and checks nothing that needs it', async () => {
    const closed = await freePort();
    setup({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${closed}/runway`, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700) });
    const findings = await diagnose();
    expect(find(findings, 'database')[0]).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('DATABASE_URL') });
    expect(find(findings, 'migrations')).toEqual([]);
  });

  it("warns about a secret file others may read and a data folder every user may open; fails production's missing secret", async () => {
    setup({ DATABASE_URL: url, RUNWAY_SECRET_FILE: secretFile(0o644), RUNWAY_DATA_DIR: dataFolder(0o755) });
    const loose = await diagnose();
    expect(find(loose, 'secret')[0]).toMatchObject({ verdict: 'warn', fix: expect.stringContaining('chmod 600') });
    expect(find(loose, 'data folder')[0]).toMatchObject({ verdict: 'warn', fix: expect.stringContaining('chmod 700') });
    setup({ DATABASE_URL: url, RUNWAY_DATA_DIR: dataFolder(0o700), NODE_ENV: 'production' });
    expect(find(await diagnose(), 'secret')[0]).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('RUNWAY_SECRET_FILE') });
  });

  it('compares the recorded client addresses with the trusted proxies', async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`INSERT INTO user_sessions (ip, user_id) VALUES ('10.1.2.3', 1), ('10.1.2.3', 2), ('10.1.2.3', 3)`);
    await c.end();
    // Everyone signs in "from" the proxy: it is not trusted.
    setup({ DATABASE_URL: url, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700) });
    expect(find(await diagnose(), 'trusted proxies')[0]).toMatchObject({ verdict: 'warn', fix: 'RUNWAY_TRUSTED_PROXIES=10.1.2.3 (if that is your proxy)' });
    // Trusted, yet its own address is what Runway recorded: it sends no X-Forwarded-For.
    setup({ DATABASE_URL: url, RUNWAY_SECRET_FILE: secretFile(0o600), RUNWAY_DATA_DIR: dataFolder(0o700), RUNWAY_TRUSTED_PROXIES: '10.1.2.0/24' });
    expect(find(await diagnose(), 'trusted proxies')[0]).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('X-Forwarded-For') });
  });

  it('exits 1 and prints each problem with its fix, reading the settings file it is given', async () => {
    const file = path.join(work, 'runway.env');
    writeFileSync(file, `DATABASE_URL=${relayed}\nRUNWAY_SECRET_FILE=${secretFile(0o600)}\nRUNWAY_DATA_DIR=${dataFolder(0o700)}\n`);
    const env = runwayEnv({});
    // The file is the configuration under test: nothing of the suite's own environment may override it.
    for (const k of SETTINGS) delete env[k];
    const r = await cliAsync(['--config', file, 'doctor'], env);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`ok    settings file: ${file}`);
    expect(r.stdout).toMatch(/FAIL {2}pooler: .*\n {6}fix: set RUNWAY_DATABASE_DIRECT_URL/);
    expect(r.stdout).toMatch(/1 problem\(s\) to fix/);
  });
});
