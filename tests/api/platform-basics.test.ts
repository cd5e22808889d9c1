import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';

describe('[PLATFORM] plumbing', () => {
  it('answers unknown /api/v4 routes and methods with GitLab\'s catch-all 404', async () => {
    for (const [method, path] of [['GET', '/no/such/route'], ['PATCH', '/version'], ['GET', '/']]) {
      const res = await api(method, path, { token: rootToken() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
      expect(res.headers.get('content-type')).toBe('application/json');
    }
  });

  it('serves /version to an authenticated caller and 401 to anonymous ones', async () => {
    const ok = await api('GET', '/version', { token: rootToken() });
    expect(ok.status).toBe(200);
    expect(ok.body.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(ok.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    const anon = await api('GET', '/version');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: '401 Unauthorized' });
  });

  it('echoes a well-formed X-Request-Id and invents one otherwise', async () => {
    const echoed = await fetch(`${baseUrl()}/api/v4/version`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const invented = await fetch(`${baseUrl()}/api/v4/version`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(invented.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('reports health, liveness and readiness as GitLab does', async () => {
    const health = await fetch(`${baseUrl()}/-/health`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('GitLab OK');
    const live = await fetch(`${baseUrl()}/-/liveness`);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${baseUrl()}/-/readiness`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', master_check: [{ status: 'ok' }] });
  });
});
