// Signing out speaks next-auth's sign-out protocol itself (issue 23: next-auth/react is off the dashboard's
// first load). The requests are checked here; e2e/auth.spec.ts signs out against the real endpoint.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from './sign-out';

const calls: Array<{ url: string; init?: RequestInit }> = [];
function serve(answers: Response[]) {
  vi.stubGlobal('window', { location: { href: 'http://runway.test/admin/runners' } });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return answers.shift()!;
  });
}
afterEach(() => {
  vi.unstubAllGlobals();
  calls.length = 0;
});

describe('signOut', () => {
  it("posts next-auth's CSRF token as a form to /api/auth/signout", async () => {
    serve([Response.json({ csrfToken: 'tok' }), Response.json({ url: 'http://runway.test/' })]);
    await signOut();
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/csrf', '/api/auth/signout']);
    const post = calls[1].init!;
    expect(post.method).toBe('POST');
    expect(post.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(post.body as URLSearchParams)).toEqual({ csrfToken: 'tok', callbackUrl: 'http://runway.test/admin/runners', json: 'true' });
  });

  it('throws when the session was not ended, so the button can be used again', async () => {
    serve([Response.json({ csrfToken: 'tok' }), new Response('no', { status: 403 })]);
    await expect(signOut()).rejects.toThrow('403');
    serve([new Response('down', { status: 502 })]);
    await expect(signOut()).rejects.toThrow('502');
  });

  it('the dashboard shell does not load next-auth/react', () => {
    const dir = path.resolve(import.meta.dirname, '../../components/dashboard');
    for (const f of readdirSync(dir)) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toMatch(/from 'next-auth\/react'/);
  });
});
