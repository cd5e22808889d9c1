// applyCors on a real loopback server: what each kind of request gets, for an allowlist and for `*`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../config/cors-origins';
import { applyCors } from './cors';

let server: http.Server;
let policy = parseCorsOrigins('*');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (applyCors(req, res, path, policy)) return;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(method: string, path: string, headers: Record<string, string>) {
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      })
      .on('error', reject)
      .end();
  });
}

const PREFLIGHT = { 'Access-Control-Request-Method': 'DELETE', 'Access-Control-Request-Headers': 'PRIVATE-TOKEN' };

describe('CORS with *', () => {
  it('answers every origin with *, preflights included, never with credentials', async () => {
    policy = parseCorsOrigins('*');
    const res = await send('GET', '/api/v4/version', { Origin: 'https://anywhere.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('X-Total-Pages');
    const pre = await send('OPTIONS', '/api/v4/runners/1', { Origin: 'null', ...PREFLIGHT });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toContain('DELETE');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('adds nothing to a request without Origin but Vary, and nothing at all outside /api/v4', async () => {
    const plain = await send('GET', '/api/v4/version', {});
    expect(Object.keys(plain.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(plain.headers.vary).toBe('Origin');
    for (const path of ['/api/v4x', '/api/v3/version', '/oauth/token', '/']) {
      const res = await send('OPTIONS', path, { Origin: 'https://a.example', ...PREFLIGHT });
      expect(res.status, path).toBe(200);
      expect(res.headers.vary, path).toBeUndefined();
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    }
    expect((await send('GET', '/api/v4', { Origin: 'https://a.example' })).headers['access-control-allow-origin']).toBe('*');
  });
});

describe('CORS with an allowlist', () => {
  it('echoes a listed origin and gives others a bare 204 preflight', async () => {
    policy = parseCorsOrigins('https://app.example.com');
    const ok = await send('OPTIONS', '/api/v4/projects', { Origin: 'https://app.example.com', ...PREFLIGHT });
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-max-age']).toBe('7200');
    const other = await send('OPTIONS', '/api/v4/projects', { Origin: 'https://app.example.com.evil.example', ...PREFLIGHT });
    expect(other.status).toBe(204);
    expect(Object.keys(other.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('is off with an empty list', async () => {
    policy = parseCorsOrigins('');
    const res = await send('OPTIONS', '/api/v4/projects', { Origin: 'https://app.example.com', ...PREFLIGHT });
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBeUndefined();
  });
});
