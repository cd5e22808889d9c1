// RUNWAY_CORS_ORIGINS, parsed: which origins' pages may call /api/v4 from a browser (lib/server/cors.ts).

export interface CorsPolicy {
  /** `*` was configured: every origin, answered with `Access-Control-Allow-Origin: *`. */
  anyOrigin: boolean;
  /** Serialised origins (`https://app.example.com`, default ports left out, as browsers send them). */
  origins: ReadonlySet<string>;
}

const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s]+\/?$/i;

/** One configured origin, serialised as a browser's `Origin` header; throws when it is not an origin. */
function parseOrigin(entry: string): string {
  const problem = new Error(`${entry} is not an origin (scheme://host[:port], http or https, no path)`);
  if (!ORIGIN_SHAPE.test(entry)) throw problem;
  try {
    return new URL(entry).origin;
  } catch {
    throw problem;
  }
}

/** RUNWAY_CORS_ORIGINS: comma-separated origins, `*` for every origin; empty turns CORS off (null). */
export function parseCorsOrigins(value: string): CorsPolicy | null {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!entries.length) return null;
  const anyOrigin = entries.includes('*');
  return { anyOrigin, origins: new Set(entries.filter((e) => e !== '*').map(parseOrigin)) };
}
