// Where a runner's pages live: under the admin area, a group or a project, as GitLab lays them out
// (/admin/runners/:id, /groups/<path>/-/runners/:id, /<project path>/-/runners/:id, each with /edit and
// /register, and .../runners/new).
import { groupHref, projectHref } from './paths';

export type RunnerScope = { kind: 'admin' } | { kind: 'group'; fullPath: string } | { kind: 'project'; fullPath: string };

export const ADMIN_SCOPE: RunnerScope = { kind: 'admin' };

/** The runners base path of a scope: `.../runners`. */
export function runnersBase(scope: RunnerScope): string {
  if (scope.kind === 'admin') return '/admin/runners';
  return scope.kind === 'group' ? groupHref(scope.fullPath, 'runners') : projectHref(scope.fullPath, 'runners');
}

export const runnerHref = (scope: RunnerScope, id: number, sub?: 'edit' | 'register') => `${runnersBase(scope)}/${id}${sub ? `/${sub}` : ''}`;
export const newRunnerHref = (scope: RunnerScope) => `${runnersBase(scope)}/new`;

/** Where "back to the runners" goes: a project's runners are listed in its CI/CD settings, as in GitLab. */
export function runnersListHref(scope: RunnerScope): string {
  return scope.kind === 'project' ? projectHref(scope.fullPath, 'settings/ci_cd') : runnersBase(scope);
}

export type RunnerSubPage = { page: 'show' | 'edit' | 'register'; id: number } | { page: 'new' };

/** `['runners', '12', 'edit']` (the segments after `/-/`) -> the runner page it names; null otherwise. */
export function parseRunnerSubPage(segments: string[]): RunnerSubPage | null {
  if (segments[0] !== 'runners') return null;
  const [, second, third, ...rest] = segments;
  if (rest.length) return null;
  if (second === 'new' && third === undefined) return { page: 'new' };
  if (!second || !/^\d{1,15}$/.test(second) || Number(second) < 1) return null;
  const id = Number(second);
  if (third === undefined) return { page: 'show', id };
  if (third === 'edit' || third === 'register') return { page: third, id };
  return null;
}
