import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_MAX_BODY_BYTES, maxBodyBytes, readEnv } from './env';

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
