// `runway doctor`: checks what an operator gets wrong, in the order it matters (GitLab's gitlab:check,
// Gitea's doctor): the settings, the secret's source, the data folder, the database and any pooler in front
// of it, the migrations, and the proxies Runway trusts against the addresses it has recorded. Each problem
// comes with its fix; any failure exits 1.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ConfigError, readEnv, type RunwayEnv } from '../lib/config/env';
import { dataDir, isCheckout, projectRoot } from '../lib/config/paths';
import { isAllowed } from '../lib/config/monitoring-allowlist';
import { loadedConfigFile } from './config-file';

export type Verdict = 'ok' | 'warn' | 'fail';
export interface Finding {
  check: string;
  verdict: Verdict;
  detail: string;
  fix?: string;
}

const CONNECT_TIMEOUT_MS = 5_000;

function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

function secretFindings(env: RunwayEnv, production: boolean): Finding[] {
  const check = 'secret';
  if (env.RUNWAY_SECRET_FILE) {
    if (process.platform !== 'win32' && modeOf(env.RUNWAY_SECRET_FILE) & 0o077) {
      return [
        {
          check,
          verdict: 'warn',
          detail: `RUNWAY_SECRET_FILE ${env.RUNWAY_SECRET_FILE} has mode ${modeOf(env.RUNWAY_SECRET_FILE).toString(8)}: other users may read it`,
          fix: `chmod 600 ${env.RUNWAY_SECRET_FILE}`,
        },
      ];
    }
    return [{ check, verdict: 'ok', detail: `read from RUNWAY_SECRET_FILE (${env.RUNWAY_SECRET_FILE})` }];
  }
  if (env.RUNWAY_SECRET) return [{ check, verdict: 'ok', detail: 'RUNWAY_SECRET is set (a file, RUNWAY_SECRET_FILE, keeps it out of the environment)' }];
  if (env.NEXTAUTH_SECRET) return [{ check, verdict: 'ok', detail: 'NEXTAUTH_SECRET is set' }];
  return [
    {
      check,
      verdict: production ? 'fail' : 'warn',
      detail: 'no RUNWAY_SECRET or RUNWAY_SECRET_FILE: sessions are signed with a secret generated into the database, which every database copy then holds',
      fix: 'openssl rand -base64 48 > /etc/runway/secret && chmod 600 /etc/runway/secret, then RUNWAY_SECRET_FILE=/etc/runway/secret in the settings file',
    },
  ];
}

