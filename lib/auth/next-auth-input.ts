// What next-auth's endpoints (/api/auth/*) accept, checked before next-auth sees a request, and the JSON
// their refusals are given. next-auth itself answers bad input with a 500 (a callbackUrl that is not a
// URL, a body that is not JSON, GET on the credentials callback, header-breaking text it copies into a
// redirect) or with plain text; here every refusal is a 4xx in GitLab's {"message": ...} shape.

// next-auth reads a JSON body only when its type says application/json (a form body is always strings).
const JSON_BODY = /application\/json/i;
// Action and provider ids are next-auth's (csrf, session, callback, credentials...); the `error` page code
// is copied into a redirect unescaped. Anything else is not ours to pass on.
const SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;
const ERROR_CODE = /^[A-Za-z0-9_-]{1,64}$/;
const CALLBACK_COOKIES = ['next-auth.callback-url', '__Secure-next-auth.callback-url'];
const REASONS: Record<number, string> = {
  400: '400 Bad request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
};

export function authError(status: number, reason?: string, headers: Record<string, string> = {}): Response {
  const base = REASONS[status] ?? `${status} Error`;
  return Response.json({ message: reason ? `${base} - ${reason}` : base }, { status, headers });
}

/** next-auth's own test of a callbackUrl (core/lib/assert.ts), which answers a 500 when it fails. */
function isHttpUrl(value: string, base: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith('/') ? base : undefined).protocol);
  } catch {
    return false;
  }
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

/** A JSON body as the form body next-auth's client sends: an object of strings (numbers and booleans as text). */
function formFromJson(text: string): URLSearchParams | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not valid JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body must be a JSON object';
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) return `${key} is invalid`;
    form.append(key, String(value));
  }
  return form;
}

/**
 * The request to hand to next-auth, or the 4xx answering it. `segments` are the path after /api/auth/;
 * `origin` is the site's (a relative callbackUrl is resolved against it, as next-auth does).
 */
export async function checkAuthRequest(req: Request, segments: string[], origin: string): Promise<Request | Response> {
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (method !== 'GET' && method !== 'POST') return authError(405, undefined, { Allow: 'GET, POST' });
  if (!segments.length || !segments.every((s) => SEGMENT.test(s))) return authError(404);
  // The credentials provider has no GET callback (next-auth throws on it).
  if (method === 'GET' && segments[0] === 'callback') return authError(405, undefined, { Allow: 'POST' });
  const url = new URL(req.url);
  const callbackUrl = url.searchParams.get('callbackUrl');
  if (callbackUrl !== null && !isHttpUrl(callbackUrl, origin)) return authError(400, 'callbackUrl is invalid');
  const error = url.searchParams.get('error');
  if (error !== null && !ERROR_CODE.test(error)) return authError(400, 'error is invalid');
  for (const name of CALLBACK_COOKIES) {
    const value = cookieValue(req, name);
    // Cleared too, so the browser that holds it can sign in again.
    const clear = `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith('__Secure-') ? '; Secure' : ''}`;
    if (value !== undefined && !isHttpUrl(value, origin)) return authError(400, 'the callback-url cookie is invalid', { 'Set-Cookie': clear });
  }
  const headers = new Headers(req.headers);
  if (method === 'GET') return req.method === 'GET' ? req : new Request(req.url, { method, headers });
  if (!JSON_BODY.test(headers.get('content-type') ?? '')) return req;
  const form = formFromJson(await req.text());
  if (typeof form === 'string') return authError(400, form);
  headers.set('content-type', 'application/x-www-form-urlencoded');
  headers.delete('content-length');
  return new Request(req.url, { method, headers, body: form.toString() });
}

/** next-auth's refusals (plain text, or no body) as JSON; GitLab's text/plain 429 of the throttle stays. */
export async function jsonRefusal(res: Response): Promise<Response> {
  if (res.status < 400 || res.status === 429 || (res.headers.get('content-type') ?? '').includes('application/json')) return res;
  const headers = new Headers(res.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  await res.body?.cancel();
  const refusal = authError(res.status);
  headers.forEach((value, key) => refusal.headers.append(key, value));
  return refusal;
}
