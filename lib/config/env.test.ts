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
