import { describe, expect, it } from 'vitest';
import { groupHref, parseNamespacedRoute, parseProjectPage, projectHref, segmentNames } from './paths';

describe('namespaced routes', () => {
  it('splits a nested project path from its sub-page at /-/', () => {
    expect(parseNamespacedRoute(['acme', 'platform', 'ci', 'pipeline-tools'], { reservedFirst: true })).toEqual({
      fullPath: 'acme/platform/ci/pipeline-tools',
      page: [],
      depth: 4,
    });
    expect(parseNamespacedRoute(['acme', 'api', '-', 'settings', 'ci_cd'], { reservedFirst: true })).toEqual({
      fullPath: 'acme/api',
      page: ['settings', 'ci_cd'],
      depth: 2,
    });
  });

  it('refuses reserved first segments, empty paths and dot segments', () => {
    for (const first of ['admin', 'dashboard', 'groups', 'api', 'sign-in', 'help', '-', 'Admin']) {
      expect(parseNamespacedRoute([first, 'x'], { reservedFirst: true }), first).toBeNull();
    }
    expect(parseNamespacedRoute(['-', 'settings'])).toBeNull();
    expect(parseNamespacedRoute(['acme', '..', 'x'])).toBeNull();
    // Under /groups/ the first segment is the group's own, whatever it is.
    expect(parseNamespacedRoute(['help'])).toEqual({ fullPath: 'help', page: [], depth: 1 });
  });

  it('builds GitLab-shaped links', () => {
    expect(projectHref('acme/api')).toBe('/acme/api');
    expect(projectHref('acme/api', 'settings/ci_cd')).toBe('/acme/api/-/settings/ci_cd');
    expect(groupHref('acme/platform', 'runners')).toBe('/groups/acme/platform/-/runners');
  });
});

describe('segment decoding', () => {
  it('decodes percent-encoded segments and keeps malformed ones as typed', () => {
    expect(parseNamespacedRoute(['acme', 'my%20project'])?.fullPath).toBe('acme/my project');
    expect(parseNamespacedRoute(['acme', '100%'])?.fullPath).toBe('acme/100%');
  });
});

describe('parseProjectPage', () => {
  it('names the merge request, its tabs, the list and a commit', () => {
    expect(parseProjectPage(['merge_requests'])).toEqual({ kind: 'merge_requests' });
    expect(parseProjectPage(['merge_requests', '12'])).toEqual({ kind: 'merge_request', iid: 12, tab: 'overview' });
    expect(parseProjectPage(['merge_requests', '12', 'commits'])).toEqual({ kind: 'merge_request', iid: 12, tab: 'commits' });
    expect(parseProjectPage(['commit', 'ABCDEF12'])).toEqual({ kind: 'commit', sha: 'abcdef12' });
  });
  it("names the settings pages: CI/CD and General (GitLab's /-/edit)", () => {
    expect(parseProjectPage(['settings', 'ci_cd'])).toEqual({ kind: 'ci_cd_settings' });
    expect(parseProjectPage(['edit'])).toEqual({ kind: 'general_settings' });
    expect(parseProjectPage(['edit', 'x'])).toBeNull();
  });
  it('names the commits of a ref (slashes included) and the branches', () => {
    expect(parseProjectPage(['commits'])).toEqual({ kind: 'commits', ref: null });
    expect(parseProjectPage(['commits', 'main'])).toEqual({ kind: 'commits', ref: 'main' });
    expect(parseProjectPage(['commits', 'feature', 'login', 'v2'])).toEqual({ kind: 'commits', ref: 'feature/login/v2' });
    expect(parseProjectPage(['branches'])).toEqual({ kind: 'branches' });
    expect(parseProjectPage(['branches', 'all'])).toEqual({ kind: 'branches' });
  });
  it('refuses what it does not serve', () => {
    for (const page of [
      [],
      ['merge_requests', '0'],
      ['merge_requests', 'x'],
      ['merge_requests', '99999999999'],
      ['merge_requests', '1', 'diffs'],
      ['merge_requests', '1', 'commits', 'x'],
      ['commit', 'xyz'],
      ['commit'],
      ['branches', 'stale', 'x'],
      ['branches', 'main'],
    ]) {
      expect(parseProjectPage(page)).toBeNull();
    }
  });
});

describe('segmentNames', () => {
  it('names each segment from the full name', () => {
    expect(segmentNames('acme/web/website', 'Acme / Web / Website')).toEqual(['Acme', 'Web', 'Website']);
    expect(segmentNames('acme', 'Acme Corp')).toEqual(['Acme Corp']);
  });
  it("keeps a user's name whole when it holds the separator (a personal project)", () => {
    expect(segmentNames('jdoe/tools', 'J / Doe / Tools')).toEqual(['J / Doe', 'Tools']);
  });
  it('falls back to the path when there is no full name or it does not fit', () => {
    expect(segmentNames('acme/web', undefined)).toEqual(['acme', 'web']);
    expect(segmentNames('acme/web/site', 'Acme / Site')).toEqual(['acme', 'web', 'site']);
    expect(segmentNames('acme/web/site', 'Acme /  / Site')).toEqual(['acme', 'web', 'site']);
  });
});
