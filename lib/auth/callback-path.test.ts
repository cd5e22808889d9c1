import { describe, expect, it } from 'vitest';
import { safeCallbackPath, signInPath } from './callback-path';

describe('[AUTH] callback path after sign-in', () => {
  it('keeps a same-origin path with its query and fragment', () => {
    expect(safeCallbackPath('/admin/runners/5')).toBe('/admin/runners/5');
    expect(safeCallbackPath('/admin/runners?type=project_type&page=2#top')).toBe('/admin/runners?type=project_type&page=2#top');
    expect(safeCallbackPath('/admin/../admin/runners')).toBe('/admin/runners');
  });

  it.each([
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/admin/runners'],
    ['backslash', '/\\evil.com'],
    ['double backslash', '/\\\\evil.com'],
    ['backslash later', '/admin\\..\\..\\\\evil.com'],
    ['tab the parser drops', '/\t/evil.com'],
    ['newline the parser drops', '/\n/evil.com'],
    ['absolute https', 'https://evil.com/'],
    ['absolute http to our path', 'http://127.0.0.1/admin/runners'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['relative', 'admin/runners'],
    ['empty', ''],
    ['missing', null],
    ['encoded slash start stays a path', '/%2F%2Fevil.com'],
  ])('refuses or neutralises %s', (_name, value) => {
    const out = safeCallbackPath(value);
    expect(new URL(out, 'http://runway.test').origin).toBe('http://runway.test');
    if (value !== '/%2F%2Fevil.com') expect(out).toBe('/');
  });

  it('never returns to the sign-in page itself', () => {
    expect(safeCallbackPath('/sign-in?callbackUrl=/admin')).toBe('/');
    expect(safeCallbackPath('/sign-in', '/x')).toBe('/x');
  });

  it('builds the sign-in path with the page to return to', () => {
    expect(signInPath('/admin/runners/5')).toBe('/sign-in?callbackUrl=%2Fadmin%2Frunners%2F5');
    expect(signInPath('/admin/runners?page=2')).toBe('/sign-in?callbackUrl=%2Fadmin%2Frunners%3Fpage%3D2');
    expect(signInPath('/home', '/home')).toBe('/sign-in');
    expect(signInPath('//evil.com')).toBe('/sign-in');
    expect(signInPath(null)).toBe('/sign-in');
  });
});
