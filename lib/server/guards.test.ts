import { describe, expect, it } from 'vitest';
import { hasDotSegment, isJsonPath, malformedPath, squeezedApiUrl } from './guards';

describe('[PLATFORM] edge guards', () => {
  it('finds paths whose %-escapes are not UTF-8 or carry NUL', () => {
    for (const path of ['/api/v4/projects/%ff', '/api/v4/runners/%', '/api/v4/x/%c0%af/y', '/api/v4/projects/%00', '/api/v4/%e0%a4']) {
      expect(malformedPath(path), path).toBe(true);
    }
    for (const path of ['/api/v4/projects/acme%2Fwidgets', '/api/v4/users/%E2%9C%93', '/api/v4/version']) {
      expect(malformedPath(path), path).toBe(false);
    }
  });

  it("squeezes an API path's repeated slashes as GitLab's router does, and leaves the query and other paths alone", () => {
    expect(squeezedApiUrl('/api/v4/projects/7/members/all//?access_level[]=a//b')).toBe('/api/v4/projects/7/members/all/?access_level[]=a//b');
    expect(squeezedApiUrl('//api/v4///version')).toBe(null); // not an API path as sent
    expect(squeezedApiUrl('/api//v4/version')).toBe('/api/v4/version');
    expect(squeezedApiUrl('/api/v4/projects/acme%2F%2Fweb')).toBe(null);
    expect(squeezedApiUrl('/api/v4/version?x=//')).toBe(null);
    expect(squeezedApiUrl('/admin//runners')).toBe(null);
  });

  it('finds dot segments, plain or escaped', () => {
    for (const path of ['/api/v4/..', '/api/v4/%2e%2e/x', '/api/v4/./version', '/api/v4/%2E']) expect(hasDotSegment(path), path).toBe(true);
    for (const path of ['/api/v4/projects/a.b', '/api/v4/...', '/api/v4/projects/..a']) expect(hasDotSegment(path), path).toBe(false);
  });

  it('guards the paths that answer JSON only: the API and /oauth', () => {
    for (const path of ['/api/v4/version', '/api/v3/x', '/oauth', '/oauth/token', '/oauth/%2e%2e']) expect(isJsonPath(path), path).toBe(true);
    for (const path of ['/', '/oauthx', '/sign-in', '/-/readiness', '/apix']) expect(isJsonPath(path), path).toBe(false);
  });
});
