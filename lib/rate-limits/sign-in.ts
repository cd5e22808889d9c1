// The sign-in form's side of the sign-in throttle: the path it posts credentials to, and the error code a
// throttled JSON answer names, `RateLimited:<seconds of Retry-After>` (the form says when to retry).
export const signInPath = '/api/auth/callback/credentials';
export const RATE_LIMITED_CODE = 'RateLimited';

export function rateLimitedCode(retryAfterSeconds: number): string {
  return `${RATE_LIMITED_CODE}:${Math.max(1, Math.ceil(retryAfterSeconds))}`;
}

/** The seconds a throttled sign-in's code names, or null for another code (a bare `RateLimited`: unknown). */
export function rateLimitedSeconds(code: string): number | null {
  const m = /^RateLimited(?::(\d{1,6}))?$/.exec(code);
  if (!m) return null;
  return m[1] ? Number(m[1]) : 0;
}

/** "Too many sign-in attempts. Try again in 42 seconds." (minutes from two on). */
export function rateLimitedMessage(seconds: number): string {
  if (seconds <= 0) return 'Too many sign-in attempts. Retry later.';
  const when = seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;
  return `Too many sign-in attempts. Try again in ${when}.`;
}
