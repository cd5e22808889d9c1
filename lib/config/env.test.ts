import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configuredSecret, DEFAULT_MAX_BODY_BYTES, integerSetting, maxBodyBytes, readEnv } from './env';

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe('[CONFIG] RUNWAY_MAX_BODY_BYTES', () => {
  it('defaults to 10 MiB and accepts a byte count', () => {
    expect(readEnv(env({})).RUNWAY_MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
    expect(readEnv(env({ RUNWAY_MAX_BODY_BYTES: '1048576' })).RUNWAY_MAX_BODY_BYTES).toBe(1048576);
  });

  it('refuses a value that is not a byte count of at least 1 KiB', () => {
    for (const bad of ['abc', '-1', '1.5', '100']) expect(() => readEnv(env({ RUNWAY_MAX_BODY_BYTES: bad })), bad).toThrow(ConfigError);
  });

  it('is what the request readers use', () => {
    const saved = process.env.RUNWAY_MAX_BODY_BYTES;
    try {
      delete process.env.RUNWAY_MAX_BODY_BYTES;
      expect(maxBodyBytes()).toBe(DEFAULT_MAX_BODY_BYTES);
      process.env.RUNWAY_MAX_BODY_BYTES = '2048';
      expect(maxBodyBytes()).toBe(2048);
    } finally {
      if (saved === undefined) delete process.env.RUNWAY_MAX_BODY_BYTES;
      else process.env.RUNWAY_MAX_BODY_BYTES = saved;
    }
  });
});

describe('rate-limit configuration', () => {
  it("defaults to GitLab's: lock after 10 failures for 10 minutes, 10 sign-ins per 60 s, API limits off", () => {
    const env = readEnv({});
    expect(env.RUNWAY_MAX_LOGIN_ATTEMPTS).toBe(10);
    expect(env.RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT).toBe(100);
    expect(env.RUNWAY_LOGIN_LOCK_MINUTES).toBe(10);
    expect(env.RUNWAY_RATE_LIMIT_SIGN_IN).toEqual({ limit: 10, period: 60 });
    expect(env.RUNWAY_RATE_LIMIT_AUTHENTICATED_API).toBeNull();
    expect(env.RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API).toBeNull();
    expect(env.RUNWAY_THROTTLE_USER_ALLOWLIST).toEqual([]);
  });

  it('reads <requests>/<seconds>, off and an allowlist of user ids', () => {
    const env = readEnv({
      RUNWAY_RATE_LIMIT_AUTHENTICATED_API: ' 7200/3600 ',
      RUNWAY_RATE_LIMIT_SIGN_IN: 'OFF',
      RUNWAY_THROTTLE_USER_ALLOWLIST: '1, 42',
    });
    expect(env.RUNWAY_RATE_LIMIT_AUTHENTICATED_API).toEqual({ limit: 7200, period: 3600 });
    expect(env.RUNWAY_RATE_LIMIT_SIGN_IN).toBeNull();
    expect(env.RUNWAY_THROTTLE_USER_ALLOWLIST).toEqual([1, 42]);
  });

  it('refuses bad values, naming the variable', () => {
    for (const [name, value] of [
      ['RUNWAY_RATE_LIMIT_SIGN_IN', '10'],
      ['RUNWAY_RATE_LIMIT_SIGN_IN', '0/60'],
      ['RUNWAY_RATE_LIMIT_UNAUTHENTICATED_API', '5/0'],
      ['RUNWAY_RATE_LIMIT_AUTHENTICATED_API', 'fast'],
      ['RUNWAY_THROTTLE_USER_ALLOWLIST', 'root'],
      ['RUNWAY_MAX_LOGIN_ATTEMPTS', '0'],
      ['RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT', '0'],
      // Below the per-address limit, one address could lock the account for everyone.
      ['RUNWAY_MAX_LOGIN_ATTEMPTS_PER_ACCOUNT', '9'],
    ]) {
      expect(() => readEnv({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => readEnv({ [name]: value })).toThrow(name);
    }
  });
});

describe('[CONFIG] the session secret', () => {
  const SECRET = 'a-session-secret-of-32-characters-or-more';
  const keyFile = (content: string) => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'runway-env-key-')), 'secret');
    writeFileSync(file, content);
    chmodSync(file, 0o600);
    return file;
  };

  it('is none when nothing is set: the generated one in the database is used', () => {
    expect(configuredSecret(readEnv({}))).toBeUndefined();
  });

  it('comes from RUNWAY_SECRET, its alias NEXTAUTH_SECRET, or a key file without its line break', () => {
    expect(configuredSecret(readEnv({ RUNWAY_SECRET: SECRET }))).toBe(SECRET);
    expect(configuredSecret(readEnv({ NEXTAUTH_SECRET: SECRET }))).toBe(SECRET);
    expect(configuredSecret(readEnv({ RUNWAY_SECRET_FILE: keyFile(`${SECRET}\n`) }))).toBe(SECRET);
  });

  it('refuses a short secret, an unreadable or short key file, and more than one source, naming the variable', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runway-env-dir-'));
    for (const [vars, message] of [
      [{ RUNWAY_SECRET: 'short' }, /RUNWAY_SECRET: must be at least 32 characters/],
      [{ NEXTAUTH_SECRET: 'short' }, /NEXTAUTH_SECRET: must be at least 32 characters/],
      [{ RUNWAY_SECRET_FILE: path.join(dir, 'missing') }, /RUNWAY_SECRET_FILE: cannot be read: ENOENT/],
      [{ RUNWAY_SECRET_FILE: dir }, /RUNWAY_SECRET_FILE: cannot be read: is not a file/],
      [{ RUNWAY_SECRET_FILE: keyFile('short\n') }, /RUNWAY_SECRET_FILE: must hold at least 32 characters/],
      [{ RUNWAY_SECRET: SECRET, NEXTAUTH_SECRET: SECRET }, /RUNWAY_SECRET: set only one of RUNWAY_SECRET, NEXTAUTH_SECRET/],
      [{ RUNWAY_SECRET_FILE: keyFile(SECRET), NEXTAUTH_SECRET: SECRET }, /set only one of RUNWAY_SECRET_FILE, NEXTAUTH_SECRET/],
    ] as const) {
      expect(() => readEnv(vars), JSON.stringify(vars)).toThrow(ConfigError);
      expect(() => readEnv(vars), JSON.stringify(vars)).toThrow(message);
    }
  });
});

