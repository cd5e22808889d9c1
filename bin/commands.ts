// The commands of `runway`. Each one that touches data opens the database, works, and closes it.
import { readEnv } from '../lib/config/env';
import { disconnectDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrations';
import { resolveDatabase, useDatabase } from '../lib/server/database';
import { parseFlags } from './args';

export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** Opens the configured database (starting the embedded one if needed), migrated, for one command. */
export async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
  const database = await resolveDatabase();
  useDatabase(database);
  try {
    await applyMigrations(database.url, { lock: !database.embedded });
    return await fn();
  } finally {
    await disconnectDb();
    await database.stop();
  }
}

export const commands: Record<string, Command> = {
  start: {
    summary: 'migrate, bootstrap and serve Runway',
    usage: '[--dev]',
    async run(argv) {
      const flags = parseFlags(argv, { dev: 'boolean' });
      const { start } = await import('../lib/server/start');
      await start({ dev: flags.dev === true });
      return await new Promise<number>(() => undefined); // serves until a signal stops the process
    },
  },
  migrate: {
    summary: 'apply pending database migrations',
    usage: '',
    async run(argv) {
      parseFlags(argv, {});
      const database = await resolveDatabase();
      try {
        const applied = await applyMigrations(database.url, { lock: !database.embedded });
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
        return 0;
      } finally {
        await database.stop();
      }
    },
  },
  seed: {
    summary: 'create root (if missing) and the demo data; safe to run again',
    usage: '',
    async run(argv) {
      parseFlags(argv, {});
      readEnv();
      return withDatabase(async () => {
        const { bootstrap } = await import('../lib/server/bootstrap');
        const { seedDemo } = await import('../lib/seed/demo');
        const boot = await bootstrap();
        if (boot.generatedRootPassword) console.error(`root password (shown once): ${boot.generatedRootPassword}`);
        await seedDemo();
        console.log('demo data is in place');
        return 0;
      });
    },
  },
};
