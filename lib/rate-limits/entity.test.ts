import { describe, expect, it } from 'vitest';
import { throttledHeaders, throttledResponse } from './entity';

describe('throttled answer', () => {
  const throttle = { name: 'throttle_authenticated_api', limit: 5, period: 10 };

  it("carries GitLab's RateLimit headers, the limit per 60 s rounded up, and Retry-After to the window end", () => {
    // 1609833933 is 3 s into a 10 s window that ends at 1609833940.
    expect(throttledHeaders(throttle, 7, 1609833933)).toEqual({
      'RateLimit-Name': 'throttle_authenticated_api',
      'RateLimit-Limit': '30',
      'RateLimit-Observed': '7',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1609833940',
      'RateLimit-ResetTime': 'Tue, 05 Jan 2021 08:05:40 GMT',
      'Retry-After': '7',
    });
    expect(throttledHeaders({ name: 'x', limit: 100, period: 120 }, 1, 1609833960)['RateLimit-Limit']).toBe('50');
    expect(throttledHeaders({ name: 'x', limit: 7, period: 3600 }, 1, 0)['RateLimit-Limit']).toBe('1');
  });

  it('is a 429 with the plain text "Retry later"', async () => {
    const res = throttledResponse(throttle, 6, 1609833930);
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('retry-after')).toBe('10');
    expect(await res.text()).toBe('Retry later\n');
  });
});
