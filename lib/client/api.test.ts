// The dashboard client's reading of GitLab's answers: error bodies, pagination headers, query strings.
import { describe, expect, it } from 'vitest';
import { apiPath, errorMessage, pageFromHeaders } from './api';

describe('[CLIENT] errorMessage', () => {
  it('reads GitLab message strings, validation hashes and Grape/OAuth errors', () => {
    expect(errorMessage(404, { message: '404 Project Not Found' })).toBe('404 Project Not Found');
    expect(errorMessage(400, { message: { name: ["can't be blank"], scopes: ['is invalid', 'is missing'] } })).toBe(
      "name can't be blank; scopes is invalid, is missing",
    );
    expect(errorMessage(400, { error: 'name is missing' })).toBe('name is missing');
    expect(errorMessage(401, { error: 'invalid_token', error_description: 'Token was revoked.' })).toBe('Token was revoked.');
    expect(errorMessage(502, null)).toBe('Request failed with status 502');
  });
});

describe('[CLIENT] pageFromHeaders', () => {
  it('reads X-Page, X-Per-Page, X-Total, X-Total-Pages, X-Next-Page and X-Prev-Page', () => {
    const h = new Headers({ 'X-Page': '2', 'X-Per-Page': '20', 'X-Total': '45', 'X-Total-Pages': '3', 'X-Next-Page': '3', 'X-Prev-Page': '1' });
    expect(pageFromHeaders(['a'], h)).toEqual({ items: ['a'], page: 2, perPage: 20, total: 45, totalPages: 3, nextPage: 3, prevPage: 1 });
  });

  it('leaves counts undefined when GitLab skips them (empty headers)', () => {
    const h = new Headers({ 'X-Page': '1', 'X-Per-Page': '20', 'X-Next-Page': '', 'X-Prev-Page': '' });
    const page = pageFromHeaders([], h);
    expect(page.total).toBeUndefined();
    expect(page.totalPages).toBeUndefined();
    expect(page.nextPage).toBeUndefined();
  });
});

describe('[CLIENT] apiPath', () => {
  it('prefixes /api/v4, drops empty values and sends arrays as key[]', () => {
    expect(apiPath('/personal_access_tokens', { user_id: 1, state: undefined, search: '', page: 2 })).toBe('/api/v4/personal_access_tokens?user_id=1&page=2');
    expect(apiPath('/runners', { tag_list: ['a b', 'c'] })).toBe('/api/v4/runners?tag_list%5B%5D=a+b&tag_list%5B%5D=c');
    expect(apiPath('/version')).toBe('/api/v4/version');
  });
});
