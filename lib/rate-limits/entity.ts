// GitLab's throttled answer (Gitlab::RackAttack's throttled_response): 429, text/plain "Retry later\n", the
// RateLimit-* headers and Retry-After. /api/v4 gets the same plain text as GitLab sends there, since
// Rack::Attack answers before the API: clients (python-gitlab, gitbeaker, go-gitlab) read the status and
// Retry-After / RateLimit-Reset, never the body.
import type { Throttle } from './policy';

export function throttledHeaders(throttle: Throttle, observed: number, now: number): Record<string, string> {
  const { name, limit, period } = throttle;
  const retryAfter = period - (now % period);
  const reset = now + retryAfter;
  return {
    'RateLimit-Name': name,
    // GitLab expresses the limit per 60 seconds, rounded up, whatever the period.
    'RateLimit-Limit': String(Math.ceil((limit * 60) / period)),
    'RateLimit-Observed': String(observed),
    'RateLimit-Remaining': String(Math.max(limit - observed, 0)),
    'RateLimit-Reset': String(reset),
    'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(),
    'Retry-After': String(retryAfter),
  };
}

export function throttledResponse(throttle: Throttle, observed: number, now: number): Response {
  const headers = throttledHeaders(throttle, observed, now);
  return retryLater(Number(headers['Retry-After']), headers);
}

/**
 * GitLab's 429 (Rack::Attack's throttled answer): the plain text "Retry later" and `Retry-After`, which
 * clients act on (gitlab-runner, python-gitlab, gitbeaker wait that long and retry), never on the body.
 */
export function retryLater(retryAfterSeconds: number, headers: Record<string, string> = {}): Response {
  return new Response('Retry later\n', { status: 429, headers: { 'Content-Type': 'text/plain', 'Retry-After': String(retryAfterSeconds), ...headers } });
}
