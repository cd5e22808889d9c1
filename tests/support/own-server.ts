// A Runway of a test file's own, on a fresh database, for settings the suite's server does not have: the
// database, the server on a free port with `settings`, and a root token with `scopes`.
import type { ChildProcess } from 'node:child_process';
import { freshDatabase, type TestDatabase } from './database';
import { cli, freePort, runwayEnv, startServer, stopServer } from './server';

export interface OwnServer {
  base: string;
  env: NodeJS.ProcessEnv;
  rootToken: string;
  database: TestDatabase;
  server: ChildProcess;
  stop(): Promise<void>;
}

export async function ownServer(name: string, settings: Record<string, string>, scopes = 'api'): Promise<OwnServer> {
  const [port, dbPort] = [await freePort(), await freePort()];
  const database = await freshDatabase(`runway_test_${name}_${process.pid}`, dbPort);
  const base = `http://127.0.0.1:${port}`;
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base, ...settings });
  const made = cli(['create-token', '--username', 'root', '--scopes', scopes, '--name', name], env);
  if (made.status !== 0) throw new Error(`create-token failed: ${made.stderr}`);
  const server = await startServer(port, env);
  return {
    base,
    env,
    rootToken: made.stdout.trim(),
    database,
    server,
    async stop() {
      await stopServer(server);
      await database.drop();
    },
  };
}
