import { describe, expect, it } from 'vitest';
import { inheritedGitEnv, runGit } from './git';

describe('[REPOSITORIES] the environment git runs with', () => {
  it('keeps paths, proxies and CA settings, and drops Runway secrets and anything else', () => {
    const env = inheritedGitEnv({
      PATH: '/usr/bin',
      HOME: '/home/runway',
      https_proxy: 'http://proxy.internal:3128',
      NO_PROXY: 'localhost',
      SSL_CERT_FILE: '/etc/ssl/ca.pem',
      DATABASE_URL: 'postgresql://runway:secret@db/runway',
      NEXTAUTH_SECRET: 'x'.repeat(40),
      RUNWAY_SECRET: 'y'.repeat(40),
      INITIAL_ROOT_PASSWORD: 'root-password',
      GIT_DIR: '/elsewhere',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/runway',
      https_proxy: 'http://proxy.internal:3128',
      NO_PROXY: 'localhost',
      SSL_CERT_FILE: '/etc/ssl/ca.pem',
    });
  });

  it('a git process sees no secret of the server', async () => {
    process.env.RUNWAY_SECRET = 'z'.repeat(40);
    try {
      // A shell alias runs `env` as git would run a hook or a helper: the secret must not reach it.
      const shown = await runGit(['-c', 'alias.env=!env', 'env']);
      expect(shown).toContain('PATH=');
      expect(shown).not.toContain('RUNWAY_SECRET');
    } finally {
      delete process.env.RUNWAY_SECRET;
    }
  });
});