describe('[CONFIG] RUNWAY_TRUSTED_PROXIES', () => {
  it('trusts no proxy by default', () => {
    const proxies = readEnv({}).RUNWAY_TRUSTED_PROXIES;
    expect(proxies.check('127.0.0.1', 'ipv4')).toBe(false);
    expect(proxies.check('::1', 'ipv6')).toBe(false);
    expect(proxies.check('10.0.0.1', 'ipv4')).toBe(false);
  });

  it('reads addresses and CIDR ranges, and refuses anything else naming the variable', () => {
    const proxies = readEnv({ RUNWAY_TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8,fd00::/8 ' }).RUNWAY_TRUSTED_PROXIES;
    expect(proxies.check('127.0.0.1', 'ipv4')).toBe(true);
    expect(proxies.check('127.0.0.2', 'ipv4')).toBe(false);
    expect(proxies.check('10.200.0.1', 'ipv4')).toBe(true);
    expect(proxies.check('fd00::5', 'ipv6')).toBe(true);
    for (const bad of ['localhost', '10.0.0.0/33', '*', '127.0.0.1;10.0.0.1']) {
      expect(() => readEnv({ RUNWAY_TRUSTED_PROXIES: bad }), bad).toThrow(/RUNWAY_TRUSTED_PROXIES: /);
    }
  });
});

describe('[CONFIG] bounds on long-lived requests', () => {
  const names = ['RUNWAY_REQUEST_TIMEOUT_SECONDS', 'RUNWAY_MAX_EVENT_STREAMS_PER_CLIENT', 'RUNWAY_MAX_HELD_POLLS_PER_RUNNER'] as const;

  it("defaults to GitLab's 60 s request timeout, 10 event streams per client and 16 held polls per runner", () => {
    const parsed = readEnv(env({}));
    expect(names.map((n) => parsed[n])).toEqual([60, 10, 16]);
  });

  it('refuses values that are not positive whole numbers, naming the variable', () => {
    for (const name of names) {
      for (const bad of ['0', '-1', '1.5', 'soon']) expect(() => readEnv(env({ [name]: bad })), `${name}=${bad}`).toThrow(name);
    }
  });

  it('is read as it is now by the modules that apply it', () => {
    const saved = process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER;
    try {
      delete process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER;
      expect(integerSetting('RUNWAY_MAX_HELD_POLLS_PER_RUNNER')).toBe(16);
      process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER = '3';
      expect(integerSetting('RUNWAY_MAX_HELD_POLLS_PER_RUNNER')).toBe(3);
      process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER = 'bad';
      expect(integerSetting('RUNWAY_MAX_HELD_POLLS_PER_RUNNER')).toBe(16);
    } finally {
      if (saved === undefined) delete process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER;
      else process.env.RUNWAY_MAX_HELD_POLLS_PER_RUNNER = saved;
    }
  });
});

describe('[CONFIG] RUNWAY_DATABASE_DIRECT_URL', () => {
  const pooled = 'postgresql://runway@127.0.0.1:6432/runway';
  const direct = 'postgresql://runway@db.internal:5432/runway';

  it('is optional, and taken with DATABASE_URL (a pooler in front of the same database)', () => {
    expect(readEnv(env({ DATABASE_URL: pooled })).RUNWAY_DATABASE_DIRECT_URL).toBeUndefined();
    expect(readEnv(env({ DATABASE_URL: pooled, RUNWAY_DATABASE_DIRECT_URL: direct })).RUNWAY_DATABASE_DIRECT_URL).toBe(direct);
  });

  it('refuses a URL that is not postgresql://, and a direct URL without DATABASE_URL, naming the variable', () => {
    expect(() => readEnv(env({ DATABASE_URL: pooled, RUNWAY_DATABASE_DIRECT_URL: 'mysql://x' }))).toThrow(/RUNWAY_DATABASE_DIRECT_URL: must be a postgresql/);
    expect(() => readEnv(env({ RUNWAY_DATABASE_DIRECT_URL: direct }))).toThrow(/RUNWAY_DATABASE_DIRECT_URL: needs DATABASE_URL/);
  });
});

describe('[CONFIG] RUNWAY_HEARTBEAT_FLUSH_SECONDS', () => {
  it('defaults to 5 s, accepts 0 (write each heartbeat at once) up to 300, and refuses anything else', () => {
    expect(readEnv(env({})).RUNWAY_HEARTBEAT_FLUSH_SECONDS).toBe(5);
    expect(readEnv(env({ RUNWAY_HEARTBEAT_FLUSH_SECONDS: '0' })).RUNWAY_HEARTBEAT_FLUSH_SECONDS).toBe(0);
    expect(readEnv(env({ RUNWAY_HEARTBEAT_FLUSH_SECONDS: '300' })).RUNWAY_HEARTBEAT_FLUSH_SECONDS).toBe(300);
    for (const bad of ['-1', '301', '1.5', 'often']) {
      expect(() => readEnv(env({ RUNWAY_HEARTBEAT_FLUSH_SECONDS: bad })), bad).toThrow('RUNWAY_HEARTBEAT_FLUSH_SECONDS');
    }
  });
});
