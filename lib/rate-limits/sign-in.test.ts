import { describe, expect, it } from 'vitest';
import { rateLimitedCode, rateLimitedMessage, rateLimitedSeconds } from './sign-in';

describe('the sign-in throttle code', () => {
  it('carries the seconds of Retry-After, and the form words them', () => {
    expect(rateLimitedCode(42)).toBe('RateLimited:42');
    expect(rateLimitedCode(0)).toBe('RateLimited:1');
    expect(rateLimitedSeconds('RateLimited:42')).toBe(42);
    expect(rateLimitedSeconds('RateLimited')).toBe(0);
    expect(rateLimitedSeconds('locked')).toBeNull();
    expect(rateLimitedSeconds('RateLimited:abc')).toBeNull();
    expect(rateLimitedMessage(1)).toBe('Too many sign-in attempts. Try again in 1 second.');
    expect(rateLimitedMessage(42)).toBe('Too many sign-in attempts. Try again in 42 seconds.');
    expect(rateLimitedMessage(600)).toBe('Too many sign-in attempts. Try again in 10 minutes.');
    expect(rateLimitedMessage(0)).toBe('Too many sign-in attempts. Retry later.');
  });
});
