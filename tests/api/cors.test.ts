// CORS on /api/v4 with RUNWAY_CORS_ORIGINS, through raw requests: a Runway of its own with an allowlist,
// and the suite's server (no allowlist), which must send no CORS header at all.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownServer, type OwnServer } from '../support/own-server';
import { baseUrl } from '../support/api';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

let own: OwnServer;
let base: string;
let token: string;

beforeAll(async () => {
  // The second origin is written with its default port and a trailing slash: browsers send neither.
  own = await ownServer('cors', { RUNWAY_CORS_ORIGINS: `${ALLOWED}, http://tools.example.com:80/` });
  ({ base, rootToken: token } = own);
}, 300_000);

afterAll(() => own?.stop());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request exactly as given: no client adds or drops a header (Origin included). */
function raw(at: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${at}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const corsHeaders = (h: http.IncomingHttpHeaders) => Object.keys(h).filter((k) => k.startsWith('access-control-'));
const preflight = (origin: string, requested = 'private-token,content-type') => ({
  Origin: origin,
  'Access-Control-Request-Method': 'POST',
  'Access-Control-Request-Headers': requested,
});

describe('[PLATFORM] CORS on /api/v4 with an allowlist', () => {
  it('lets an allowed origin read answers and their pagination headers, never with credentials', async () => {
    const res = await raw(base, 'GET', '/api/v4/projects?per_page=1', { Origin: ALLOWED, 'PRIVATE-TOKEN': token });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    const exposed = String(res.headers['access-control-expose-headers']).split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['Link', 'X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page']));
    expect(res.headers.vary).toContain('Origin');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    // The other configured origin matches as browsers serialise it (no default port, no slash).
    const tools = await raw(base, 'GET', '/api/v4/version', { Origin: 'http://tools.example.com', 'PRIVATE-TOKEN': token });
    expect(tools.headers['access-control-allow-origin']).toBe('http://tools.example.com');
  });

  it('answers the preflight of an allowed origin 204 with methods, headers and max-age', async () => {
    const res = await raw(base, 'OPTIONS', '/api/v4/projects', preflight(ALLOWED));
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['private-token', 'authorization', 'content-type', 'sudo', 'job-token']));
    expect(res.headers['access-control-max-age']).toBe('7200');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toContain('Origin');
  });

  it('gives another origin no CORS header: its reads succeed on the server but the browser withholds them', async () => {
    const res = await raw(base, 'GET', '/api/v4/version', { Origin: OTHER, 'PRIVATE-TOKEN': token });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.headers.vary).toContain('Origin');
    const pre = await raw(base, 'OPTIONS', '/api/v4/projects', preflight(OTHER));
    expect(pre.status).toBe(204);
    expect(corsHeaders(pre.headers)).toEqual([]);
    // `null` (sandboxed frames, file: pages) is not an allowed origin either.
    expect(corsHeaders((await raw(base, 'GET', '/api/v4/version', { Origin: 'null' })).headers)).toEqual([]);
  });

  it('never allows credentials: a request carrying the session cookie gets no Access-Control-Allow-Credentials', async () => {
    const res = await raw(base, 'GET', '/api/v4/user', { Origin: ALLOWED, Cookie: 'authjs.session-token=whatever' });
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('covers errors, the wrapper refusals and the runner fast path, but no path outside /api/v4', async () => {
    const notFound = await raw(base, 'GET', '/api/v4/no/such/route', { Origin: ALLOWED });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['access-control-allow-origin']).toBe(ALLOWED);
    const tooLarge = await raw(base, 'POST', '/api/v4/projects', { Origin: ALLOWED, 'Content-Length': String(1024 ** 3) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers['access-control-allow-origin']).toBe(ALLOWED);
    const verify = await raw(base, 'POST', '/api/v4/runners/verify', { Origin: ALLOWED, 'Content-Type': 'application/json' }, '{"token":"glrt-nope"}');
    expect(verify.status).toBe(403);
    expect(verify.headers['access-control-allow-origin']).toBe(ALLOWED);
    for (const path of ['/oauth/token', '/-/readiness', '/api/v3/projects', '/sign-in']) {
      const res = await raw(base, 'GET', path, { Origin: ALLOWED });
      expect(corsHeaders(res.headers), path).toEqual([]);
    }
    // An OPTIONS that is not a preflight (no Access-Control-Request-Method) is the API's own 404.
    const options = await raw(base, 'OPTIONS', '/api/v4/version', { Origin: ALLOWED });
    expect(options.status).toBe(404);
  });
});

describe('[PLATFORM] CORS off by default', () => {
  it('sends no CORS header and no Vary: Origin, and leaves OPTIONS to the API (404)', async () => {
    const res = await raw(baseUrl(), 'GET', '/api/v4/version', { Origin: ALLOWED });
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(String(res.headers.vary ?? '')).not.toContain('Origin');
    const pre = await raw(baseUrl(), 'OPTIONS', '/api/v4/projects', preflight(ALLOWED));
    expect(pre.status).toBe(404);
    expect(corsHeaders(pre.headers)).toEqual([]);
  });
});
