// Graceful shutdown: on SIGTERM readiness fails at once and the instance keeps serving through the blackout
// (RUNWAY_SHUTDOWN_BLACKOUT_SECONDS); from its middle, held runner polls are answered 204 with
// X-GitLab-Last-Update and no new one is held; then event streams end with a retry hint, and the process exits 0. A second signal exits at once.
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, probe, runwayEnv, startServer, stopServer } from '../support/server';

interface Started {
  server: ChildProcess;
  base: string;
  port: number;
  token: string;
  logs: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

describe('[OPS] graceful drain', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const done of cleanup.splice(0)) await done();
  });

  async function start(blackoutSeconds: number): Promise<Started> {
    const database: TestDatabase = await freshDatabase(`runway_test_drain_${process.pid}_${cleanup.length}`, await freePort());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = runwayEnv({
      ...database.env,
      RUNWAY_EXTERNAL_URL: base,
      RUNWAY_LOG_LEVEL: 'info',
      RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: String(blackoutSeconds),
      // Long enough that only the shutdown can answer a held poll within the test.
      RUNWAY_LONG_POLLING_SECONDS: '120',
    });
    const made = cli(['create-token', '--username', 'root', '--scopes', 'api', '--name', 'drain'], env);
    expect(made.status, made.stderr).toBe(0);
    const server = await startServer(port, env);
    const logs: string[] = [];
    server.stdout?.on('data', (d: Buffer) => logs.push(...d.toString().split('\n').filter(Boolean)));
    server.stderr?.on('data', (d: Buffer) => logs.push(...d.toString().split('\n').filter(Boolean)));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => server.once('exit', (code) => resolve({ code, at: Date.now() })));
    cleanup.push(async () => {
      await stopServer(server);
      await database.drop();
    });
    return { server, base, port, token: made.stdout.trim(), logs, exited };
  }

  it('fails readiness at once, serves through the blackout, then answers held polls, ends streams and exits 0', async () => {
    const blackout = 3;
    const s = await start(blackout);
    const headers = { 'PRIVATE-TOKEN': s.token, 'Content-Type': 'application/json' };
    const runner = (await (
      await fetch(`${s.base}/api/v4/user/runners`, { method: 'POST', headers, body: JSON.stringify({ runner_type: 'instance_type' }) })
    ).json()) as {
      token: string;
    };
    const poll = (lastUpdate?: string) =>
      fetch(`${s.base}/api/v4/jobs/request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: runner.token, last_update: lastUpdate }),
      });
    const value = (await poll()).headers.get('x-gitlab-last-update')!;
    const held = poll(value).then((res) => ({ res, at: Date.now() }));
    const stream = await fetch(`${s.base}/api/v4/runners/events`, { headers: { 'PRIVATE-TOKEN': s.token } });
    expect(stream.status).toBe(200);
    const streamText = (async () => {
      let text = '';
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
      return { text, at: Date.now() };
    })();
    await expect.poll(async () => /^runway_runner_polls_held 1$/m.test(await (await fetch(`${s.base}/-/metrics`)).text()), { timeout: 5_000 }).toBe(true);

    const signalled = Date.now();
    s.server.kill('SIGTERM');
    await expect.poll(() => probe(s.port, '/-/readiness'), { timeout: 2_000, interval: 20 }).toBe(503);
    const ready = await fetch(`${s.base}/-/readiness`);
    expect(await ready.json()).toEqual({ status: 'failed', master_check: [{ status: 'failed', message: 'shutting down' }] });
    expect(ready.headers.get('x-gitlab-custom-error')).toBe('1');
    // Still serving during the blackout: liveness, the API, new connections.
    expect((await fetch(`${s.base}/-/liveness`)).status).toBe(200);
    expect((await fetch(`${s.base}/api/v4/version`, { headers })).status).toBe(200);

    const { res, at } = await held;
    expect(res.status).toBe(204);
    expect(res.headers.get('x-gitlab-last-update')).toBe(value);
    // Answered in the blackout's second half, not before (the load balancer had that long to stop sending).
    expect(at - signalled).toBeGreaterThanOrEqual(blackout * 500 - 200);
    expect(at - signalled).toBeLessThan(blackout * 1000 + 500);
    // From then on a poll is not held: its runner polls again elsewhere.
    const late = Date.now();
    const again = await poll(value);
    expect(again.status).toBe(204);
    expect(Date.now() - late).toBeLessThan(1_000);
    const ended = await streamText;
    expect(ended.text.startsWith('retry: 2000\n')).toBe(true);
    expect(ended.text.endsWith('retry: 2000\n\n')).toBe(true);
    expect(ended.at - signalled).toBeGreaterThanOrEqual(blackout * 1000 - 200);

    const exit = await s.exited;
    expect(exit.code).toBe(0);
    // After the blackout the instance accepts no connections.
    expect(await probe(s.port, '/-/liveness')).toBe(0);
    const phases = s.logs.filter((l) => l.includes('"msg":"shutdown')).map((l) => JSON.parse(l).msg);
    expect(phases).toEqual([
      'shutdown: draining, readiness fails',
      'shutdown: answering held polls',
      'shutdown: closing',
      'shutdown: requests and background job finished',
      'shutdown: complete',
    ]);
    expect(JSON.parse(s.logs.find((l) => l.includes('"shutdown: answering held polls"'))!)).toMatchObject({ held_polls: 1, over_s: blackout / 2 });
    expect(JSON.parse(s.logs.find((l) => l.includes('"shutdown: closing"'))!)).toMatchObject({ held_polls: 0, event_streams: 1 });
  }, 120_000);

  it('exits at once on a second signal', async () => {
    const s = await start(60);
    s.server.kill('SIGINT');
    await expect.poll(() => probe(s.port, '/-/readiness'), { timeout: 2_000, interval: 20 }).toBe(503);
    const second = Date.now();
    s.server.kill('SIGTERM');
    const exit = await s.exited;
    expect(exit.code).toBe(1);
    expect(exit.at - second).toBeLessThan(5_000);
    expect(s.logs.some((l) => l.includes('shutdown: second signal, exiting at once'))).toBe(true);
  }, 120_000);
});
