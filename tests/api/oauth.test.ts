// /oauth/*: Runway has no OAuth provider. Its paths answer Doorkeeper's JSON errors, never the dashboard's
// page or a redirect to the sign-in page; a personal access token works as a Bearer token on /api/v4.
import { describe, expect, it } from 'vitest';
import { baseUrl, rootToken } from '../support/api';
import { loopbackRequest } from '../support/server';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function oauth(
  method: string,
  path: string,
  opts: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  // Never HTML, never a redirect: JSON whatever the answer.
  expect(res.status >= 300 && res.status < 400, `${method} ${path}: ${res.status}`).toBe(false);
  expect(res.headers.get('location'), `${method} ${path}`).toBeNull();
  expect(res.headers.get('content-type'), `${method} ${path}`).toBe('application/json');
  return { status: res.status, headers: res.headers, body: method === 'HEAD' ? undefined : JSON.parse(text) };
}

const INVALID_CLIENT = {
  error: 'invalid_client',
  error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
};
const UNSUPPORTED_GRANT = { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' };
const INVALID_TOKEN = { error: 'invalid_token', error_description: 'The access token is invalid' };

describe('[PLATFORM] /oauth without an OAuth provider', () => {
  it('POST /oauth/token: every grant type is unsupported; a missing one is an invalid request', async () => {
    const forms: Record<string, string>[] = [
      { grant_type: 'password', username: 'root', password: 'whatever' },
      { grant_type: 'authorization_code', code: 'abc', client_id: 'x', client_secret: 'y', redirect_uri: 'http://127.0.0.1/cb' },
      { grant_type: 'refresh_token', refresh_token: 'abc' },
      { grant_type: 'client_credentials' },
      { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'abc' },
      { grant_type: 'no-such-grant' },
    ];
    for (const form of forms) {
      const res = await oauth('POST', '/oauth/token', { form });
      expect(res.status, form.grant_type).toBe(400);
      expect(res.body).toEqual(UNSUPPORTED_GRANT);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    // JSON bodies too (some clients post JSON).
    expect((await oauth('POST', '/oauth/token', { json: { grant_type: 'password' } })).body).toEqual(UNSUPPORTED_GRANT);
    const missing = await oauth('POST', '/oauth/token', { form: { username: 'root' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: grant_type.' });
  });

  it('a malformed body is an invalid request, not a 500', async () => {
    const res = await fetch(`${baseUrl()}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"grant_type":',
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
  });

  it('GET /oauth/token/info and /oauth/userinfo: 401 invalid_token, with or without a token (a personal access token is not an OAuth token)', async () => {
    for (const path of ['/oauth/token/info', '/oauth/userinfo']) {
      const tokens: Record<string, string>[] = [{}, { Authorization: `Bearer ${rootToken()}` }, { Authorization: 'Bearer nonsense' }];
      for (const headers of tokens) {
        const res = await oauth('GET', path, { headers });
        expect(res.status, path).toBe(401);
        expect(res.body).toEqual(INVALID_TOKEN);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token is invalid"');
      }
    }
    expect((await oauth('POST', '/oauth/userinfo')).status).toBe(401);
  });

  it('POST /oauth/revoke: unknown clients fail, a missing token is an invalid request, an unknown token is 200 (RFC 7009)', async () => {
    const withClient = await oauth('POST', '/oauth/revoke', { form: { token: 'abc', client_id: 'x', client_secret: 'y' } });
    expect(withClient.status).toBe(401);
    expect(withClient.body).toEqual(INVALID_CLIENT);
    const basic = await oauth('POST', '/oauth/revoke', {
      form: { token: 'abc' },
      headers: { Authorization: `Basic ${Buffer.from('x:y').toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    const missing = await oauth('POST', '/oauth/revoke', { form: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: token.' });
    const unknown = await oauth('POST', '/oauth/revoke', { form: { token: rootToken() } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({});
    // The personal access token sent there was not revoked.
    const still = await fetch(`${baseUrl()}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': rootToken() } });
    expect(still.status).toBe(200);
  });

  it('GET and POST /oauth/authorize: JSON errors for the client, never a redirect (not even to redirect_uri)', async () => {
    const missing = await oauth('GET', '/oauth/authorize?response_type=code');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: client_id.' });
    const query = new URLSearchParams({ client_id: 'abc', response_type: 'code', redirect_uri: 'http://127.0.0.1:1/cb', scope: 'api', state: 's' });
    const unknown = await oauth('GET', `/oauth/authorize?${query}`);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(INVALID_CLIENT);
    expect((await oauth('POST', '/oauth/authorize', { form: Object.fromEntries(query) })).body).toEqual(INVALID_CLIENT);
  });

  it('POST /oauth/introspect: the caller cannot authenticate', async () => {
    expect((await oauth('POST', '/oauth/introspect', { form: { token: 'abc' } })).body).toEqual(INVALID_CLIENT);
    const bearer = await oauth('POST', '/oauth/introspect', { form: { token: 'abc' }, headers: { Authorization: 'Bearer abc' } });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toEqual(INVALID_TOKEN);
  });

  it('other /oauth paths and methods: a JSON 404, not the sign-in page', async () => {
    for (const [method, path] of [
      ['GET', '/oauth'],
      ['GET', '/oauth/applications'],
      ['GET', '/oauth/authorized_applications'],
      ['POST', '/oauth/authorize_device'],
      ['GET', '/oauth/token'],
      ['DELETE', '/oauth/revoke'],
      ['HEAD', '/oauth/applications'],
    ]) {
      const res = await oauth(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      if (method !== 'HEAD') expect(res.body).toEqual({ error: '404 Not Found' });
    }
  });

  it('refuses malformed paths in JSON, as on the API, before Next.js routes them', async () => {
    // Escapes that are not UTF-8: Next.js would answer a plain-text 500.
    expect((await oauth('GET', '/oauth/token/%ff')).status).toBe(400);
    // A dot segment: Next.js would resolve it to the dashboard's root and redirect to sign in. Sent raw,
    // as fetch would resolve it itself.
    const { port } = new URL(baseUrl());
    const dot = await loopbackRequest(Number(port), '/oauth/%2e%2e', { method: 'POST' });
    expect(dot.status).toBe(404);
    expect(dot.headers['content-type']).toBe('application/json');
  });

  it("a personal access token is accepted as a Bearer token on /api/v4 (python-gitlab's oauth_token)", async () => {
    const res = await fetch(`${baseUrl()}/api/v4/user`, { headers: { Authorization: `Bearer ${rootToken()}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).username).toBe('root');
  });
});
