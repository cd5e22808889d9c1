import { describe, expect, it } from 'vitest';
import { sameSiteRedirect, safeCallbackPath, signInPath } from './callback-path';

describe('[AUTH] callback path after sign-in', () => {
  it('keeps a same-origin path with its query and fragment', () => {
    expect(safeCallbackPath('/admin/runners/5')).toBe('/admin/runners/5');
    expect(safeCallbackPath('/admin/runners?type=project_type&page=2#top')).toBe('/admin/runners?type=project_type&page=2#top');
    expect(safeCallbackPath('/admin/../admin/runners')).toBe('/admin/runners');
  });

  it.each([
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/admin/runners'],
    ['backslash', '/\\evil.example'],
    ['double backslash', '/\\\\evil.example'],
    ['backslash later', '/admin\\..\\..\\\\evil.example'],
    ['dot segment into //', '/.//evil.example'],
    ['dot-dot segment into //', '/..//evil.example'],
    ['dot segments deeper', '/admin/../..//evil.example/x'],
    ['encoded dot segments into //', '/%2e%2e//evil.example'],
    ['encoded dot segment into //', '/%2e//evil.example'],
    ['encoded slash', '/%2F/evil.example'],
    ['encoded slashes', '/%2f%2fevil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['encoded backslash after a dot segment', '/./%5c%5cevil.example'],
    ['tab the parser drops', '/\t/evil.example'],
    ['newline the parser drops', '/\n/evil.example'],
    ['carriage return the parser drops', '/\r/evil.example'],
    ['tab after a dot segment', '/.\t//evil.example'],
    ['absolute https', 'https://evil.example/'],
    ['absolute http to our path', 'http://127.0.0.1/admin/runners'],
    ['scheme-relative with credentials', '//user@evil.example'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['mixed-case javascript scheme', 'JaVaScRiPt:alert(1)'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['relative', 'admin/runners'],
    ['empty', ''],
    ['missing', null],
    ['not a string (a JSON body)', 42 as unknown as string],
  ])('refuses %s', (_name, value) => {
    const out = safeCallbackPath(value);
    expect(out).toBe('/');
    expect(new URL(out, 'http://runway.test').origin).toBe('http://runway.test');
  });

  it('keeps an encoded slash later in a path, which stays a path', () => {
    expect(safeCallbackPath('/admin/runners/%2F%2Fevil.example')).toBe('/admin/runners/%2F%2Fevil.example');
    expect(safeCallbackPath('/./admin/runners')).toBe('/admin/runners');
  });

  it("judges next-auth's redirect target by its path, absolute or not", () => {
    const base = 'http://127.0.0.1:3000';
    expect(sameSiteRedirect('/admin/runners?page=2', base)).toBe(`${base}/admin/runners?page=2`);
    expect(sameSiteRedirect(`${base}/admin/runners`, base)).toBe(`${base}/admin/runners`);
    for (const hostile of [
      '/.//evil.example',
      `${base}/.//evil.example`,
      `${base}//evil.example`,
      `${base}/..//evil.example`,
      `${base}/%2F/evil.example`,
      `${base}@evil.example/`,
      `${base}.evil.example/`,
      'https://evil.example/',
      '//evil.example',
      'javascript:alert(1)',
      'not a url',
      '',
      42,
      null,
    ]) {
      expect(sameSiteRedirect(hostile, base), String(hostile)).toBe(`${base}/`);
    }
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
