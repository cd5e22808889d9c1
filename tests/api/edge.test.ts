// Hostile requests at the edge (issue 8): malformed cookies and %-escapes, NUL bytes, deep nesting,
// oversized bodies and requests Node's HTTP parser refuses. Every answer is a 4xx with a JSON body.
import net from 'node:net';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { ROOT_PASSWORD } from '../support/server';
import { signIn } from '../support/users';

const BAD_COOKIE = '_ga=%E0%A4%A';

async function expectJsonError(res: Response, status: number, body?: unknown) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const parsed: unknown = await res.json();
  if (body !== undefined) expect(parsed).toEqual(body);
  return parsed;
}

/** Sends raw bytes on a fresh connection and returns everything the server wrote before closing. */
function rawExchange(bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', (e) => (out ? resolve(out) : reject(e)));
    setTimeout(() => socket.destroy(), 5000);
  });
}

function parseRaw(raw: string) {
  const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
  const status = Number(head.split(' ')[1]);
  const contentType = /\r\ncontent-type: *([^\r]+)/i.exec(head)?.[1];
  return { status, contentType, body: body ? (JSON.parse(body) as unknown) : undefined };
}

describe('[EDGE] cookies', () => {
  it("ignores a malformed cookie that is not Runway's: the request is simply anonymous, or authenticated by its token", async () => {
    const anon = await fetch(`${baseUrl()}/api/v4/version`, { headers: { Cookie: BAD_COOKIE } });
    await expectJsonError(anon, 401, { message: '401 Unauthorized' });
    const withToken = await fetch(`${baseUrl()}/api/v4/version`, { headers: { Cookie: BAD_COOKIE, 'PRIVATE-TOKEN': rootToken() } });
    expect(withToken.status).toBe(200);
  });

  it('keeps a signed-in browser signed in next to a malformed foreign cookie, for the API, next-auth and pages', async () => {
    const session = await signIn('root', ROOT_PASSWORD);
    const cookie = `${BAD_COOKIE}; ${session.cookie}; other=%zz`;
    const user = await fetch(`${baseUrl()}/api/v4/user`, { headers: { Cookie: cookie } });
    expect(user.status).toBe(200);
    expect((await user.json()).username).toBe('root');
    const write = await fetch(`${baseUrl()}/api/v4/user/runners`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ runner_type: 'instance_type', description: 'cookie-check' }),
    });
    expect(write.status).toBe(201);
    const nextAuth = await fetch(`${baseUrl()}/api/auth/session`, { headers: { Cookie: cookie } });
    expect(nextAuth.status).toBe(200);
    expect((await nextAuth.json()).user).toBeTruthy();
    // A dashboard page renders for the signed-in user instead of redirecting to sign-in.
    const page = await fetch(`${baseUrl()}/admin/runners`, { headers: { Cookie: cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
  });

  it('lets a browser carrying a malformed foreign cookie sign in through next-auth', async () => {
    const csrfRes = await fetch(`${baseUrl()}/api/auth/csrf`, { headers: { Cookie: BAD_COOKIE } });
    expect(csrfRes.status).toBe(200);
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const csrfCookie = csrfRes.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const res = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `${BAD_COOKIE}; ${csrfCookie}` },
      body: new URLSearchParams({ csrfToken, username: 'root', password: ROOT_PASSWORD, json: 'true' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('next-auth.session-token='))).toBe(true);
  });

  it('treats a malformed session cookie as not signed in', async () => {
    const res = await fetch(`${baseUrl()}/api/v4/user`, { headers: { Cookie: 'next-auth.session-token=%E0%A4%A' } });
    await expectJsonError(res, 401, { message: '401 Unauthorized' });
    const page = await fetch(`${baseUrl()}/admin/runners`, { headers: { Cookie: 'next-auth.session-token=%E0%A4%A' }, redirect: 'manual' });
    expect(page.status).toBeLessThan(500);
  });
});

