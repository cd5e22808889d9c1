// What the group and project pages read, as data: the endpoint, its parameters and the cache key, for a group
// or project by full path, the viewer's effective membership in either, and a project's runner lists (its
// CI/CD settings). The browser's hooks (components/namespaces/use-namespaces.ts, use-project-runners.ts) and
// the server's first-page prefetch build their reads from here, so what the server puts in the HTML lands
// under exactly the key the browser then reads.
import { queryKeys } from './query-keys';

const encoded = (fullPath: string) => encodeURIComponent(fullPath);

export function groupRead(fullPath: string) {
  return { key: queryKeys.groups.detail(fullPath), path: `/groups/${encoded(fullPath)}`, params: { with_projects: false } };
}

export function projectRead(fullPath: string) {
  return { key: queryKeys.projects.detail(fullPath), path: `/projects/${encoded(fullPath)}`, params: {} };
}

/** GET .../members/all/:user_id: the viewer's level (inherited, shares included); a 404 means none (0). */
export function memberLevelRead(kind: 'group' | 'project', fullPath: string, userId: number) {
  const key = kind === 'group' ? queryKeys.groups.access(fullPath, userId) : queryKeys.projects.access(fullPath, userId);
  return { key, path: `/${kind}s/${encoded(fullPath)}/members/all/${userId}`, params: {} };
}

export const PROJECT_RUNNERS_PER_PAGE = 10;

export type ProjectRunnerList = 'assigned' | 'available' | 'group' | 'instance';

export const PROJECT_RUNNER_LISTS: ProjectRunnerList[] = ['assigned', 'available', 'group', 'instance'];

const RUNNER_SOURCES: Record<ProjectRunnerList, { path: string; type?: string }> = {
  assigned: { path: 'runners', type: 'project_type' },
  available: { path: 'runners/assignable' },
  group: { path: 'runners', type: 'group_type' },
  instance: { path: 'runners', type: 'instance_type' },
};

/** One page of a tab of the CI/CD settings' Runners section, with each runner's details (with_details). */
export function projectRunnersRead(fullPath: string, list: ProjectRunnerList, page: number) {
  const source = RUNNER_SOURCES[list];
  return {
    key: queryKeys.projects.runners(fullPath, list, page),
    path: `/projects/${encoded(fullPath)}/${source.path}`,
    params: { type: source.type, page, per_page: PROJECT_RUNNERS_PER_PAGE, with_details: true },
  };
}
