// Which throttle counts a request, and under which discriminator: GitLab's Rack::Attack rules for the
// throttles Runway has. Limits come from the environment (RUNWAY_RATE_LIMIT_*), so a disabled throttle
// costs nothing: no database round trip.
import type { Actor } from '../auth/actor';
import { currentEnv } from '../config/env';
import { clientIp } from './client-ip';

export interface Throttle {
  /** GitLab's throttle name, sent back in RateLimit-Name. */
  name: string;
  limit: number;
  /** Window length in seconds (fixed windows aligned to the epoch, as Rack::Attack's). */
  period: number;
}

export interface Counted {
  throttle: Throttle;
  /** Who is counted: `ip:<address>` or `user:<id>`. */
  discriminator: string;
}

const configured = (name: string, limit: { limit: number; period: number } | null): Throttle | null => (limit ? { name, ...limit } : null);

/** throttle_unauthenticated_protected_paths: POSTs to the sign-in path, per IP (10 per 60 s by default). */
export function signInThrottle(headers: Headers): Counted | null {
  const throttle = configured('throttle_unauthenticated_protected_paths', currentEnv().RUNWAY_RATE_LIMIT_SIGN_IN);
  return throttle && { throttle, discriminator: `ip:${clientIp(headers)}` };
}

/**
 * throttle_authenticated_api (per token owner; with Sudo still the admin who sent it; never for the users
 * of RUNWAY_THROTTLE_USER_ALLOWLIST) and
 * throttle_unauthenticated_api (per IP). Requests of the dashboard's session are GitLab's "frontend
 * requests", which its API throttles skip (they fall under the web throttles Runway does not have).
 * Endpoints that never read user credentials (the runner agent's, authenticated by runner tokens) are
 * not passed here: GitLab counts runner requests under neither API throttle.
 */
export function apiThrottle(headers: Headers, actor: Actor | null): Counted | null {
  const env = currentEnv();
  if (!actor) {
    const throttle = configured('throttle_unauthenticated_api', env.RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API);
    return throttle && { throttle, discriminator: `ip:${clientIp(headers)}` };
  }
  if (actor.via === 'session') return null;
  const throttle = configured('throttle_authenticated_api', env.RUNWAY_RATE_LIMIT_AUTHENTICATED_API);
  const userId = (actor.sudoFrom ?? actor.user).id;
  if (!throttle || env.RUNWAY_THROTTLE_USER_ALLOWLIST.includes(userId)) return null;
  return { throttle, discriminator: `user:${userId}` };
}
