// The commands of `runway`. Each one that touches data opens the database, works, and closes it; on the
// embedded database they work through a running Runway's connection when one holds the data folder.
import { readEnv } from '../lib/config/env';
import { disconnectDb } from '../lib/db/client';
import { applyMigrations } from '../lib/db/migrations';
import { resolveDatabase, publishDatabase } from '../lib/server/database';
import { parseFlags, requireFlag, UsageError } from './args';
import { isRowId } from '../lib/db/ids';

export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/**
 * Opens the configured database for one command, migrated and bootstrapped: a PostgreSQL server, the
 * embedded database through the running Runway that holds it (which migrated it when it started), or
 * else the embedded database itself. A generated root password goes to its file (lib/server/root-password),
 * and the file's path to stderr, so stdout stays clean for the command's output.
 */
export async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
  const database = await resolveDatabase({ attach: true });
  publishDatabase(database);
  try {
    if (!database.attachedTo) {
      await applyMigrations(database.directUrl, { lock: !database.embedded });
      const { bootstrap } = await import('../lib/server/bootstrap');
      const boot = await bootstrap();
      if (boot.generatedRootPassword) {
        const { storeRootPassword } = await import('../lib/server/announce');
        await storeRootPassword(boot.generatedRootPassword, (file) => console.error(`created root; its generated password is in ${file}`));
      }
    }
    return await fn();
  } finally {
    await disconnectDb();
    await database.stop();
  }
}

