// Configuration from the environment, validated once. The README's configuration table mirrors this file.
import { z } from 'zod';

const bool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', ''].includes(v), 'must be true or false')
  .transform((v) => ['true', '1', 'yes'].includes(v));

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
  RUNWAY_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(2 ** 31).default(DEFAULT_MAX_BODY_BYTES),
  RUNWAY_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type RunwayEnv = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function readEnv(source: NodeJS.ProcessEnv = process.env): RunwayEnv {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** The externally visible base URL, without a trailing slash: used for `web_url` and `Link` headers. */
export function externalUrl(): string {
  const configured = process.env.RUNWAY_EXTERNAL_URL;
  if (configured) return configured.replace(/\/+$/, '');
  return `http://localhost:${process.env.PORT ?? 3000}`;
}

/** The largest request body Runway reads (RUNWAY_MAX_BODY_BYTES, validated at start). */
export function maxBodyBytes(): number {
  const n = Number(process.env.RUNWAY_MAX_BODY_BYTES);
  return Number.isSafeInteger(n) && n >= 1024 ? n : DEFAULT_MAX_BODY_BYTES;
}
