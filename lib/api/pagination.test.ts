import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { pageRequest, paginate } from './pagination';

const rows = Array.from({ length: 7 }, (_, i) => i + 1);
const source = (withCount: boolean) => ({
  fetch: async (offset: number, limit: number) => rows.slice(offset, offset + limit),
  ...(withCount ? { count: async () => rows.length } : {}),
});

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.RUNWAY_EXTERNAL_URL;
  process.env.RUNWAY_EXTERNAL_URL = 'https://runway.example.com/gitlab/';
});
afterEach(() => {
  if (saved === undefined) delete process.env.RUNWAY_EXTERNAL_URL;
  else process.env.RUNWAY_EXTERNAL_URL = saved;
});

describe('[PLATFORM] pagination', () => {
  it("reads page and per_page with Kaminari's rules", () => {
    expect(pageRequest({})).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(pageRequest({ page: '3', per_page: '10' })).toEqual({ page: 3, perPage: 10, offset: 20 });
    expect(pageRequest({ page: '-2', per_page: '1000' })).toEqual({ page: 1, perPage: 100, offset: 0 });
    expect(pageRequest({ per_page: '-1' }).perPage).toBe(20);
    expect(() => pageRequest({ per_page: '0' })).toThrow(ApiError);
    expect(() => pageRequest({ page: 'abc' })).toThrow('page is invalid');
  });

  it('builds X-* headers and a Link from the external URL with sorted params, hiding credentials', async () => {
    const link = { path: '/api/v4/things', params: { z: 'last', a: 'first word', private_token: 'secret', ids: ['1', '2'] } };
    const { items, headers } = await paginate(link, pageRequest({ page: '2', per_page: '3' }), source(true));
    expect(items).toEqual([4, 5, 6]);
    expect(headers).toMatchObject({ 'X-Page': '2', 'X-Per-Page': '3', 'X-Next-Page': '3', 'X-Prev-Page': '1', 'X-Total': '7', 'X-Total-Pages': '3' });
    const u = (p: number) => `https://runway.example.com/gitlab/api/v4/things?a=first+word&ids%5B%5D=1&ids%5B%5D=2&page=${p}&per_page=3&z=last`;
    expect(headers.Link).toBe(`<${u(1)}>; rel="prev", <${u(3)}>; rel="next", <${u(1)}>; rel="first", <${u(3)}>; rel="last"`);
  });

  it('without a count, looks one row ahead and leaves out totals and rel="last"', async () => {
    const { items, headers } = await paginate({ path: '/x', params: {} }, pageRequest({ per_page: '5' }), source(false));
    expect(items).toHaveLength(5);
    expect(headers['X-Next-Page']).toBe('2');
    expect(headers).not.toHaveProperty('X-Total');
    expect(headers.Link).not.toContain('rel="last"');
    const last = await paginate({ path: '/x', params: {} }, pageRequest({ per_page: '5', page: '2' }), source(false));
    expect(last.items).toEqual([6, 7]);
    expect(last.headers['X-Next-Page']).toBe('');
  });
});