function dataDirFindings(): Finding[] {
  const check = 'data folder';
  const dir = dataDir();
  if (!isCheckout() && !path.relative(projectRoot(), dir).startsWith('..')) {
    return [
      { check, verdict: 'fail', detail: `${dir} is inside the installed artifact`, fix: "RUNWAY_DATA_DIR=/var/lib/runway (owned by Runway's user, mode 0700)" },
    ];
  }
  if (!existsSync(dir)) {
    return [
      { check, verdict: 'warn', detail: `${dir} does not exist yet (Runway creates it if it may)`, fix: `install -d -m 0700 -o runway -g runway ${dir}` },
    ];
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    return [
      {
        check,
        verdict: 'fail',
        detail: `${dir} is not writable by this user (uid ${process.getuid?.()})`,
        fix: `chown -R runway:runway ${dir} (or run as Runway's user)`,
      },
    ];
  }
  const mode = modeOf(dir);
  if (process.platform !== 'win32' && mode & 0o007) {
    return [{ check, verdict: 'warn', detail: `${dir} has mode ${mode.toString(8)}: every local user may look inside`, fix: `chmod 700 ${dir}` }];
  }
  return [{ check, verdict: 'ok', detail: `${dir} (mode ${mode.toString(8)})` }];
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'runway doctor' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface ServerFacts {
  port: number;
  database: string;
  systemId: string;
  version: string;
}

/** Facts the server itself states, to tell a pooler (another port) and to match two URLs to one database. */
const serverFacts = (c: pg.Client) =>
  c
    .query<{ port: string; database: string; system_id: string; version: string }>(
      `SELECT current_setting('port') AS port, current_database() AS database, current_setting('server_version') AS version,
              (SELECT system_identifier::text FROM pg_control_system()) AS system_id`,
    )
    .then(({ rows: [r] }): ServerFacts => ({ port: Number(r.port), database: r.database, systemId: r.system_id, version: r.version }));

const urlPort = (url: string) => Number(new URL(url).port || 5432);
const redact = (url: string) => {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
};

async function databaseFindings(env: RunwayEnv): Promise<{ findings: Finding[]; directUrl?: string }> {
  const url = env.DATABASE_URL;
  if (!url) {
    const pgdata = path.join(dataDir(), 'pgdata');
    return {
      findings: [
        existsSync(pgdata)
          ? { check: 'database', verdict: 'ok', detail: `embedded database in ${pgdata} (one instance, one machine)` }
          : {
              check: 'database',
              verdict: 'warn',
              detail: `no DATABASE_URL and no embedded database in ${pgdata} yet`,
              fix: 'set DATABASE_URL in the settings file, or start Runway once to create the embedded database',
            },
      ],
    };
  }
  const findings: Finding[] = [];
  let pooled: ServerFacts;
  try {
    pooled = await withClient(url, serverFacts);
  } catch (err) {
    return {
      findings: [
        {
          check: 'database',
          verdict: 'fail',
          detail: `cannot reach ${redact(url)}: ${(err as Error).message}`,
          fix: 'check the host, port, user and password in DATABASE_URL, and that PostgreSQL (or PgBouncer) runs and admits this host',
        },
      ],
    };
  }
  findings.push({ check: 'database', verdict: 'ok', detail: `PostgreSQL ${pooled.version}, database ${pooled.database}, through ${redact(url)}` });
  const throughPooler = pooled.port !== urlPort(url);
  const direct = env.RUNWAY_DATABASE_DIRECT_URL;
  if (throughPooler && !direct) {
    findings.push({
      check: 'pooler',
      verdict: 'fail',
      detail: `DATABASE_URL reaches the server through something on port ${urlPort(url)} (the server listens on ${pooled.port}): a pooler or proxy, where migration locks and notifications do not hold`,
      fix: 'set RUNWAY_DATABASE_DIRECT_URL to the server itself (docs/operations.md, "PgBouncer")',
    });
  } else if (throughPooler) {
    findings.push({
      check: 'pooler',
      verdict: env.RUNWAY_DB_PREPARED_STATEMENTS === true ? 'warn' : 'ok',
      detail: `DATABASE_URL goes through a pooler (port ${urlPort(url)})${env.RUNWAY_DB_PREPARED_STATEMENTS === true ? ' and RUNWAY_DB_PREPARED_STATEMENTS=true' : ''}`,
      ...(env.RUNWAY_DB_PREPARED_STATEMENTS === true
        ? { fix: 'RUNWAY_DB_PREPARED_STATEMENTS=false unless the pooler keeps prepared statements (PgBouncer max_prepared_statements)' }
        : {}),
    });
  }
  if (direct) {
    try {
      const server = await withClient(direct, serverFacts);
      if (server.systemId !== pooled.systemId || server.database !== pooled.database) {
        findings.push({
          check: 'direct URL',
          verdict: 'fail',
          detail: 'RUNWAY_DATABASE_DIRECT_URL names another database than DATABASE_URL',
          fix: 'point both at the same database',
        });
      } else if (server.port !== urlPort(direct)) {
        findings.push({
          check: 'direct URL',
          verdict: 'fail',
          detail: `RUNWAY_DATABASE_DIRECT_URL goes through port ${urlPort(direct)}, not the server's ${server.port}`,
          fix: "use the server's own host and port, not the pooler's",
        });
      } else {
        findings.push({ check: 'direct URL', verdict: 'ok', detail: `the server itself (port ${server.port}), same database` });
      }
    } catch (err) {
      findings.push({
        check: 'direct URL',
        verdict: 'fail',
        detail: `cannot reach ${redact(direct)}: ${(err as Error).message}`,
        fix: 'check RUNWAY_DATABASE_DIRECT_URL',
      });
    }
  }
  return { findings, directUrl: direct ?? url };
}

async function migrationFindings(url: string): Promise<Finding[]> {
  const { loadMigrationList } = await import('../lib/db/migrations');
  const shipped = (await loadMigrationList()).migrationDirectories.map((m: { path: string }) => m.path);
  const applied = await withClient(url, (c) =>
    c
      .query<{ migration_name: string }>(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`)
      .then((r) => new Set(r.rows.map((x) => x.migration_name)))
      .catch(() => new Set<string>()),
  );
  const pending = shipped.filter((m: string) => !applied.has(m));
  const newer = [...applied].filter((m) => !shipped.includes(m));
  const findings: Finding[] = [];
  if (pending.length) {
    findings.push({
      check: 'migrations',
      verdict: 'warn',
      detail: `${pending.length} of ${shipped.length} migrations not applied (first: ${pending[0]})`,
      fix: 'runway migrate (runway start also applies them)',
    });
  } else findings.push({ check: 'migrations', verdict: 'ok', detail: `all ${shipped.length} applied` });
  if (newer.length)
    findings.push({
      check: 'migrations',
      verdict: 'warn',
      detail: `the database has ${newer.length} migrations from a newer release (${newer.at(-1)}): this instance is older than the schema`,
    });
  return findings;
}

/**
 * The addresses Runway recorded lately (sessions, audit events) against RUNWAY_TRUSTED_PROXIES: one address for
 * everyone is a proxy that is not trusted; a trusted proxy's own address recorded means it sends no X-Forwarded-For.
 */
async function proxyFindings(env: RunwayEnv, url: string): Promise<Finding[]> {
  const check = 'trusted proxies';
  const rows = await withClient(url, (c) =>
    c
      .query<{ ip: string; n: number; users: number }>(
        `SELECT ip, count(*)::int AS n, count(DISTINCT user_id)::int AS users FROM (
           SELECT ip, user_id FROM user_sessions WHERE created_at > now() - interval '7 days' AND ip IS NOT NULL
           UNION ALL
           SELECT ip_address, author_id FROM audit_events WHERE created_at > now() - interval '7 days' AND ip_address IS NOT NULL AND author_id > 0
         ) seen GROUP BY ip ORDER BY n DESC LIMIT 20`,
      )
      .then((r) => r.rows)
      .catch(() => []),
  );
  if (!rows.length) return [{ check, verdict: 'ok', detail: 'no sign-ins recorded in the last 7 days to compare with' }];
  const trustedSeen = rows.filter((r) => isAllowed(env.RUNWAY_TRUSTED_PROXIES, r.ip));
  if (trustedSeen.length) {
    return [
      {
        check,
        verdict: 'fail',
        detail: `requests were recorded from ${trustedSeen.map((r) => r.ip).join(', ')}, a trusted proxy: it sends no X-Forwarded-For, so its clients share its address`,
        fix: 'make the proxy set X-Forwarded-For (nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; HAProxy: option forwardfor)',
      },
    ];
  }
  const [top] = rows;
  if (rows.length === 1 && top.users > 1) {
    return [
      {
        check,
        verdict: 'warn',
        detail: `every sign-in of the last 7 days (${top.users} users) came from ${top.ip}: a proxy Runway does not trust, so all users share one sign-in lock and rate limit`,
        fix: `RUNWAY_TRUSTED_PROXIES=${top.ip} (if that is your proxy)`,
      },
    ];
  }
  return [{ check, verdict: 'ok', detail: `sign-ins came from ${rows.length} addresses in the last 7 days` }];
}

/** Every check, in order; later ones need the database and are skipped when it is out of reach. */
export async function diagnose(): Promise<Finding[]> {
  const findings: Finding[] = [];
  const file = loadedConfigFile();
  findings.push(
    file
      ? { check: 'settings file', verdict: 'ok', detail: file }
      : { check: 'settings file', verdict: 'ok', detail: 'none read (settings from the environment only)' },
  );
  let env: RunwayEnv;
  try {
    env = readEnv();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const p of err.problems)
      findings.push({
        check: 'configuration',
        verdict: 'fail',
        detail: `${p.setting}: ${p.problem}`,
        fix: 'docs/configuration.md lists every setting and its values',
      });
    return findings;
  }
  findings.push({ check: 'configuration', verdict: 'ok', detail: 'every setting is valid' });
  const production = process.env.NODE_ENV === 'production' || !isCheckout();
  findings.push(...secretFindings(env, production));
  findings.push(...dataDirFindings());
  const { findings: db, directUrl } = await databaseFindings(env);
  findings.push(...db);
  if (directUrl && !db.some((f) => f.verdict === 'fail' && f.check === 'database')) {
    findings.push(...(await migrationFindings(directUrl)));
    findings.push(...(await proxyFindings(env, directUrl)));
  }
  return findings;
}

const MARK: Record<Verdict, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' };

export function report(findings: Finding[]): string {
  const lines = findings.map((f) => `${MARK[f.verdict]}  ${f.check}: ${f.detail}${f.fix ? `\n      fix: ${f.fix}` : ''}`);
  const failed = findings.filter((f) => f.verdict === 'fail').length;
  const warned = findings.filter((f) => f.verdict === 'warn').length;
  lines.push('', failed ? `${failed} problem(s) to fix, ${warned} warning(s)` : warned ? `no problems, ${warned} warning(s)` : 'no problems found');
  return lines.join('\n');
}
