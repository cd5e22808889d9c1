// GET /metadata (GitLab 15.2+) and its deprecated alias GET /version: one body, GitLab's fields, GitLab's
// authentication and token scopes.
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createToken, createUser } from '../support/users';
import { readBuildInfo } from '../../lib/config/build-info';
import { ROOT } from '../support/server';

describe('[PLATFORM] metadata', () => {
  it("answers GitLab's fields: the GitLab version Runway answers as, the build's revision, KAS off", async () => {
    const res = await api('GET', '/metadata', { token: rootToken() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      revision: readBuildInfo(ROOT).revision,
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: false,
    });
    // Clients gate features on the version: 15.2 is the least that has this endpoint.
    const [major, minor] = (res.body.version as string).split('.').map(Number);
    expect(major * 100 + minor).toBeGreaterThanOrEqual(1502);
    expect(res.body.revision).not.toBe('unknown');
  });

  it('answers /version with the same body', async () => {
    const [metadata, version] = await Promise.all([api('GET', '/metadata', { token: rootToken() }), api('GET', '/version', { token: rootToken() })]);
    expect(version.status).toBe(200);
    expect(version.body).toEqual(metadata.body);
  });

  it('requires authentication: 401 anonymous, and for a bad token', async () => {
    for (const path of ['/metadata', '/version']) {
      const anon = await api('GET', path);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ message: '401 Unauthorized' });
      expect((await api('GET', path, { token: 'glpat-not-a-token' })).status).toBe(401);
    }
  });

  it('accepts api, read_api, read_user and ai_features tokens, and refuses other scopes with 403', async () => {
    const user = await createUser();
    for (const scope of ['api', 'read_api', 'read_user', 'ai_features']) {
      const token = await createToken(user.id, [scope]);
      const res = await api('GET', '/metadata', { token });
      expect(res.status, scope).toBe(200);
    }
    const token = await createToken(user.id, ['read_repository']);
    const refused = await api('GET', '/metadata', { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'read_user ai_features api read_api',
    });
  });

  it('answers HEAD like GET, without a body, and other methods with the catch-all 404', async () => {
    const head = await api('HEAD', '/metadata', { token: rootToken() });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await api('POST', '/metadata', { token: rootToken() });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ error: '404 Not Found' });
  });
});
