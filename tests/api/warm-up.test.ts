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
    const isReady = (l: LogLine) => l.path === '/-/readiness' && l.status === 200;
    // The probe that passed is logged once its answer is sent: its line may reach us a moment later.
    await expect.poll(() => parse().some(isReady)).toBe(true);
    const lines = parse();
    const warmed = lines.find((l) => l.msg === 'routes warmed up');
    expect(warmed?.routes?.map((r) => r.path)).toEqual(WARM_UP_PATHS);
    // Each route answered (a refusal or a redirect is fine: its code ran), none failed.
    for (const route of warmed!.routes!) {
      expect(route.status, route.path).toBeGreaterThanOrEqual(200);
      expect(route.status, route.path).toBeLessThan(500);
    }
    // The warm-up requests went through the whole request path, logged under their own request id...
    expect(lines.filter((l) => l.correlation_id === 'warm-up').map((l) => l.path)).toEqual(WARM_UP_PATHS);
    // ...and no readiness probe passed before they were done.
    expect(lines.findIndex(isReady)).toBeGreaterThan(lines.indexOf(warmed!));
  });
});
