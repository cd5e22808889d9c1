import { describe, expect, it } from 'vitest';
import { mergeQuery, pageParam, textParam } from './url-state';

describe('url state', () => {
  it('reads pages and text, falling back on nonsense', () => {
    const p = new URLSearchParams('page=3&search=%20ci%20&bad=x&zero=0');
    expect(pageParam(p)).toBe(3);
    expect(pageParam(p, 'bad')).toBe(1);
    expect(pageParam(p, 'zero')).toBe(1);
    expect(pageParam(p, 'missing')).toBe(1);
    expect(textParam(p, 'search')).toBe('ci');
    expect(textParam(new URLSearchParams('search=%20'), 'search')).toBeUndefined();
  });

  it('merges changes, drops blanks and first pages, and resets pages on request', () => {
    expect(mergeQuery('page=2&search=a', { page: 3 })).toBe('page=3&search=a');
    expect(mergeQuery('page=2&search=a', { page: 1 })).toBe('search=a');
    expect(mergeQuery('page=2&search=a', { search: 'b' }, ['page'])).toBe('search=b');
    expect(mergeQuery('search=a', { search: '' })).toBe('');
    expect(mergeQuery('projects_page=4&x=1', { subgroups_page: 2 }, [])).toBe('projects_page=4&x=1&subgroups_page=2');
    expect(mergeQuery('projects_page=4', { projects_page: 0 })).toBe('');
  });
});
