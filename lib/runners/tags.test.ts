import { describe, expect, it } from 'vitest';
import { normalizeTags, parseTagList, tagListChanged } from './tags';
import { fullMessagesSentence, validateRunnerAttributes } from './validation';
import { newRegistrationToken, newRunnerToken } from './tokens';

describe('[RUNNERS] tag_list parsing', () => {
  it('accepts CSV strings, arrays, nested CSV elements and null', () => {
    expect(parseTagList('a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseTagList(['a', 'b,c', ' a '])).toEqual(['a', 'b', 'c']);
    expect(parseTagList(null)).toEqual([]);
    expect(parseTagList('"x,y", z')).toEqual(['x,y', 'z']);
  });
  it('de-duplicates case-sensitively and keeps order', () => {
    expect(normalizeTags(['B', 'a', 'b', 'B'])).toEqual(['B', 'a', 'b']);
    expect(tagListChanged(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(tagListChanged(['a'], ['a', 'b'])).toBe(true);
  });
});

describe('[RUNNERS] runner validation', () => {
  const base = { runUntagged: true, tagList: [] as string[], tagListChanged: false };
  it('uses GitLab keys and messages', () => {
    expect(validateRunnerAttributes({ ...base, maximumTimeout: 599 })).toEqual({ maximum_timeout: ['needs to be at least 10 minutes'] });
    expect(validateRunnerAttributes({ ...base, maximumTimeout: null })).toEqual({});
    expect(validateRunnerAttributes({ ...base, runUntagged: false })).toEqual({
      tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'],
    });
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect(validateRunnerAttributes({ ...base, tagList: many, tagListChanged: false })).toEqual({});
    expect(validateRunnerAttributes({ ...base, tagList: many, tagListChanged: true }).tags_list).toEqual([
      'Too many tags specified. Please limit the number of tags to 50',
    ]);
    expect(validateRunnerAttributes({ ...base, maintenanceNote: 'x'.repeat(1025) })).toEqual({
      maintenance_note: ['is too long (maximum is 1024 characters)'],
    });
  });
  it('builds Rails full messages as a sentence', () => {
    expect(fullMessagesSentence({ tags_list: ['can not be empty'] })).toBe('Tags list can not be empty');
    expect(fullMessagesSentence({ a: ['x'], b_c: ['y'] })).toBe('A x and B c y');
    expect(fullMessagesSentence({ a: ['x', 'y'], b: ['z'] })).toBe('A x, A y, and B z');
  });
});

describe('[RUNNERS] token formats', () => {
  it('follows GitLab 17+ prefixes', () => {
    expect(newRunnerToken('instance_type', 'authenticated_user')).toMatch(/^glrt-t1_[A-Za-z0-9_-]{20}$/);
    expect(newRunnerToken('group_type', 'registration_token')).toMatch(/^t2_[A-Za-z0-9_-]{20}$/);
    expect(newRunnerToken('project_type', 'registration_token')).toHaveLength(23);
    expect(newRegistrationToken()).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
  });
});