describe('[EDGE] malformed paths', () => {
  it('answers undecodable %-escapes and NUL bytes in the path with a JSON 400, before routing', async () => {
    for (const path of ['/projects/%ff', '/runners/%', '/projects/1/merge_requests/%c0%af/commits', '/projects/%00', '/runners/1%00/jobs', '/no/such/%e0%a4']) {
      for (const token of [undefined, rootToken()]) {
        const res = await fetch(`${baseUrl()}/api/v4${path}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
        await expectJsonError(res, 400, { message: '400 Bad request' });
      }
    }
  });

  it('answers dot segments and paths beside /api/v4 with the JSON catch-all 404, not an HTML page', async () => {
    for (const path of [
      '/api/v4/%2e%2e',
      '/api/v4/./%2e%2e/version',
      '/api/v4/../x',
      '/api/v4/projects/..',
      '/api/v4%20',
      '/api/v4.json',
      '/api/v5/projects',
      '/api/',
      '/api',
    ]) {
      const res = await new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
        // http.request sends the path as written (fetch would resolve the dot segments itself).
        const { hostname, port } = new URL(baseUrl());
        http
          .get({ host: hostname, port, path, headers: { 'PRIVATE-TOKEN': rootToken() } }, (r) => {
            let body = '';
            r.on('data', (d) => (body += d));
            r.on('end', () => resolve({ status: r.statusCode!, type: r.headers['content-type'], body }));
          })
          .on('error', reject);
      });
      expect(res, path).toMatchObject({ status: 404, type: 'application/json' });
      expect(JSON.parse(res.body)).toEqual({ error: '404 Not Found' });
    }
  });

  it('still routes well-formed escapes (an encoded project path is a lookup, not an error)', async () => {
    const res = await api('GET', '/projects/no-such%2Fproject', { token: rootToken() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('[EDGE] nesting', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it('refuses JSON nested 10,000 levels with a JSON 400 (no stack overflow), token or not', async () => {
    for (const headers of [{}, { 'PRIVATE-TOKEN': rootToken() }] as Record<string, string>[]) {
      const res = await fetch(`${baseUrl()}/api/v4/user/runners`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: `{"runner_type":"instance_type","info":${deep(10_000)}}`,
      });
      await expectJsonError(res, 400, { error: 'The parameters are nested more than 100 levels deep' });
    }
  });

  it('refuses query and form keys nested past 100 levels, and accepts ordinary nesting', async () => {
    const key = `info${'[a]'.repeat(150)}`;
    const query = await fetch(`${baseUrl()}/api/v4/runners/all?${key}=1`, { headers: { 'PRIVATE-TOKEN': rootToken() } });
    await expectJsonError(query, 400);
    const form = await fetch(`${baseUrl()}/api/v4/user/runners`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `runner_type=instance_type&${key}=1`,
    });
    await expectJsonError(form, 400);
    const ok = await fetch(`${baseUrl()}/api/v4/user/runners`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ runner_type: 'instance_type', description: 'nested-ok', extra: JSON.parse(deep(50)) }),
    });
    expect(ok.status).toBe(201);
  });

  it('does not let __proto__ keys reach Object.prototype', async () => {
    const res = await fetch(`${baseUrl()}/api/v4/runners/all?__proto__[per_page]=1&__proto__[admin]=true`, { headers: { 'PRIVATE-TOKEN': rootToken() } });
    expect(res.status).toBe(200);
    const after = await api('GET', '/runners/all', { token: rootToken(), query: { per_page: 3 } });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-per-page')).toBe('3');
    const anon = await api('GET', '/runners/all');
    expect(anon.status).toBe(401);
  });
});

describe('[EDGE] body size', () => {
  it('answers a declared body past the limit with 413 JSON without reading it', async () => {
    const status = await new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
      const req = http.request(`${baseUrl()}/api/v4/user/runners`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json', 'Content-Length': String(50 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.write('{"runner_type":"instance_type"'); // a few bytes of the announced 50 MB, then wait
    });
    expect(status.status).toBe(413);
    expect(status.type).toBe('application/json');
    expect(JSON.parse(status.body)).toEqual({ message: '413 Request Entity Too Large' });
  });

  it('answers an anonymous large chunked body on an authenticated endpoint with 401 before reading it', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${baseUrl()}/api/v4/user/runners`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      req.write('{"runner_type":"instance_type","description":"'); // chunked, never finished
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ message: '401 Unauthorized' });
  });
});

describe('[EDGE] body size outside /api/v4', () => {
  it('closes the connection of a chunked body past the limit sent to next-auth, instead of buffering it', async () => {
    const MiB = 1024 * 1024;
    const outcome = await new Promise<{ sent: number; closed: boolean }>((resolve) => {
      const req = http.request(`${baseUrl()}/api/auth/callback/credentials`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      let sent = 0;
      const chunk = Buffer.alloc(MiB, 'a');
      const done = (closed: boolean) => resolve({ sent, closed });
      req.on('error', () => done(true));
      req.on('response', (res) => {
        res.resume();
        done(false);
      });
      const pump = () => {
        if (req.destroyed) return;
        if (sent >= 40 * MiB) return void req.end();
        sent += MiB;
        if (req.write(chunk)) setImmediate(pump);
        else req.once('drain', () => setImmediate(pump));
      };
      pump();
    });
    expect(outcome.closed).toBe(true);
    expect(outcome.sent).toBeLessThan(40 * MiB);
  });
});

describe('[EDGE] requests the HTTP parser refuses', () => {
  it('answers an over-long request line and over-long headers with 431 JSON', async () => {
    const longLine = parseRaw(await rawExchange(`GET /api/v4/version?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(longLine).toEqual({ status: 431, contentType: 'application/json', body: { message: '431 Request Header Fields Too Large' } });
    const longHeader = parseRaw(await rawExchange(`GET /api/v4/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`));
    expect(longHeader.status).toBe(431);
    expect(longHeader.contentType).toBe('application/json');
  });

  it('answers malformed request syntax with 400 JSON', async () => {
    for (const bytes of [
      'GARBAGE\r\n\r\n',
      'GET /api/v4/version HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'POST /api/v4/user HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]) {
      expect(parseRaw(await rawExchange(bytes))).toEqual({ status: 400, contentType: 'application/json', body: { message: '400 Bad request' } });
    }
  });

  it('answers a refused HEAD request without a body, as HTTP requires', async () => {
    // Raw UTF-8 in the request line is refused by the parser; a body after a HEAD answer breaks the client.
    const raw = await rawExchange('HEAD /api/v4/groups/\u00e9/projects HTTP/1.1\r\nHost: x\r\n\r\n');
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(body).toBe('');
  });
});
