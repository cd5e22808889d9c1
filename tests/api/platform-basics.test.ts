import { describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';

describe('[PLATFORM] plumbing', () => {
  it("answers unknown /api/v4 routes and methods with GitLab's catch-all 404", async () => {
    for (const [method, path] of [
      ['GET', '/no/such/route'],
      ['PATCH', '/version'],
      ['GET', '/'],
    ]) {
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

describe('[PLATFORM] malformed input never becomes a 500', () => {
  // GitLab's HandleMalformedStrings answers text/plain "Bad Request"; Runway keeps the status and answers
  // in JSON like every other /api/v4 error (docs/api.md, differences from GitLab), so clients can always parse the body.
  it('answers a NUL byte anywhere with a JSON 400', async () => {
    for (const res of [
      await fetch(`${baseUrl()}/api/v4/runners/all?tag_list=a%00b`, { headers: { 'PRIVATE-TOKEN': rootToken() } }),
      await fetch(`${baseUrl()}/api/v4/projects/acme%2Fa%00b`, { headers: { 'PRIVATE-TOKEN': rootToken() } }),
      await fetch(`${baseUrl()}/api/v4/user/runners`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': rootToken(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ runner_type: 'instance_type', description: 'a\u0000b' }),
      }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ message: '400 Bad request' });
    }
  });

  it('treats ids beyond the database integer range as not found', async () => {
    const big = '2147483648';
    for (const path of [`/runners/${big}`, `/runners/${big}/jobs`, `/runners/${big}/managers`]) {
      const res = await api('GET', path, { token: rootToken() });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: '404 Runner Not Found' });
    }
    expect((await api('PUT', `/runners/${big}`, { token: rootToken(), json: { description: 'x' } })).body).toEqual({ message: '404 Runner Not Found' });
    expect((await api('POST', `/runners/${big}/reset_authentication_token`, { token: rootToken() })).status).toBe(404);
    expect((await api('GET', `/users/${big}`, { token: rootToken() })).body).toEqual({ message: '404 User Not Found' });
    const sudo = await api('GET', '/user', { token: rootToken(), headers: { Sudo: big } });
    expect(sudo.status).toBe(404);
    expect(sudo.body).toEqual({ message: `404 User with ID or username '${big}' Not Found` });
  });

  it('names the limit of maximum_timeout instead of failing on the integer column', async () => {
    const made = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'instance_type' } });
    expect(made.status).toBe(201);
    const res = await api('PUT', `/runners/${made.body.id}`, { token: rootToken(), json: { maximum_timeout: 2147483648 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { maximum_timeout: ['must be less than or equal to 2147483647'] } });
    await api('DELETE', `/runners/${made.body.id}`, { token: rootToken() });
  });
});

describe('[PLATFORM] HEAD and retired versions', () => {
  it('answers HEAD on GET routes with the GET status and no body', async () => {
    const res = await fetch(`${baseUrl()}/api/v4/version`, { method: 'HEAD', headers: { 'PRIVATE-TOKEN': rootToken() } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
  });

  it('answers /api/v3 with 410', async () => {
    const direct = await fetch(`${baseUrl()}/api/v3/projects`);
    expect(direct.status).toBe(410);
    expect(await direct.json()).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it("sends GitLab's sign-in address, /users/sign_in, to the sign-in page", async () => {
    const res = await fetch(`${baseUrl()}/users/sign_in`, { redirect: 'manual' });
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get('location')!, baseUrl()).pathname).toBe('/sign-in');
  });
});
