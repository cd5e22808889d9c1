// Configuration from the environment, validated once. Each setting's JSDoc (its description, `@default` as
// operators read it, `@values` where the type does not say) is the configuration reference: `npm run
// docs:generate` writes docs/configuration.md's settings table and .env.example from it (the README links them).
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { parseAllowlist } from './monitoring-allowlist';
import { parseCorsOrigins } from './cors-origins';

const bool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', ''].includes(v), 'must be true or false')
  .transform((v) => ['true', '1', 'yes'].includes(v));

/** `<requests>/<seconds>` (e.g. `10/60`), or `off`: one rate limit (Rack::Attack's limit and period). */
export const rateLimit = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === 'off' || /^\d{1,9}\/\d{1,9}$/.test(v), 'must be <requests>/<seconds> (for example 10/60) or off')
  .transform((v) => {
    if (v === 'off') return null;
    const [limit, period] = v.split('/').map(Number);
    return { limit, period };
  })
  .refine((v) => v === null || (v.limit >= 1 && v.period >= 1), 'requests and seconds must be at least 1');
/**
 * 10 MiB: well above any body a GitLab client sends to the endpoints Runway serves (JSON settings, runner
 * registration, job updates with a trace, context commits), small enough that a few concurrent abusive
 * bodies cannot exhaust memory.
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Five minutes: longer than any migration so far took on a large database, short enough that a wedged lock ends a start. */
export const DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS = 300;

const SECRET_MIN_LENGTH = 32;
const sessionSecret = z.string().min(SECRET_MIN_LENGTH, `must be at least ${SECRET_MIN_LENGTH} characters`);

/** The secret in a key file (RUNWAY_SECRET_FILE), without the line break editors end a file with. */
export function readSecretFile(file: string): string {
  if (!statSync(file).isFile()) throw new Error('is not a file');
  return readFileSync(file, 'utf8').trim();
}

/** Comma-separated addresses and CIDR ranges (GitLab's trusted_proxies), as the monitoring allowlist. */
const addressList = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    try {
      parseAllowlist(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  });

