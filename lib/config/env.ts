// Configuration from the environment, validated once. The README's configuration table mirrors this file.
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
  NEXTAUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
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
  RUNWAY_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // GitLab's monitoring allowlist: who may read /-/metrics (loopback when unset).
  RUNWAY_MONITORING_ALLOWLIST: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      try {
        parseAllowlist(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional(),
});

export type RunwayEnv = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function readEnv(source: Record<string, string | undefined> = process.env): RunwayEnv {
  const result = schema.safeParse(source);
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
