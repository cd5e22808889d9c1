// Signing in to any Runway (base URL) through next-auth's real credentials flow, as the sign-in form does,
// optionally from a given client address (X-Forwarded-For, which a server trusting 127.0.0.1 believes).
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
  opts: { ip?: string; json?: boolean; callbackUrl?: string } = {},
): Promise<SignInAttempt> {
  const forwarded: Record<string, string> = opts.ip ? { 'X-Forwarded-For': opts.ip } : {};
  const csrfRes = await fetch(`${base}/api/auth/csrf`, { headers: forwarded });
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const form: Record<string, string> = { csrfToken, username: login, password };
  if (opts.json ?? true) form.json = 'true';
  if (opts.callbackUrl !== undefined) form.callbackUrl = opts.callbackUrl;
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
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
