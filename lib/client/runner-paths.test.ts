import { describe, expect, it } from 'vitest';
import { newRunnerHref, parseRunnerSubPage, runnerHref, runnersListHref } from './runner-paths';

describe('runner paths', () => {
  it('builds GitLab addresses for each scope', () => {
    expect(runnerHref({ kind: 'admin' }, 7)).toBe('/admin/runners/7');
    expect(runnerHref({ kind: 'group', fullPath: 'acme/ci' }, 7, 'edit')).toBe('/groups/acme/ci/-/runners/7/edit');
    expect(runnerHref({ kind: 'project', fullPath: 'acme/app' }, 7, 'register')).toBe('/acme/app/-/runners/7/register');
    expect(newRunnerHref({ kind: 'project', fullPath: 'acme/app' })).toBe('/acme/app/-/runners/new');
    expect(runnersListHref({ kind: 'project', fullPath: 'acme/app' })).toBe('/acme/app/-/settings/ci_cd');
    expect(runnersListHref({ kind: 'group', fullPath: 'acme' })).toBe('/groups/acme/-/runners');
  });

  it('parses the runner sub-pages and refuses anything else', () => {
    expect(parseRunnerSubPage(['runners', 'new'])).toEqual({ page: 'new' });
    expect(parseRunnerSubPage(['runners', '12'])).toEqual({ page: 'show', id: 12 });
    expect(parseRunnerSubPage(['runners', '12', 'edit'])).toEqual({ page: 'edit', id: 12 });
    expect(parseRunnerSubPage(['runners', '12', 'register'])).toEqual({ page: 'register', id: 12 });
    for (const bad of [
      ['runners'],
      ['runners', '0'],
      ['runners', 'x'],
      ['runners', '1', 'delete'],
      ['runners', '1', 'edit', 'x'],
      ['runners', 'new', 'x'],
      ['settings'],
    ]) {
      expect(parseRunnerSubPage(bad)).toBeNull();
    }
  });
});