export const commands: Record<string, Command> = {
  start: {
    summary: 'migrate, bootstrap and serve Runway (--demo: with the demo data)',
    usage: '[--dev] [--demo]',
    async run(argv) {
      const flags = parseFlags(argv, { dev: 'boolean', demo: 'boolean' });
      // A flag rather than `RUNWAY_DEMO=true npm …`, which Windows shells cannot run.
      if (flags.demo) process.env.RUNWAY_DEMO ??= 'true';
      // The plain start message is for a person at a terminal; a production start logs JSON only, what
      // libraries print included.
      const banner = flags.dev === true || flags.demo === true;
      if (!banner) (await import('../lib/log/console-log')).consoleAsJson();
      // A demo or development server has no load balancer to leave: Ctrl-C stops it without the blackout.
      if (flags.demo || flags.dev) process.env.RUNWAY_SHUTDOWN_BLACKOUT_SECONDS ??= '0';
      // A person at a terminal reads text, and the start message (root's password with it) must not scroll away
      // under a line per request: those go to a file, unless the settings say otherwise.
      if (banner) {
        process.env.RUNWAY_LOG_FORMAT ??= 'text';
        process.env.RUNWAY_REQUEST_LOG ??= 'file';
      }
      const { start } = await import('../lib/server/start');
      try {
        await start({ dev: flags.dev === true, banner });
      } catch (err) {
        // A start that cannot serve (port taken, migration lock not obtained, database down) exits non-zero at
        // once, so a supervisor (systemd's Restart=on-failure, Kubernetes) sees it fail; open pools, the worker
        // and signal handlers would otherwise keep a process without a listener alive.
        const { log } = await import('../lib/log/log');
        log('error', 'start failed', { error: err instanceof Error ? err.message : String(err), code: (err as NodeJS.ErrnoException).code });
        process.exit(1);
      }
      return await new Promise<number>(() => undefined); // serves until a signal stops the process
    },
  },
  migrate: {
    summary: 'apply pending database migrations',
    usage: '',
    async run(argv) {
      parseFlags(argv, {});
      const database = await resolveDatabase({ attach: true });
      try {
        const applied = await applyMigrations(database.directUrl, { lock: !database.embedded });
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
        const { seedDemo } = await import('../lib/seed/demo');
        await seedDemo();
        console.log('demo data is in place');
        return 0;
      });
    },
  },
  'create-user': {
    summary: 'create a user (and its personal namespace)',
    usage: '--username U --email E --name N [--password P | password on stdin] [--admin]',
    async run(argv) {
      const f = parseFlags(argv, { username: 'string', email: 'string', name: 'string', password: 'string', admin: 'boolean' });
      const username = requireFlag(f, 'username');
      const email = requireFlag(f, 'email');
      const name = typeof f.name === 'string' ? f.name : username;
      const password = typeof f.password === 'string' ? f.password : await readSecretFromStdin('password');
      return withDatabase(async () => {
        const { db } = await import('../lib/db/client');
        const { insertUser, validateNewUser } = await import('../lib/users/service');
        const input = { username, email, name, password, admin: f.admin === true };
        const errors = await validateNewUser(input);
        if (Object.keys(errors).length) {
          for (const [k, msgs] of Object.entries(errors)) console.error(`${k} ${msgs.join(', ')}`);
          return 1;
        }
        const user = await db().$transaction((tx) => insertUser(tx, input));
        console.log(`created user ${user.username} (id ${user.id}${user.admin ? ', admin' : ''})`);
        return 0;
      });
    },
  },
  'create-token': {
    summary: 'create a personal access token; prints only the token',
    usage: '--username U --scopes a,b [--name N] [--expires-at YYYY-MM-DD]',
    async run(argv) {
      const f = parseFlags(argv, { username: 'string', scopes: 'string', name: 'string', 'expires-at': 'string' });
      const username = requireFlag(f, 'username');
      const scopes = requireFlag(f, 'scopes')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const { ALL_SCOPES } = await import('../lib/auth/scopes');
      const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
      if (!scopes.length || unknown.length) throw new UsageError(`unknown scopes: ${unknown.join(', ') || '(none given)'}; known: ${ALL_SCOPES.join(', ')}`);
      const expiresAt = typeof f['expires-at'] === 'string' ? f['expires-at'] : null;
      if (expiresAt && !/^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) throw new UsageError('--expires-at must be YYYY-MM-DD');
      return withDatabase(async () => {
        const { checkNewToken, insertToken } = await import('../lib/tokens/service');
        const user = await findUserOrFail(username);
        const token = { userId: user.id, name: typeof f.name === 'string' ? f.name : 'cli', scopes, expiresAt };
        const problem = checkNewToken(token, user);
        if (problem) {
          const why = {
            invalid_scopes: 'scopes must be a comma-separated list of known scopes',
            admin_scope: `only admins may hold the scopes ${problem.kind === 'admin_scope' ? problem.scopes.join(', ') : ''}`,
            expiry_in_past: '--expires-at must be after today',
            user_not_found: `no user named ${username}`,
          }[problem.kind];
          console.error(why);
          return 1;
        }
        const { value } = await insertToken(token);
        console.log(value);
        return 0;
      });
    },
  },
  'import-repo': {
    summary: 'import (or re-import) a git repository into a project now, without the queue',
    usage: '--project <id|full/path> --url <git url or local path>',
    async run(argv) {
      const f = parseFlags(argv, { project: 'string', url: 'string' });
      const ref = requireFlag(f, 'project');
      const url = requireFlag(f, 'url');
      return withDatabase(async () => {
        const { db } = await import('../lib/db/client');
        const { importNow } = await import('../lib/repositories/import-queue');
        const id = /^\d+$/.test(ref) ? Number(ref) : null;
        const project =
          id !== null ? (isRowId(id) ? await db().project.findUnique({ where: { id } }) : null) : await db().project.findUnique({ where: { fullPath: ref } });
        if (!project) throw new Error(`no project ${ref}`);
        try {
          const result = await importNow(project.id, url);
          console.log(`imported ${result.commits} commits and ${result.branches} branches into ${project.fullPath}`);
          return 0;
        } catch (err) {
          console.error(`import failed: ${err instanceof Error ? err.message : String(err)}`);
          return 1;
        }
      });
    },
  },
  'reset-password': {
    summary: "set a user's password (read from stdin unless --password is given)",
    usage: '--username U [--password P]',
    async run(argv) {
      const f = parseFlags(argv, { username: 'string', password: 'string' });
      const username = requireFlag(f, 'username');
      const password = typeof f.password === 'string' ? f.password : await readSecretFromStdin('new password');
      const { MIN_PASSWORD_LENGTH } = await import('../lib/auth/password');
      if (password.length < MIN_PASSWORD_LENGTH) throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
      return withDatabase(async () => {
        const { setPassword } = await import('../lib/users/service');
        const user = await findUserOrFail(username);
        await setPassword(user.id, password);
        console.log(`password of ${username} updated`);
        return 0;
      });
    },
  },
  backup: {
    summary: 'back up the database, the secret file and (embedded) the data folder into a new folder, files 0600',
    usage: '--to <folder>',
    async run(argv) {
      const f = parseFlags(argv, { to: 'string' });
      const target = requireFlag(f, 'to');
      const { backup } = await import('./backup');
      const manifest = await backup(target);
      console.log(`backed up Runway ${manifest.version} (${manifest.database}${manifest.secret ? ', secret file' : ''}) into ${target}`);
      return 0;
    },
  },
  restore: {
    summary: "restore a backup of `runway backup` into an empty database (or data folder); refuses a newer Runway's backup",
    usage: '--from <folder>',
    async run(argv) {
      const f = parseFlags(argv, { from: 'string' });
      const source = requireFlag(f, 'from');
      const { restore } = await import('./backup');
      for (const note of await restore(source)) console.log(note);
      return 0;
    },
  },
  doctor: {
    summary: 'check the settings, secret, data folder, database, pooler, migrations and trusted proxies; exit 1 on a problem',
    usage: '',
    async run(argv) {
      parseFlags(argv, {});
      const { diagnose, report } = await import('./doctor');
      const findings = await diagnose();
      console.log(report(findings));
      return findings.some((f) => f.verdict === 'fail') ? 1 : 0;
    },
  },
  'runner-releases': {
    summary: 'show the gitlab-runner release list behind the runner upgrade statuses; --file or --fetch replaces it and recomputes them',
    usage: '[--file <releases.json> | --fetch]',
    async run(argv) {
      const f = parseFlags(argv, { file: 'string', fetch: 'boolean' });
      const file = typeof f.file === 'string' ? f.file : undefined;
      if (file !== undefined && f.fetch) throw new UsageError('give --file or --fetch, not both');
      return withDatabase(async () => {
        const releases = await import('../lib/runners/releases');
        try {
          // --fetch reads public_runner_releases_url through the import URL blocker, whether or not the daily refresh is on.
          // The audit log names the command: it runs as whoever holds the database, not as a Runway user.
          const by = { kind: 'system', name: 'runway runner-releases' } as const;
          const done =
            file !== undefined
              ? await releases.replaceReleaseList(await releases.readReleaseFile(file), by)
              : f.fetch
                ? await releases.refreshReleasesFromUrl(by)
                : null;
          if (done) console.log(`stored ${done.releases} releases; ${done.versions} runner versions in use, ${done.changed} statuses changed`);
          else await releases.reconcileRunnerVersions();
        } catch (err) {
          if (!(err instanceof releases.ReleaseListError)) throw err;
          console.error(`runway runner-releases: ${err.message}`);
          return 1;
        }
        const { releaseListSummary } = await import('../lib/fleet/queries');
        const s = await releaseListSummary();
        console.log(
          [
            `release list:   ${s.versions_count} releases, newest ${s.newest_version ?? 'none'}, taken ${s.fetched_at.toISOString()}`,
            `source:         ${s.source}`,
            `compared with:  GitLab ${s.gitlab_version}`,
            `daily refresh:  ${s.refresh_enabled ? 'on' : 'off'}${s.refresh_error ? ` (last attempt failed: ${s.refresh_error})` : ''}`,
          ].join('\n'),
        );
        return 0;
      });
    },
  },
  'fleet-alerts': {
    summary: 'check the fleet alert rules now (the worker checks them every minute); prints what fired and cleared',
    usage: 'check',
    async run(argv) {
      const [sub, ...rest] = argv;
      if (sub !== 'check') throw new UsageError('the only subcommand is `check`');
      parseFlags(rest, {});
      return withDatabase(async () => {
        const { checkAlertRules } = await import('../lib/fleet-alerts/evaluate');
        // Forced: this check does not wait for the minute's cycle; the rule locks keep it from firing twice.
        const r = (await checkAlertRules({ force: true }))!;
        console.log(`checked ${r.checked} rules in ${(r.seconds * 1000).toFixed(1)} ms: ${r.fired} fired, ${r.cleared} cleared`);
        return 0;
      });
    },
  },
  version: {
    summary: "print Runway's version and the git revision it was built from (also --version)",
    usage: '',
    async run(argv) {
      parseFlags(argv, {});
      const { versionText } = await import('../lib/config/build-info');
      console.log(versionText());
      return 0;
    },
  },
};

/** The user named `username`; a missing one fails the command (exit 1) with a message saying so. */
async function findUserOrFail(username: string) {
  const { db } = await import('../lib/db/client');
  const user = await db().user.findUnique({ where: { username } });
  if (!user) throw new Error(`no user named ${username}`);
  return user;
}

/** Reads one line from stdin (piped, or typed at a prompt) so secrets stay out of shell history. */
async function readSecretFromStdin(what: string): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(`${what}: `);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(10)) break;
  }
  const line = Buffer.concat(chunks).toString('utf8').split('\n')[0].replace(/\r$/, '');
  if (!line) throw new UsageError(`no ${what} given (use --password or pipe it on stdin)`);
  return line;
}
