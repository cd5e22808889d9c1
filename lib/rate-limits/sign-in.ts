// The sign-in form's side of the sign-in throttle: the path it posts credentials to, and the error code a
// throttled JSON answer names (the form shows GitLab's "Retry later" for it).
export const signInPath = '/api/auth/callback/credentials';
export const RATE_LIMITED_CODE = 'RateLimited';
