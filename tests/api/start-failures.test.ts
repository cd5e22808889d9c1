// A start that cannot serve fails at once, non-zero, and says why in a JSON line, so a supervisor
// (systemd's Restart=on-failure, Kubernetes) sees the failure: a port another process holds, and a
// migration lock another session keeps (logged with its holder while waiting, then given up on).
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY } from '../../lib/db/migrations';
import { needsServer } from '../../lib/db/test-server';
import { freshDatabase, type TestDatabase } from '../support/database';
import { freePort, ROOT, runwayEnv, startServer, stopServer } from '../support/server';

/** `runway start` run to its end: exit code, JSON lines (stdout and stderr), and how long it took. */
function runStart(
  env: NodeJS.ProcessEnv,
  port: number,
  limitMs: number,
): Promise<{ code: number | null; lines: Record<string, unknown>[]; ms: number; text: string }> {
  const began = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'runway.mjs'), 'start'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (d) => (text += d));
  child.stderr.on('data', (d) => (text += d));
  // Past the limit the process is still up: the defect itself. Killed, so the test ends and says so.
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      const lines = text
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, lines, ms: Date.now() - began, text });
    }),
  );
}

describe(
  '[OPS] a start that cannot serve exits non-zero at once',
  { ...needsServer('two processes on one database, and a PostgreSQL advisory lock'), timeout: 480_000 },
  () => {
    let database: TestDatabase;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      database = await freshDatabase(`runway_test_start_failures_${process.pid}`, await freePort());
      env = runwayEnv({ ...database.env, RUNWAY_LOG_LEVEL: 'info' });
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('exits 1 with a JSON line naming the port when another instance holds it', async () => {
      const port = await freePort();
      const first = await startServer(port, { ...env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}` });
      try {
        // Before, the second logged an uncaughtException and stayed up without a listener (until killed here).
        const second = await runStart({ ...env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}` }, port, 150_000);
        expect(second.code, second.text).toBe(1);
        const failed = second.lines.find((l) => l.msg === 'start failed');
        expect(failed, second.text).toMatchObject({ level: 'error', code: 'EADDRINUSE' });
        expect(String(failed!.error)).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
        // The first instance still serves.
        expect((await fetch(`http://127.0.0.1:${port}/-/readiness`)).status).toBe(200);
      } finally {
        await stopServer(first);
      }
    });

    it('says who holds the migration lock while it waits, and gives up after RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS', async () => {
      const holder = new pg.Client({ connectionString: database.inspectUrl, application_name: 'lock-holder-of-the-test' });
      await holder.connect();
      try {
        const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const port = await freePort();
        // 12 s rather than the default 300 s: long enough for a second "waiting" line (every 10 s), short for a test.
        const run = await runStart({ ...env, RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS: '12' }, port, 120_000);
        expect(run.code, run.text).toBe(1);
        const waiting = run.lines.filter((l) => l.msg === 'waiting for the migration lock');
        expect(waiting.length, run.text).toBeGreaterThanOrEqual(2);
        expect(waiting[0]).toMatchObject({ level: 'warn', holder_pid: pid, holder_application_name: 'lock-holder-of-the-test', timeout_seconds: 12 });
        const failed = run.lines.find((l) => l.msg === 'start failed');
        expect(String(failed?.error), run.text).toContain(
          `gave up waiting for the migration lock after 12 s (RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS): held by PostgreSQL backend ${pid}`,
        );
        expect(run.ms).toBeGreaterThanOrEqual(12_000);
      } finally {
        await holder.end();
      }
    });
  },
);
