// Warm-up before readiness (lib/server/warm-up): a started instance asks itself for the routes hit first,
// and only then does /-/readiness pass, so a load balancer sends it no one before its code is loaded.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { freshDatabase, type TestDatabase } from '../support/database';
import { freePort, runwayEnv, startServer, stopServer } from '../support/server';
import { WARM_UP_PATHS } from '@/lib/server/warm-up';

interface LogLine {
  msg?: string;
  path?: string;
  status?: number;
  correlation_id?: string;
  routes?: { path: string; status: number; ms: number }[];
}

describe('[OPS] warm-up before readiness', () => {
  let database: TestDatabase | undefined;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server) await stopServer(server);
    await database?.drop();
  });

  it('requests the first routes from itself, then passes readiness', async () => {
    const port = await freePort();
    database = await freshDatabase(`runway_test_warm_up_${process.pid}`, await freePort());
    let output = '';
    server = await startServer(port, runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: `http://127.0.0.1:${port}`, RUNWAY_LOG_LEVEL: 'info' }), {
      onOutput: (text) => (output += text),
    });
    const parse = () =>
      output
        .split('\n')
        .filter((l) => l.startsWith('{') && l.endsWith('}'))
        .map((l) => JSON.parse(l) as LogLine);
    // startServer returned once /-/readiness answered 200: by then the warm-up had finished and said so (its
    // line, written to a pipe, may reach us a moment after the probe's answer).
    await expect.poll(() => parse().some((l) => l.msg === 'routes warmed up'), { timeout: 2_000 }).toBe(true);
    const atReady = parse();
    const warmed = atReady.find((l) => l.msg === 'routes warmed up');
    expect(warmed?.routes?.map((r) => r.path)).toEqual(WARM_UP_PATHS);
    // Each route answered (a refusal or a redirect is fine: its code ran), none failed.
    for (const route of warmed!.routes!) {
      expect(route.status, route.path).toBeGreaterThanOrEqual(200);
      expect(route.status, route.path).toBeLessThan(500);
    }
    // The warm-up's own requests are kept out of the request log (and the request metrics): they are not
    // anyone's traffic. Probes from allowed addresses are left out too (tests/api/monitoring.test.ts).
    expect(atReady.filter((l) => typeof l.correlation_id === 'string' && l.correlation_id.startsWith('warm-up'))).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${port}/-/readiness`)).status).toBe(200);
  });
});