const schema = z.object({
  /**
   * PostgreSQL server to use (`postgresql://user@host:5432/db`); the migrations create the `pg_trgm` extension,
   * which ships with PostgreSQL (Debian's `postgresql` package included; elsewhere install the contrib package).
   * Unset: the embedded PostgreSQL (PGlite) under the data folder.
   * @values a `postgresql://` URL (empty: unset)
   */
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL')
    .optional(),
  /**
   * The same database reached without a pooler, for what needs a session of its own: the notification hub's
   * `LISTEN` (live runner events; held polls answered at once on a change) and the migrations with their
   * advisory lock. Set it when `DATABASE_URL` goes through PgBouncer in transaction mode (with
   * `RUNWAY_DB_PREPARED_STATEMENTS=false`; see docs/operations.md). Needs `DATABASE_URL`.
   * @default `DATABASE_URL`
   * @values a `postgresql://` URL
   */
  RUNWAY_DATABASE_DIRECT_URL: z
    .string()
    .trim()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL')
    .optional(),
  /**
   * The port Runway's HTTP server listens on.
   * @default `3000`
   */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * The address Runway's HTTP server listens on.
   * @default `127.0.0.1`
   * @values an IP address or host name (`0.0.0.0` for every IPv4 address)
   */
  HOST: z.string().default('127.0.0.1'),
  /**
   * The URL users and clients reach Runway at; every absolute URL (`web_url`, `Link`) is built from it.
   * @default `http://localhost:$PORT`
   * @values an absolute `http://` or `https://` URL
   */
  RUNWAY_EXTERNAL_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^/]+(\/.*)?$/.test(v), 'must be an absolute http(s) URL')
    .optional(),
  /**
   * Secret that signs dashboard sessions (32+ characters, e.g. `openssl rand -base64 48`); the same on every
   * instance. When a secret is given, the database holds none: the generated one is not used, not created, and
   * deleted if present. Set only one of this, `RUNWAY_SECRET_FILE` and `NEXTAUTH_SECRET`.
   * @default generated once and kept in the database (`instance_secrets`), so every instance on one database shares it
   * @values 32 or more characters
   */
  RUNWAY_SECRET: sessionSecret.optional(),
  /**
   * A file holding that secret (read at start, surrounding whitespace ignored), kept outside the database as
   * GitLab keeps `secrets.yml`; make it readable by Runway's user only (a file every user may read is used, with
   * a warning).
   * @values the path of a readable file holding 32 or more characters
   */
  RUNWAY_SECRET_FILE: z
    .string()
    .superRefine((file, ctx) => {
      try {
        if (readSecretFile(file).length < SECRET_MIN_LENGTH) ctx.addIssue({ code: 'custom', message: `must hold at least ${SECRET_MIN_LENGTH} characters` });
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
      }
    })
    .optional(),
  /**
   * The name next-auth gives `RUNWAY_SECRET`, still accepted.
   * @values 32 or more characters
   */
  NEXTAUTH_SECRET: sessionSecret.optional(),
  /**
   * Password of `root` when it is created on first start.
   * @default generated: shown by `--demo`/`--dev`, else written to `<data dir>/initial_root_password`
   * @values 8 or more characters
   */
  INITIAL_ROOT_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  /**
   * Seed the demo data at start (idempotent).
   * @default `false` (`true` in `npm run demo`)
   */
  RUNWAY_DEMO: bool.default(false),
  /**
   * Let admins import repositories from the server's disk (`file://` or a path).
   * @default `false`
   */
  RUNWAY_ALLOW_LOCAL_IMPORT: bool.default(false),
  /**
   * Where the embedded database and repository mirrors (`repositories/<database instance id>/<project id>.git`)
   * live. Unset: systemd's `STATE_DIRECTORY` when set, else `.data` in a checkout, else `/var/lib/runway` (never
   * inside the installed artifact, which its service user cannot write to).
   * @default `.data` (checkout), `/var/lib/runway` (artifact)
   * @values a folder path
   */
  RUNWAY_DATA_DIR: z.string().optional(),
  /**
   * Database connections per process.
   * @default `10` (`1` embedded)
   */
  RUNWAY_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  /**
   * Prepare each distinct statement once per connection so PostgreSQL reuses its plan; set `false` behind a
   * pooler in transaction mode that does not support prepared statements. Never on the embedded database, whose
   * connections share one session (Runway asks the database which it is).
   * @default `true` (`false` embedded)
   */
  RUNWAY_DB_PREPARED_STATEMENTS: bool.optional(),
  /**
   * Seconds between pings of the connection that listens for notifications (live runner updates across
   * instances); a ping unanswered for as long counts as a lost connection, which is reopened. Catches a
   * connection a proxy or firewall dropped silently. `0` turns the ping off.
   * @default `30`
   * @values a number of seconds from 0 to 3600
   */
  RUNWAY_NOTIFICATIONS_PING_SECONDS: z.coerce.number().min(0).max(3600).optional(),
  /**
   * How long a start (or a `runway` command) waits for the migration lock another instance holds while it
   * migrates, saying every 10 s who holds it (pid and application name); then it exits non-zero. A migration
   * that takes longer (an index on a large table) needs more.
   * @default `300`
   * @values a number of seconds from 1 to 86400
   */
  RUNWAY_MIGRATION_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS),
  /**
   * The embedded PostgreSQL listens on a Unix socket, `<data dir>/pgdata.sock/.s.PGSQL.<this>`, in a folder only
   * Runway's user may open (it checks no password): `psql -h <data dir>/pgdata.sock -p <this> -U postgres`. On
   * Windows, a loopback port instead (`0`: a random free one).
   * @default `5432` (Windows: a random free port)
   */
  RUNWAY_EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Sockets the embedded PostgreSQL accepts; they share one session, each query and transaction served whole, one at a time.
   * @default `4`
   */
  RUNWAY_EMBEDDED_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(32).optional(),
  /**
   * Build output folder (lets parallel builds coexist).
   * @default `.next`
   * @values a folder path, relative to the project
   */
  RUNWAY_DIST_DIR: z.string().optional(),
  /**
   * Failed sign-ins from one client address that lock that address out of the login for the lock period
   * (GitLab's `max_login_attempts`, which GitLab counts per account); see the sign-in lock below.
   * @default `10`
   */
  RUNWAY_MAX_LOGIN_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * Failed sign-ins from all addresses within the lock period that lock the account for everyone (the API's
   * `locked: true`); at least `RUNWAY_MAX_LOGIN_ATTEMPTS`.
   * @default `100`
   */
  RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /**
   * How long a lock lasts, and the period failures are counted in (GitLab's
   * `failed_login_attempts_unlock_period_in_minutes`).
   * @default `10`
   */
  RUNWAY_LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).max(525600).default(10),
  /**
   * Sign-in POSTs per client IP: `<requests>/<seconds>` or `off` (GitLab's protected-paths throttle).
   * @default `10/60`
   * @values `<requests>/<seconds>` (each at least 1) or `off`
   */
  RUNWAY_RATE_LIMIT_SIGN_IN: rateLimit.default({ limit: 10, period: 60 }),
  /**
   * `/api/v4` requests per token owner, `<requests>/<seconds>` (GitLab's `throttle_authenticated_api_*`; GitLab
   * suggests `7200/3600`).
   * @default `off`
   * @values `<requests>/<seconds>` (each at least 1) or `off`
   */
  RUNWAY_RATE_LIMIT_AUTHENTICATED_API: rateLimit.default(null),
  /**
   * Anonymous `/api/v4` requests per client IP (GitLab's `throttle_unauthenticated_api_*`; GitLab suggests
   * `3600/3600`).
   * @default `off`
   * @values `<requests>/<seconds>` (each at least 1) or `off`
   */
  RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API: rateLimit.default(null),
  /**
   * User ids (comma-separated) the authenticated API limit never counts (GitLab's
   * `GITLAB_THROTTLE_USER_ALLOWLIST`).
   * @default empty
   * @values user ids separated by commas
   */
  RUNWAY_THROTTLE_USER_ALLOWLIST: z
    .string()
    .trim()
    .refine((v) => /^(\d+(\s*,\s*\d+)*)?$/.test(v), 'must be user ids separated by commas')
    .transform((v) => (v ? v.split(',').map((id) => Number(id.trim())) : []))
    .default([]),
  /**
   * Largest request body read; a larger one answers `413 {"message":"413 Request Entity Too Large"}` without
   * being read (declared lengths are checked up front, chunked bodies counted as they arrive). Ample for every
   * body GitLab clients send to the endpoints Runway serves.
   * @default `10485760` (10 MiB)
   */
  RUNWAY_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 31)
    .default(DEFAULT_MAX_BODY_BYTES),
  /**
   * Answer the runner polls (`POST /api/v4/jobs/request`, `POST /api/v4/runners/verify`) in the http wrapper,
   * calling the same endpoint objects as their route files without Next.js's router (as GitLab answers them in
   * Workhorse); `false` sends them through Next.js.
   * @default `true`
   */
  RUNWAY_RUNNER_FAST_PATH: bool.default(true),
  /**
   * How long a `POST /jobs/request` whose `last_update` is still the runner's current value is held before its
   * 204 (GitLab Workhorse's `apiCiLongPollingDuration`); a change to the runner (settings, paused, deleted) from
   * any Runway instance answers it at once (PostgreSQL LISTEN/NOTIFY). `0` turns long polling off.
   * @default `50`
   */
  RUNWAY_LONG_POLLING_SECONDS: z.coerce.number().int().min(0).max(3600).default(50),
  /**
   * How long a client may take to send a request's headers and body (GitLab's Workhorse and proxies: 60 s); a
   * slower one gets `408 {"message":"408 Request Timeout"}`. Answers are not timed: held job polls and event
   * streams go on.
   * @default `60`
   */
  RUNWAY_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * `GET /runners/events` streams one session or token may hold open at once in one process (a browser tab holds
   * one; a browser opens at most 6 connections to a host over HTTP/1.1); one more answers `429`.
   * @default `10`
   */
  RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * `GET /runners/events` streams one user may hold open at once on all instances together, whatever their
   * sessions and tokens (counted in PostgreSQL; a crashed instance's streams stop counting after 90 s); one
   * more answers `429` with `Retry-After`.
   * @default `20`
   */
  RUNWAY_MAX_EVENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * `POST /jobs/request` polls one runner may have held at once in one process; one more answers `429`
   * (`Retry-After`: the long polling time). 16 covers gitlab-runner's `request_concurrency` (default 1) of a few
   * managers sharing a runner.
   * @default `16`
   */
  RUNWAY_MAX_HELD_POLLS_PER_RUNNER: z.coerce.number().int().min(1).max(100_000).default(16),
  /**
   * The repeat runner contacts (`contacted_at` of runners and managers already known) are buffered
   * per process and written in one SQL statement this often; the API and pages read them from the database, so
   * they lag by at most this. A first contact, the creation state, a new manager or a manager's changed
   * version/revision/platform/architecture/executor/IP is written when the poll arrives, as GitLab does it. Polls
   * are authenticated from a per-process runner cache every instance drops a runner from whenever it changes
   * (its change notification, caught up by a Sync before an entry is served). `0` writes each heartbeat as its
   * poll arrives and caches nothing: one read per poll.
   * @default `5`
   * @values `0` to `300`
   */
  RUNWAY_HEARTBEAT_FLUSH_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  /**
   * `debug`, `info`, `warn`, `error` or `silent`.
   * @default `info`
   */
  RUNWAY_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * How log lines are written: `json`, one object a line (what a log collector parses), or `text`, one readable
   * line (time, level, message, then `key=value` fields) for a person at a terminal. Unset, `runway start`
   * writes `json`, and `runway start --demo` or `--dev` writes `text`.
   * @default `json`
   * @values `json`, `text`
   */
  RUNWAY_LOG_FORMAT: z.enum(['json', 'text']).optional(),
  /**
   * Where the request log (one JSON line per request, GitLab's `api_json.log` fields) goes: `stdout`, with the
   * other log lines; `off`; `file`, `log/requests.log` in the data folder; or a file path (relative to the
   * package root). Unset, `runway start` writes `stdout`, and `runway start --demo` or `--dev` writes `file`, so
   * the terminal keeps the start message and what needs attention. Files are appended to, mode 0600.
   * @default `stdout`
   * @values `stdout`, `off`, `file` or a file path
   */
  RUNWAY_REQUEST_LOG: z.string().trim().min(1).optional(),
  /**
   * Addresses and CIDR ranges (comma-separated) that may read `/-/metrics`, `/-/health`, `/-/liveness` and
   * `/-/readiness` (GitLab's monitoring allowlist); others get an empty `404`. Checked against the socket's
   * address, never a forwarded header: add the networks your load balancer probes from.
   * @default `127.0.0.0/8,::1/128`
   * @values IP addresses and CIDR ranges separated by commas
   */
  RUNWAY_MONITORING_ALLOWLIST: addressList.optional(),
  /**
   * Addresses and CIDR ranges (comma-separated) of reverse proxies whose `X-Forwarded-For` names the client
   * (GitLab's `trusted_proxies`). Behind a proxy set it (`127.0.0.1` for one on the same machine): otherwise
   * every client has the proxy's address.
   * @default none
   * @values IP addresses and CIDR ranges separated by commas
   */
  RUNWAY_TRUSTED_PROXIES: addressList.default('').transform(parseAllowlist),
  /**
   * Origins (comma-separated; scheme, host and port, as browsers send them) whose pages may call `/api/v4`
   * from a browser, or `*` for every origin (GitLab's rule for `/api/*`). Empty: no CORS headers at all.
   * Credentials are never allowed, whatever the list (lib/server/cors), so the dashboard's session cookie
   * cannot be used cross-origin: such callers send a token header.
   * @default empty (no CORS)
   * @values origins such as `https://app.example.com` separated by commas, or `*`
   */
  RUNWAY_CORS_ORIGINS: z
    .string()
    .trim()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseCorsOrigins(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * After SIGTERM or SIGINT, how long readiness answers `503` while the instance keeps serving, so the load
   * balancer stops sending before connections close (GitLab's Puma `shutdown_blackout_seconds`).
   * @default `10` (`0` in `npm run demo` and `runway start --dev`)
   */
  RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  /**
   * Then how long requests being served (and a running background job) may take to finish before the process
   * exits anyway. Keep blackout plus timeout below the orchestrator's grace period (Kubernetes: 30 s; `docker
   * stop`: 10 s unless `-t`).
   * @default `15`
   */
  RUNWAY_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
});

/** Cross-field rules: one source of the session secret. */
const checkedSchema = schema.superRefine((env, ctx) => {
  const given = (['RUNWAY_SECRET', 'RUNWAY_SECRET_FILE', 'NEXTAUTH_SECRET'] as const).filter((name) => env[name] !== undefined);
  if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[0]], message: `set only one of ${given.join(', ')}` });
  // The embedded database has no pooler in front of it: a direct URL there would be a second database.
  if (env.RUNWAY_DATABASE_DIRECT_URL && !env.DATABASE_URL) {
    ctx.addIssue({ code: 'custom', path: ['RUNWAY_DATABASE_DIRECT_URL'], message: 'needs DATABASE_URL (it is the same database, reached without the pooler)' });
  }
});

