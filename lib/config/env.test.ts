import { describe, expect, it } from 'vitest';
import { ConfigError, readEnv } from './env';

describe('rate-limit configuration', () => {
  it("defaults to GitLab's: lock after 10 failures for 10 minutes, 10 sign-ins per 60 s, API limits off", () => {
    const env = readEnv({});
    expect(env.RUNWAY_MAX_LOGIN_ATTEMPTS).toBe(10);
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
    ]) {
      expect(() => readEnv({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => readEnv({ [name]: value })).toThrow(name);
    }
  });
});
