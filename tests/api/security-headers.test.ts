// Issue 20, defect 3: pages could be framed by another site and no response carried hardening headers.
// Every answer (pages, the API, its 404s, the runner fast path, health checks, static assets and the
// wrapper's own refusals) now carries GitLab's set; pages add a nonce-based Content-Security-Policy.
// HSTS needs an https external URL (lib/server/security-headers.test.ts): this server's is http.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { ROOT_PASSWORD } from '../support/server';
import { signIn } from '../support/users';

/** Headers as a plain object; a header sent twice would read "a, b" and fail the exact comparisons. */
function expectHardened(headers: Headers | http.IncomingHttpHeaders, what: string) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined));
  expect(get('x-frame-options'), what).toBe('SAMEORIGIN');
  expect(get('x-content-type-options'), what).toBe('nosniff');
  expect(get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(get('content-security-policy'), what).toContain("frame-ancestors 'self'");
  expect(get('strict-transport-security') ?? null, what).toBeNull();
}

/** A page's policy and the nonce it allows scripts by. */
function pagePolicy(res: Response) {
  const policy = res.headers.get('content-security-policy') ?? '';
  const nonce = /script-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
  return { policy, nonce };
}

/** Every <script> tag of the page carries `nonce` (Next.js reads it from the request's policy). */
function expectScriptsCarry(html: string, nonce: string) {
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
}

describe('[SECURITY] hardening headers on every response', () => {
  it('a page carries them and a Content-Security-Policy whose fresh nonce is on every script', async () => {
    const first = await fetch(`${baseUrl()}/sign-in`);
    expect(first.status).toBe(200);
    expectHardened(first.headers, 'the sign-in page');
    const { policy, nonce } = pagePolicy(first);
    expect(policy).toContain("'strict-dynamic'");
    // The page's own policy replaced the one for what is not a page (two policies would both be enforced).
    expect(policy).not.toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("object-src 'none'");
    expect(nonce).toBeTruthy();
    expectScriptsCarry(await first.text(), nonce!);
    // A nonce is worth something only if the next visitor gets another one (the page is rendered per request).
    const second = await fetch(`${baseUrl()}/sign-in`);
    expect(pagePolicy(second).nonce).not.toBe(nonce);
  });

  it("a signed-in admin's runner page, and the redirect a signed-out visitor gets instead", async () => {
    const runner = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'instance_type', description: 'framed' } });
    expect(runner.status).toBe(201);
    const session = await signIn('root', ROOT_PASSWORD);
    const page = await fetch(`${baseUrl()}/admin/runners/${runner.body.id}`, { headers: { Cookie: session.cookie } });
    expect(page.status).toBe(200);
    expectHardened(page.headers, 'the runner page');
    const { nonce } = pagePolicy(page);
    expect(nonce).toBeTruthy();
    expectScriptsCarry(await page.text(), nonce!);
    const signedOut = await fetch(`${baseUrl()}/admin/runners/${runner.body.id}`, { redirect: 'manual' });
    expect(signedOut.status).toBe(307);
    expectHardened(signedOut.headers, 'the sign-in redirect');
  });

  it('an API answer, its catch-all 404 and a refused malformed path', async () => {
    const version = await api('GET', '/version', { token: rootToken() });
    expect(version.status).toBe(200);
    expectHardened(version.headers, 'GET /version');
    // Not a page: nothing in a JSON answer may load or run if a browser is sent to it.
    expect(version.headers.get('content-security-policy')).toContain("default-src 'none'");
    const missing = await api('GET', '/no/such/route', { token: rootToken() });
    expect(missing.status).toBe(404);
    expectHardened(missing.headers, 'the catch-all 404');
    const malformed = await fetch(`${baseUrl()}/api/v4/projects/%ff`);
    expect(malformed.status).toBe(400);
    expectHardened(malformed.headers, 'a malformed path');
  });

  it("the runner fast path's answers", async () => {
    const verify = await api('POST', '/runners/verify', { json: { token: 'glrt-not-a-runner-token' } });
    expect(verify.status).toBe(403);
    expectHardened(verify.headers, 'POST /runners/verify');
    const poll = await api('POST', '/jobs/request', { json: { token: 'glrt-not-a-runner-token' } });
    expect(poll.status).toBe(403);
    expectHardened(poll.headers, 'POST /jobs/request');
  });

  it('health checks and static assets', async () => {
    for (const path of ['/-/health', '/-/liveness', '/-/readiness', '/favicon.ico']) {
      const res = await fetch(`${baseUrl()}${path}`);
      expect(res.status, path).toBe(200);
      expectHardened(res.headers, path);
    }
    const html = await (await fetch(`${baseUrl()}/sign-in`)).text();
    const script = /<script\b[^>]*\bsrc="(\/_next\/static\/[^"]+)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await fetch(`${baseUrl()}${script}`);
    expect(asset.status).toBe(200);
    expectHardened(asset.headers, script!);
  });

  it("a request Node's HTTP parser refuses (over-long headers: 431)", async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(`${baseUrl()}/api/v4/version`, { headers: { 'X-Big': 'b'.repeat(20_000) } }, resolve);
      req.on('error', reject);
    });
    answer.resume();
    expect(answer.statusCode).toBe(431);
    expectHardened(answer.headers, 'the 431 answer');
  });
});