export type RunwayEnv = z.infer<typeof schema>;

/** The settings' schema, one field per variable (scripts/config-reference.ts reads it for the reference). */
export const settingsSchema = schema;

/** The configured session secret, or undefined when the generated one is to be used. */
export function configuredSecret(env: RunwayEnv): string | undefined {
  return env.RUNWAY_SECRET ?? (env.RUNWAY_SECRET_FILE === undefined ? undefined : readSecretFile(env.RUNWAY_SECRET_FILE)) ?? env.NEXTAUTH_SECRET;
}

/** A configuration the schema refuses; `problems` names each setting and what is wrong with it. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly problems: { setting: string; problem: string }[] = [],
  ) {
    super(message);
  }
}

export function readEnv(source: Record<string, string | undefined> = process.env): RunwayEnv {
  const result = checkedSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => ({ setting: i.path.join('.'), problem: i.message }));
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p.setting}: ${p.problem}`).join('\n')}`, problems);
  }
  // Below the per-address limit, one address could lock an account for everyone again.
  if (result.data.RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT < result.data.RUNWAY_MAX_LOGIN_ATTEMPTS) {
    const problem = { setting: 'RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT', problem: 'must be at least RUNWAY_MAX_LOGIN_ATTEMPTS' };
    throw new ConfigError(`Invalid configuration:\n  ${problem.setting}: ${problem.problem}`, [problem]);
  }
  return result.data;
}

/** The externally visible base URL, without a trailing slash: used for `web_url` and `Link` headers. */
export function externalUrl(): string {
  const configured = process.env.RUNWAY_EXTERNAL_URL;
  if (configured) return configured.replace(/\/+$/, '');
  return `http://localhost:${process.env.PORT ?? 3000}`;
}

let cached: RunwayEnv | undefined;

/** This process's configuration, parsed once (`runway start` has validated it before serving). */
export function currentEnv(): RunwayEnv {
  return (cached ??= readEnv());
}

/** The largest request body Runway reads (RUNWAY_MAX_BODY_BYTES, validated at start). */
export function maxBodyBytes(): number {
  const n = Number(process.env.RUNWAY_MAX_BODY_BYTES);
  return Number.isSafeInteger(n) && n >= 1024 ? n : DEFAULT_MAX_BODY_BYTES;
}

type IntegerSetting =
  | 'RUNWAY_REQUEST_TIMEOUT_SECONDS'
  | 'RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT'
  | 'RUNWAY_MAX_EVENT_STREAMS_PER_USER'
  | 'RUNWAY_MAX_HELD_POLLS_PER_RUNNER'
  | 'RUNWAY_HEARTBEAT_FLUSH_SECONDS';

/** One integer setting as it is now (validated at start; its default when unset or, outside `runway start`, invalid). */
export function integerSetting(name: IntegerSetting): number {
  const field = schema.shape[name];
  const parsed = field.safeParse(process.env[name]);
  return parsed.success ? parsed.data : field.parse(undefined);
}
