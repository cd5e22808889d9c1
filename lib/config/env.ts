// Configuration from the environment, validated once. The README's configuration table mirrors this file.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { parseAllowlist } from '../metrics/allowlist';

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
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v), 'must be a postgresql:// URL')
    .optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  RUNWAY_EXTERNAL_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^/]+(\/.*)?$/.test(v), 'must be an absolute http(s) URL')
    .optional(),
  // The secret that signs dashboard sessions; unset, one is generated and kept in the database.
  RUNWAY_SECRET: sessionSecret.optional(),
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
  // next-auth's name for RUNWAY_SECRET, kept as an alias.
  NEXTAUTH_SECRET: sessionSecret.optional(),
  INITIAL_ROOT_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  RUNWAY_DEMO: bool.default(false),
  RUNWAY_ALLOW_LOCAL_IMPORT: bool.default(false),
  RUNWAY_DATA_DIR: z.string().optional(),
  RUNWAY_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  RUNWAY_DB_PREPARED_STATEMENTS: bool.optional(),
  RUNWAY_EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  RUNWAY_EMBEDDED_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(32).optional(),
  RUNWAY_DIST_DIR: z.string().optional(),
  // GitLab's max_login_attempts (here per login and client address) and
  // failed_login_attempts_unlock_period_in_minutes; the account-wide limit is Runway's (lib/auth/lockout.ts).
  RUNWAY_MAX_LOGIN_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(10),
  RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(100),
  RUNWAY_LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).max(525600).default(10),
  // GitLab's protected-paths throttle (on by default) and API throttles (off by default).
  RUNWAY_RATE_LIMIT_SIGN_IN: rateLimit.default({ limit: 10, period: 60 }),
  RUNWAY_RATE_LIMIT_AUTHENTICATED_API: rateLimit.default(null),
  RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API: rateLimit.default(null),
  // GitLab's GITLAB_THROTTLE_USER_ALLOWLIST: user ids the authenticated API throttle never counts.
  RUNWAY_THROTTLE_USER_ALLOWLIST: z
    .string()
    .trim()
    .refine((v) => /^(\d+(\s*,\s*\d+)*)?$/.test(v), 'must be user ids separated by commas')
    .transform((v) => (v ? v.split(',').map((id) => Number(id.trim())) : []))
    .default([]),
  RUNWAY_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 31)
    .default(DEFAULT_MAX_BODY_BYTES),
  // Runner polls answered by the http wrapper straight from their route objects (lib/runner-agent/fast-path).
  RUNWAY_RUNNER_FAST_PATH: bool.default(true),
  // GitLab Workhorse's apiCiLongPollingDuration: how long a job poll with an unchanged last_update is held.
  RUNWAY_LONG_POLLING_SECONDS: z.coerce.number().int().min(0).max(3600).default(50),
  // How long a client may take to send one request, headers and body (GitLab's Workhorse and proxies: 60 s).
  // Answers are not timed: a held poll or an event stream is a long answer to a request already received.
  RUNWAY_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // Per process (a socket lives in one): open GET /runners/events streams per session or token, and held
  // POST /jobs/request polls per runner (its managers' request_concurrency added up); more answer 429.
  RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(10),
  RUNWAY_MAX_HELD_POLLS_PER_RUNNER: z.coerce.number().int().min(1).max(100_000).default(16),
  // Runner heartbeats (contacted_at, creation state, managers and their version/platform/ip) are buffered
  // per process and written in one statement this often; the API and pages read contacted_at from the
  // database, so it lags the truth by at most this. Polls are then authenticated from a per-process cache
  // that every instance drops entries from on a runner's change (lib/runners/contact-cache.ts). 0 writes
  // each heartbeat as its poll arrives (at most once a minute per runner) and caches nothing: one read per poll.
  RUNWAY_HEARTBEAT_FLUSH_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  RUNWAY_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // GitLab's monitoring allowlist: who may read /-/metrics (loopback when unset).
  RUNWAY_MONITORING_ALLOWLIST: addressList.optional(),
  // GitLab's trusted_proxies: whose X-Forwarded-For names the client (lib/rate-limits/client-ip). None by default.
  RUNWAY_TRUSTED_PROXIES: addressList.default('').transform(parseAllowlist),
  // GitLab's shutdown_blackout_seconds (Puma): after SIGTERM, readiness fails and the instance keeps
  // serving this long, so the load balancer stops sending before connections close.
  RUNWAY_SHUTDOWN_BLACKOUT_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  // Then how long requests being served may take to finish before the process exits anyway.
  RUNWAY_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
});

/** Cross-field rules: one source of the session secret. */
const checkedSchema = schema.superRefine((env, ctx) => {
  const given = (['RUNWAY_SECRET', 'RUNWAY_SECRET_FILE', 'NEXTAUTH_SECRET'] as const).filter((name) => env[name] !== undefined);
  if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[0]], message: `set only one of ${given.join(', ')}` });
});

export type RunwayEnv = z.infer<typeof schema>;

/** The configured session secret, or undefined when the generated one is to be used. */
export function configuredSecret(env: RunwayEnv): string | undefined {
  return env.RUNWAY_SECRET ?? (env.RUNWAY_SECRET_FILE === undefined ? undefined : readSecretFile(env.RUNWAY_SECRET_FILE)) ?? env.NEXTAUTH_SECRET;
}

export class ConfigError extends Error {}

export function readEnv(source: Record<string, string | undefined> = process.env): RunwayEnv {
  const result = checkedSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // Below the per-address limit, one address could lock an account for everyone again.
  if (result.data.RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT < result.data.RUNWAY_MAX_LOGIN_ATTEMPTS) {
    throw new ConfigError('Invalid configuration:\n  RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT: must be at least RUNWAY_MAX_LOGIN_ATTEMPTS');
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
  'RUNWAY_REQUEST_TIMEOUT_SECONDS' | 'RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT' | 'RUNWAY_MAX_HELD_POLLS_PER_RUNNER' | 'RUNWAY_HEARTBEAT_FLUSH_SECONDS';

/** One integer setting as it is now (validated at start; its default when unset or, outside `runway start`, invalid). */
export function integerSetting(name: IntegerSetting): number {
  const field = schema.shape[name];
  const parsed = field.safeParse(process.env[name]);
  return parsed.success ? parsed.data : field.parse(undefined);
}
