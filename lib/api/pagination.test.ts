import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { keysetPage, keysetRequest, MAX_COUNT_LIMIT, pageRequest, paginate } from './pagination';

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

  it('keeps a Link header that clients can read: past 8 KiB of links, last, first and prev go before next', async () => {
    const long = (n: number) => ({ path: '/api/v4/things', params: { search: 'x'.repeat(n) } });
    const page2 = pageRequest({ page: '2', per_page: '3' });
    const rels = (link: string | undefined) => [...(link ?? '').matchAll(/rel="(\w+)"/g)].map((m) => m[1]);
    expect(rels((await paginate(long(1500), page2, source(true))).headers.Link)).toEqual(['prev', 'next', 'first', 'last']);
    // Four links of ~3 KiB: last and first go, prev and next stay, in GitLab's order.
    const medium = (await paginate(long(3000), page2, source(true))).headers;
    expect(rels(medium.Link)).toEqual(['prev', 'next']);
    expect(medium.Link!.length).toBeLessThanOrEqual(8 * 1024);
    expect(rels((await paginate(long(6000), page2, source(true))).headers.Link)).toEqual(['next']);
    // A query longer than the budget by itself: no Link at all, X-Next-Page still says where to go.
    const huge = (await paginate(long(9000), page2, source(true))).headers;
    expect(huge).not.toHaveProperty('Link');
    expect(huge['X-Next-Page']).toBe('3');
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

  it('stops counting past Kaminari\'s 10,000 as GitLab does: no X-Total, X-Total-Pages or rel="last", next still known', async () => {
    const big = (total: number) => ({
      fetch: async (offset: number, limit: number) => Array.from({ length: limit }, (_, i) => offset + i),
      count: async () => total,
    });
    const at = await paginate({ path: '/x', params: {} }, pageRequest({ per_page: '100' }), big(MAX_COUNT_LIMIT));
    expect(at.headers['X-Total']).toBe('10000');
    expect(at.headers['X-Total-Pages']).toBe('100');
    const past = await paginate({ path: '/x', params: {} }, pageRequest({ per_page: '100', page: '100' }), big(MAX_COUNT_LIMIT + 1));
    expect(past.headers).not.toHaveProperty('X-Total');
    expect(past.headers).not.toHaveProperty('X-Total-Pages');
    expect(past.headers['X-Next-Page']).toBe('101');
    expect(past.headers.Link).toContain('page=101&per_page=100>; rel="next"');
    expect(past.headers.Link).not.toContain('rel="last"');
  });

  it('keyset: a rel="next" link past the last id of a full page, only while more rows follow, and no counts', () => {
    const link = { path: '/api/v4/things', params: { pagination: 'keyset', id_after: '3', page: '9', private_token: 'secret', tag_list: 'a,b' } };
    const req = keysetRequest({ pagination: 'keyset' }, { per_page: '2' })!;
    expect(req).toEqual({ perPage: 2, dir: 'asc' });
    const rows = [{ id: 4 }, { id: 6 }, { id: 9 }];
    const page = keysetPage(link, req, rows);
    expect(page.items).toEqual([{ id: 4 }, { id: 6 }]);
    expect(page.headers).toEqual({
      Link: '<https://runway.example.com/gitlab/api/v4/things?id_after=6&pagination=keyset&per_page=2&tag_list=a%2Cb>; rel="next"',
    });
    expect(keysetPage(link, req, rows.slice(0, 2)).headers).toEqual({});
    const desc = keysetRequest({ pagination: 'keyset', sort: 'desc', order_by: 'id' }, {})!;
    expect(desc).toEqual({ perPage: 20, dir: 'desc' });
    const many = Array.from({ length: 21 }, (_, i) => ({ id: 100 - i }));
    expect(keysetPage({ path: '/x', params: { id_after: '1' } }, desc, many).headers.Link).toBe(
      '<https://runway.example.com/gitlab/x?id_after=1&id_before=81&per_page=20>; rel="next"',
    );
  });

  it("keyset: offset pagination when not asked for, and GitLab's 405 for an order other than id", () => {
    expect(keysetRequest({}, {})).toBeNull();
    expect(keysetRequest({ pagination: 'offset', order_by: 'created_at' }, {})).toBeNull();
    expect(() => keysetRequest({ pagination: 'keyset', order_by: 'created_at' }, {})).toThrow(
      expect.objectContaining({ status: 405, body: { error: 'Keyset pagination is not yet available for this type of request' } }),
    );
  });
});
