// Counting a request against its throttle: null when it may go on, else GitLab's 429.
import type { Actor } from '../auth/actor';
import { throttledHeaders, throttledResponse } from './entity';
import { apiThrottle, signInThrottle, type Counted } from './policy';
import { countRequest } from './queries';
import { metrics } from '../metrics/registry';

export interface Throttled {
  response: Response;
  headers: Record<string, string>;
}

async function count(counted: Counted | null): Promise<Throttled | null> {
  if (!counted) return null;
  const { throttle, discriminator } = counted;
  const { count: observed, now } = await countRequest(`${throttle.name}:${discriminator}`, throttle.period);
  if (observed <= throttle.limit) return null;
  recordThrottled(throttle);
  return { response: throttledResponse(throttle, observed, now), headers: throttledHeaders(throttle, observed, now) };
}

/** The API throttles, right after authentication (lib/api/handler.ts). */
export async function limitApiRequest(req: Request, actor: Actor | null): Promise<Response | null> {
  return (await count(apiThrottle(req.headers, actor)))?.response ?? null;
}

/** The sign-in throttle: counts every POST of credentials, successful or not, per client IP. */
export function limitSignIn(req: Request): Promise<Throttled | null> {
  return count(signInThrottle(req.headers));
}

/** GitLab's Rack::Attack metrics: the refusal, and the limit and period of the throttle that refused. */
function recordThrottled(throttle: Counted['throttle']): void {
  const m = metrics();
  m.throttleEvents.inc({ event_type: 'throttle', event_name: throttle.name });
  m.throttleLimit.set({ event_name: throttle.name }, throttle.limit);
  m.throttlePeriod.set({ event_name: throttle.name }, throttle.period);
}
