import { describe, expect, it } from 'vitest';
import { parseCorsOrigins } from './cors-origins';
import { readEnv } from './env';

describe('RUNWAY_CORS_ORIGINS', () => {
  it('is off when empty', () => {
    expect(parseCorsOrigins('')).toBeNull();
    expect(parseCorsOrigins(' , ')).toBeNull();
    expect(readEnv({}).RUNWAY_CORS_ORIGINS).toBeNull();
  });

  it('serialises origins as browsers send them: lower case, no default port, no trailing slash', () => {
    const policy = parseCorsOrigins('HTTPS://App.Example.com:443/, http://127.0.0.1:8080,http://tools.example.com:80');
    expect(policy).toEqual({ anyOrigin: false, origins: new Set(['https://app.example.com', 'http://127.0.0.1:8080', 'http://tools.example.com']) });
  });

  it('takes * for every origin', () => {
    expect(parseCorsOrigins('*')).toEqual({ anyOrigin: true, origins: new Set() });
    expect(parseCorsOrigins('https://a.example.com, *')?.anyOrigin).toBe(true);
  });

  it('refuses what is not an origin, naming it', () => {
    for (const bad of [
      'app.example.com',
      'https://app.example.com/path',
      'ftp://files.example.com',
      'https://user@app.example.com',
      'https://a.example.com?x=1',
      'https://',
      '**',
    ]) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(/is not an origin/);
    }
    expect(() => readEnv({ RUNWAY_CORS_ORIGINS: 'https://ok.example.com,nope' })).toThrow(/RUNWAY_CORS_ORIGINS: nope is not an origin/);
  });
});
