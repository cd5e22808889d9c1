// One Runway for the whole API test run: a fresh database, a root token made with the CLI, a server.
import type { TestProject } from 'vitest/node';
import { overrideEnv } from './test-overrides.mjs';
import { freshDatabase } from './database';
import { cli, freePort, runwayEnv, startServer, stopServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    rootToken: string;
    inspectUrl: string;
    runwayEnv: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const [port, dbPort] = [await freePort(), await freePort()];
  const database = await freshDatabase(`runway_test_api_${process.pid}`, dbPort);
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: baseUrl, ...overrideEnv('api') });
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api,sudo', '--name', 'api-tests'], env);
  if (made.status !== 0) throw new Error(`create-token failed: ${made.stderr}`);
  const server = await startServer(port, env);
  project.provide('baseUrl', baseUrl);
  project.provide('rootToken', made.stdout.trim());
  project.provide('inspectUrl', database.inspectUrl);
  project.provide(
    'runwayEnv',
    Object.fromEntries(
      Object.entries(env).filter(([k]) => k.startsWith('RUNWAY_') || k === 'DATABASE_URL' || k === 'NEXTAUTH_SECRET' || k === 'INITIAL_ROOT_PASSWORD'),
    ) as Record<string, string>,
  );
  return async () => {
    await stopServer(server);
    await database.drop();
  };
}
