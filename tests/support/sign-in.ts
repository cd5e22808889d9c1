// Signing in to any Runway (base URL) through next-auth's real credentials flow, as the sign-in form does,
// from a loopback address of its own (`from`, else a fresh one: see freshLoopbackAddress), or as a reverse
// proxy on 127.0.0.1 forwarding for the client `ip` (X-Forwarded-For, which only a server started with
// RUNWAY_TRUSTED_PROXIES=127.0.0.1 believes).
import { fetchFrom, freshLoopbackAddress } from './loopback-fetch';

export interface SignInAttempt {
  status: number;
  /** next-auth's error code (`CredentialsSignin`, `locked`, `RateLimited`...), null on success. */
  error: string | null;
  /** The session cookie on success. */
  cookie: string | null;
  headers: Headers;
  text: string;
  /** Where next-auth sends the browser: the JSON answer's `url`, or a plain form post's Location. */
  url: string | null;
}

export async function attemptSignIn(
  base: string,
  login: string,
  password: string,
  opts: { ip?: string; from?: string; json?: boolean; callbackUrl?: string } = {},
): Promise<SignInAttempt> {
  const forwarded: Record<string, string> = opts.ip ? { 'X-Forwarded-For': opts.ip } : {};
  const from = opts.from ?? (opts.ip ? '127.0.0.1' : freshLoopbackAddress());
  const csrfRes = await fetchFrom(from, `${base}/api/auth/csrf`, { headers: forwarded });
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const form: Record<string, string> = { csrfToken, username: login, password };
  if (opts.json ?? true) form.json = 'true';
  if (opts.callbackUrl !== undefined) form.callbackUrl = opts.callbackUrl;
  const res = await fetchFrom(from, `${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: csrfCookie, ...forwarded },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  const cookie =
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('next-auth.session-token=')) ?? null;
  let error: string | null = null;
  let url = res.headers.get('location');
  try {
    url = (JSON.parse(text) as { url?: string }).url ?? url;
    error = url ? new URL(url).searchParams.get('error') : null;
  } catch {
    error = res.status === 429 ? 'RateLimited' : null;
  }
  return { status: res.status, error, cookie, headers: res.headers, text, url };
}

/** Waits, when needed, so that `needSeconds` of the current fixed window of `period` seconds remain. */
export async function earlyInWindow(period: number, needSeconds: number): Promise<void> {
  const into = (Date.now() / 1000) % period;
  if (period - into < needSeconds) await new Promise((r) => setTimeout(r, (period - into) * 1000 + 200));
}

/** Waits until the next fixed window of `period` seconds begins (the throttle has forgotten this one). */
export async function nextWindow(period: number): Promise<void> {
  const into = (Date.now() / 1000) % period;
  await new Promise((r) => setTimeout(r, (period - into) * 1000 + 200));
}
