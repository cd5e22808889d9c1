import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken, uniq } from '../support/api';
import { createUser, type TestUser } from '../support/users';

// Five users found by one search term, so pages are deterministic while other files add users.
let tag: string;
let users: TestUser[];
let viewer: TestUser;

beforeAll(async () => {
  tag = uniq('pg').replace(/-/g, '');
  users = [];
  for (let i = 1; i <= 5; i++) users.push(await createUser({ username: `${tag}_${i}` }));
  viewer = users[0];
});

const NON_ADMIN_DEFAULTS = 'active=false&admins=false&blocked=false&external=false&non_external=false&non_internal=false';
const link = (page: number, perPage: number, extra = '') =>
  `${baseUrl()}/api/v4/users?${NON_ADMIN_DEFAULTS}&page=${page}&per_page=${perPage}&search=${tag}${extra}&with_custom_attributes=false&without_project_bots=false`;

describe('[PLATFORM] pagination headers on GET /users', () => {
  it('first page: next, first and last links; X-* headers as strings', async () => {
    const res = await api('GET', '/users', { token: viewer.token, query: { search: tag, per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([users[4].id, users[3].id]);
    expect(res.headers.get('x-page')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('2');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('x-prev-page')).toBe('');
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('link')).toBe(`<${link(2, 2)}>; rel="next", <${link(1, 2)}>; rel="first", <${link(3, 2)}>; rel="last"`);
  });

  it('middle page: prev, next, first, last in that order', async () => {
    const res = await api('GET', '/users', { token: viewer.token, query: { search: tag, per_page: 2, page: 2 } });
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([users[2].id, users[1].id]);
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    expect(res.headers.get('link')).toBe(`<${link(1, 2)}>; rel="prev", <${link(3, 2)}>; rel="next", <${link(1, 2)}>; rel="first", <${link(3, 2)}>; rel="last"`);
  });

  it('last page: prev, first, last; no next', async () => {
    const res = await api('GET', '/users', { token: viewer.token, query: { search: tag, per_page: 2, page: 3 } });
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([users[0].id]);
    expect(res.headers.get('x-next-page')).toBe('');
    expect(res.headers.get('x-prev-page')).toBe('2');
    expect(res.headers.get('link')).toBe(`<${link(2, 2)}>; rel="prev", <${link(1, 2)}>; rel="first", <${link(3, 2)}>; rel="last"`);
  });

  it('beyond the last page: [] with neither prev nor next, totals intact', async () => {
    const res = await api('GET', '/users', { token: viewer.token, query: { search: tag, per_page: 2, page: 9 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-page')).toBe('9');
    expect(res.headers.get('x-next-page')).toBe('');
    expect(res.headers.get('x-prev-page')).toBe('');
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('link')).toBe(`<${link(1, 2)}>; rel="first", <${link(3, 2)}>; rel="last"`);
  });

  it('an empty result reports one page', async () => {
    const res = await api('GET', '/users', { token: viewer.token, query: { search: `${tag}_none` } });
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
    expect(res.headers.get('x-total-pages')).toBe('1');
    expect(res.headers.get('x-per-page')).toBe('20');
  });

  it('clamps per_page above 100 to 100 and treats non-positive pages as page 1', async () => {
    const big = await api('GET', '/users', { token: viewer.token, query: { search: tag, per_page: 500 } });
    expect(big.headers.get('x-per-page')).toBe('100');
    expect(big.body).toHaveLength(5);
    expect(big.headers.get('link')).toContain('per_page=100');
    const zero = await api('GET', '/users', { token: viewer.token, query: { search: tag, page: 0, per_page: 2 } });
    expect(zero.headers.get('x-page')).toBe('1');
    const negative = await api('GET', '/users', { token: viewer.token, query: { search: tag, per_page: -3 } });
    expect(negative.headers.get('x-per-page')).toBe('20');
  });

  it("rejects per_page=0 and a non-numeric page with Grape's messages", async () => {
    const zero = await api('GET', '/users', { token: viewer.token, query: { per_page: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ error: 'per_page has a value not allowed' });
    const word = await api('GET', '/users', { token: viewer.token, query: { page: 'abc' } });
    expect(word.status).toBe(400);
    expect(word.body).toEqual({ error: 'page is invalid' });
  });

  it('carries every parameter in the links, coerced, sorted, credentials left out', async () => {
    const res = await api('GET', '/users', {
      token: viewer.token,
      query: { search: tag, per_page: 2, zeta: 'z z', active: 'True', private_token: viewer.token },
    });
    const first = `${baseUrl()}/api/v4/users?active=true&admins=false&blocked=false&external=false&non_external=false&non_internal=false&page=1&per_page=2&search=${tag}&with_custom_attributes=false&without_project_bots=false&zeta=z+z`;
    expect(res.headers.get('link')).toContain(`<${first}>; rel="first"`);
    expect(res.headers.get('link')).not.toContain('private_token');
  });

  it('gives admins the admin-only defaults (order_by, sort, without_projects) in the links', async () => {
    const res = await api('GET', '/users', { token: rootToken(), query: { search: tag, per_page: 2, order_by: 'username', sort: 'asc' } });
    expect(res.body.map((u: { id: number }) => u.id)).toEqual([users[0].id, users[1].id]);
    const first = `${baseUrl()}/api/v4/users?${NON_ADMIN_DEFAULTS}&order_by=username&page=1&per_page=2&search=${tag}&sort=asc&with_custom_attributes=false&without_project_bots=false&without_projects=false`;
    expect(res.headers.get('link')).toContain(`<${first}>; rel="first"`);
  });
});
