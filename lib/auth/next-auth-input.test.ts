import { describe, expect, it } from 'vitest';
import { checkAuthRequest, jsonRefusal } from './next-auth-input';

const ORIGIN = 'http://127.0.0.1:3000';
const url = (path: string) => `${ORIGIN}/api/auth/${path}`;
const segments = (path: string) => path.split('?')[0].split('/');

async function refusal(res: Request | Response) {
  expect(res).toBeInstanceOf(Response);
  const r = res as Response;
  expect(r.headers.get('content-type')).toContain('application/json');
  return { status: r.status, body: await r.json(), headers: r.headers };
}

describe('[AUTH] what /api/auth/* accepts', () => {
  it('passes the requests the sign-in form and next-auth make', async () => {
    for (const path of ['csrf', 'session', 'providers', 'signin?callbackUrl=%2Fadmin', 'signin?callbackUrl=http%3A%2F%2F127.0.0.1%3A3000%2Fx']) {
      const req = new Request(url(path));
      expect(await checkAuthRequest(req, segments(path), ORIGIN), path).toBe(req);
    }
    const form = new Request(url('callback/credentials'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'next-auth.callback-url=%2Fadmin%2Frunners' },
      body: 'csrfToken=x&username=root&password=p&json=true',
    });
    expect(await checkAuthRequest(form, ['callback', 'credentials'], ORIGIN)).toBe(form);
  });

  it('turns a JSON object into the form body next-auth reads', async () => {
    const req = new Request(url('callback/credentials'), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '60' },
      body: JSON.stringify({ csrfToken: 'x', username: 'root', password: 'p', json: true, n: 1 }),
    });
    const out = (await checkAuthRequest(req, ['callback', 'credentials'], ORIGIN)) as Request;
    expect(out).toBeInstanceOf(Request);
    expect(out.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(await out.text()))).toEqual({ csrfToken: 'x', username: 'root', password: 'p', json: 'true', n: '1' });
  });

  it.each([
    ['not JSON', '{', 'the body is not valid JSON'],
    ['JSON null', 'null', 'the body must be a JSON object'],
    ['a JSON array', '[1,2]', 'the body must be a JSON object'],
    ['a JSON string', '"x"', 'the body must be a JSON object'],
    ['an object value', '{"callbackUrl":{"x":1}}', 'callbackUrl is invalid'],
    ['a null value', '{"username":null}', 'username is invalid'],
    ['an array value', '{"password":["a"]}', 'password is invalid'],
  ])('refuses a JSON body that is %s with 400', async (_name, body, reason) => {
    const req = new Request(url('callback/credentials'), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await refusal(await checkAuthRequest(req, ['callback', 'credentials'], ORIGIN))).toMatchObject({
      status: 400,
      body: { message: `400 Bad request - ${reason}` },
    });
  });

  it.each(['abc', '::', 'http://', '%', 'javascript:alert(1)', '\\\\evil', 'ftp://x/'])(
    'refuses callbackUrl=%s with 400 (next-auth answers 500)',
    async (value) => {
      const path = `session?callbackUrl=${encodeURIComponent(value)}`;
      expect(await refusal(await checkAuthRequest(new Request(url(path)), ['session'], ORIGIN))).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - callbackUrl is invalid' },
      });
    },
  );

  it('refuses a callback-url cookie that is not a URL, and clears it', async () => {
    const req = new Request(url('session'), { headers: { cookie: 'a=b; next-auth.callback-url=not%20a%20url' } });
    const out = await refusal(await checkAuthRequest(req, ['session'], ORIGIN));
    expect(out.status).toBe(400);
    expect(out.headers.get('set-cookie')).toMatch(/^next-auth\.callback-url=; Path=\/; Max-Age=0/);
  });

  it('refuses GET on the credentials callback and methods next-auth has no use for with 405', async () => {
    const get = await refusal(await checkAuthRequest(new Request(url('callback/credentials')), ['callback', 'credentials'], ORIGIN));
    expect(get).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
    expect(get.headers.get('allow')).toBe('POST');
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const out = await refusal(await checkAuthRequest(new Request(url('session'), { method }), ['session'], ORIGIN));
      expect(out.status).toBe(405);
      expect(out.headers.get('allow')).toBe('GET, POST');
    }
  });

  it('refuses text next-auth would copy into a redirect, and path segments that are not ids', async () => {
    for (const [path, parts] of [
      ['error?error=%0d%0aSet-Cookie:%20x=1', ['error']],
      ['error?error=%C3%A9', ['error']],
      ['error/%0a', ['error', '\n']],
      ['signin/cr%C3%A9dentials', ['signin', 'crédentials']],
    ] as Array<[string, string[]]>) {
      expect((await refusal(await checkAuthRequest(new Request(url(path)), parts, ORIGIN))).status, path).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers HEAD as GET', async () => {
    const out = (await checkAuthRequest(new Request(url('csrf'), { method: 'HEAD' }), ['csrf'], ORIGIN)) as Request;
    expect(out.method).toBe('GET');
  });
});

describe("[AUTH] next-auth's refusals as JSON", () => {
  it('rewrites plain-text and empty 4xx answers, keeping their headers', async () => {
    const text = new Response('Error: This action with HTTP GET is not supported by NextAuth.js', {
      status: 400,
      headers: { 'content-type': 'text/plain', 'set-cookie': 'a=b' },
    });
    const out = await jsonRefusal(text);
    expect(out.status).toBe(400);
    expect(out.headers.get('content-type')).toBe('application/json');
    expect(out.headers.get('set-cookie')).toBe('a=b');
    expect(await out.json()).toEqual({ message: '400 Bad request' });
  });

  it("leaves successes, redirects, JSON and the throttle's text 429 alone", async () => {
    for (const res of [
      new Response('{}', { status: 200 }),
      new Response(null, { status: 302, headers: { location: '/sign-in' } }),
      Response.json({ url: 'x' }, { status: 401 }),
      new Response('Retry later\n', { status: 429, headers: { 'content-type': 'text/plain' } }),
    ]) {
      expect(await jsonRefusal(res)).toBe(res);
    }
  });
});
