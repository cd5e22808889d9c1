// fetch() from a chosen loopback source address (127.x.y.z): with the shipped defaults Runway trusts no proxy,
// so the client address it records and throttles by is the socket's. A test that needs "another client"
// connects from another loopback address instead of claiming one in X-Forwarded-For.
import http from 'node:http';

/** A real Response for `init` sent to `url` (http, loopback) from `localAddress`. Redirects are not followed. */
export function fetchFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    // As fetch sends them: a User-Agent, and a body with its length (not chunked).
    const headers: Record<string, string> = { 'User-Agent': 'node', ...init.headers };
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    const req = http.request(url, { method: init.method ?? 'GET', headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
        }
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

let next = 0;
// Per process (test files run in parallel workers), so two workers never share an address.
const block = 1 + (process.pid % 250);

/**
 * A loopback address no other sign-in of this run used: every sign-in of the suite is its own client, as the
 * many users the tests stand for would be, so GitLab's sign-in throttle (10 a minute per address) counts
 * each apart while the throttle itself stays at its default.
 */
export function freshLoopbackAddress(): string {
  const n = next++;
  return `127.${block}.${Math.floor(n / 250) % 250}.${1 + (n % 250)}`;
}
