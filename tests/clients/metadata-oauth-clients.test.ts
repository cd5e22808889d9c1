// Clients reading the instance's metadata, and authenticating with a personal access token as an OAuth
// bearer token (Runway has no OAuth provider; /api/v4 accepts the token either way).
import { spawnSync } from 'node:child_process';
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api';
import { createToken, createUser } from '../support/users';

describe('[PLATFORM] clients: metadata and bearer tokens', () => {
  it("gitbeaker's Metadata.show() with a read_user token, and with the token as oauthToken", async () => {
    const user = await createUser();
    const token = await createToken(user.id, ['read_user']);
    const metadata = await new Gitlab({ host: baseUrl(), token }).Metadata.show();
    expect(metadata).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/), enterprise: false, kas: { enabled: false, externalUrl: null } });
    const viaBearer = await new Gitlab({ host: baseUrl(), oauthToken: user.token }).Users.showCurrentUser();
    expect(viaBearer.username).toBe(user.username);
  });

  it("python-gitlab's version() and oauth_token", async () => {
    const user = await createUser();
    const script = [
      'import json, os, gitlab',
      'gl = gitlab.Gitlab(os.environ["RUNWAY_URL"], oauth_token=os.environ["RUNWAY_TOKEN"])',
      'gl.auth()',
      'print(json.dumps({"username": gl.user.username, "version": list(gl.version())}))',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], {
      env: { ...process.env, RUNWAY_URL: baseUrl(), RUNWAY_TOKEN: user.token },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim());
    expect(seen.username).toBe(user.username);
    expect(seen.version[0]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(seen.version[1]).not.toBe('unknown');
  });
});
