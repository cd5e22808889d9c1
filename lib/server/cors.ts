// CORS on /api/v4, for browser applications on other origins (GitLab's Rack::Cors on /api/*). Off unless
// RUNWAY_CORS_ORIGINS names origins, or `*`. Set by the http wrapper before any handler runs, so Next.js
// routes, the runner fast path and the wrapper's own refusals all carry the same headers.
//
// Credentials are never allowed (no Access-Control-Allow-Credentials, ever): a browser sends no cookie on a
// cross-origin request unless the page asks for `credentials: 'include'`, and then refuses the page the
// answer, since it lacks that header. So the dashboard's session cookie cannot be used from another origin:
// cross-origin callers authenticate with a token header, as GitLab's public CORS rule requires. (Writes made
// with the session also need its X-CSRF-Token, which another origin cannot read.) GitLab also lets its own
// origin use credentials; Runway's dashboard is same-origin and needs no CORS.
import type http from 'node:http';
import type { CorsPolicy } from '../config/cors-origins';

/** rack-cors's `methods: :any`, as GitLab configures /api/*. */
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * The request headers the API reads (GitLab allows any; a fixed list keeps the policy readable). JOB-TOKEN is
 * listed although Runway accepts no job tokens, so that such a caller reads the API's 401, not a CORS error.
 */
const ALLOW_HEADERS = 'Authorization, Content-Type, PRIVATE-TOKEN, JOB-TOKEN, Sudo, If-Unmodified-Since, X-Request-Id, X-Requested-With';

/**
 * GitLab's exposed pagination headers, which clients page with; plus Retry-After (a browser client can
 * honour a 429) and X-Request-Id (to quote in a report), which GitLab does not expose.
 */
const EXPOSE_HEADERS = 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page, Retry-After, X-Request-Id';

/** rack-cors's default, and the most Chromium caches a preflight for anyway (seconds). */
const MAX_AGE = '7200';

const isCorsPath = (path: string) => path === '/api/v4' || path.startsWith('/api/v4/');

/**
 * Sets the CORS headers of an /api/v4 request and answers its preflight (true: answered, nothing else to
 * do). A preflight always gets 204 with no body, with the allow headers only for an allowed origin, as
 * rack-cors answers every preflight itself (with 200); the browser then refuses a disallowed origin.
 */
export function applyCors(req: http.IncomingMessage, res: http.ServerResponse, path: string, policy: CorsPolicy | null): boolean {
  if (!policy || !isCorsPath(path)) return false;
  // Answers differ by Origin (an allowed one is echoed, others get nothing): shared caches must keep them apart.
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  const allowed = origin !== undefined && (policy.anyOrigin || policy.origins.has(origin));
  if (allowed) res.setHeader('Access-Control-Allow-Origin', policy.anyOrigin ? '*' : origin);
  if (req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE);
    }
    res.writeHead(204).end();
    return true;
  }
  if (allowed) res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  return false;
}
