// One Runway for the e2e run, started exactly as the API tests start theirs: a fresh database (PostgreSQL
// in DATABASE_URL, else embedded PGlite) and `runway start` on a free port, stopped at the end.
import type { FullConfig } from '@playwright/test';
import { overrideEnv } from '../../tests/support/test-overrides.mjs';
import { freshDatabase } from '../../tests/support/database';
import { freePort, runwayEnv, startServer, stopServer } from '../../tests/support/server';

export default async function globalSetup(_config: FullConfig) {
  const [port, dbPort] = [await freePort(), await freePort()];
  const database = await freshDatabase(`runway_test_e2e_${process.pid}`, dbPort);
  const baseUrl = `http://127.0.0.1:${port}`;
  // Local imports let specs seed repositories built with git (tests/fixtures/git-repos.ts), as the API tests do.
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: baseUrl, ...overrideEnv('e2e') });
  const server = await startServer(port, env);
  process.env.RUNWAY_E2E_BASE_URL = baseUrl;
  // Specs that must age rows (a runner last contacted months ago) reach the database directly.
  process.env.RUNWAY_E2E_DATABASE_URL = database.inspectUrl;
  // A spec may start a second Runway on the same PostgreSQL database (e2e/runners-live.spec.ts).
  if (database.env.DATABASE_URL) process.env.RUNWAY_E2E_SERVER_DATABASE_URL = database.env.DATABASE_URL;
  return async () => {
    await stopServer(server);
    await database.drop();
  };
}
