'use client';
// A project's runners for its CI/CD settings, through /api/v4: the assigned project runners, the ones the
// viewer may enable (Runway's /runners/assignable), the group and instance runners available to it, each
// with its list details and the viewer's permissions (with_details); the writes enabling/disabling a runner
// in the project, pausing and removing one, and switching group and instance runners.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { PROJECT_RUNNERS_PER_PAGE, projectRunnersRead, type ProjectRunnerList } from '@/lib/client/namespace-query';
import { queryKeys } from '@/lib/client/query-keys';
import type { ProjectWithAccess, RunnerListItem } from '@/lib/client/types';

export const RUNNERS_PER_PAGE = PROJECT_RUNNERS_PER_PAGE;

export type { ProjectRunnerList };

const encoded = (fullPath: string) => encodeURIComponent(fullPath);

export function useProjectRunners(fullPath: string, list: ProjectRunnerList, page: number) {
  const api = useApi();
  const read = projectRunnersRead(fullPath, list, page);
  return useQuery({
    queryKey: read.key,
    queryFn: () => api.getPage<RunnerListItem>(read.path, read.params),
    placeholderData: keepPreviousData,
  });
}

/** After any change every runner list of the project (and the runner pages' caches) is read again. */
function useRefreshRunners(fullPath: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['projects', 'detail', fullPath, 'runners'] }),
      client.invalidateQueries({ queryKey: queryKeys.runners.all }),
    ]);
}

/** POST /projects/:id/runners ("Enable for this project") or DELETE /projects/:id/runners/:runner_id ("Disable"). */
export function useToggleRunnerAssignment(fullPath: string) {
  const api = useApi();
  const refresh = useRefreshRunners(fullPath);
  return useMutation({
    mutationFn: ({ runnerId, enable }: { runnerId: number; enable: boolean }) =>
      enable ? api.post(`/projects/${encoded(fullPath)}/runners`, { runner_id: runnerId }) : api.delete(`/projects/${encoded(fullPath)}/runners/${runnerId}`),
    // A refusal changed nothing: the row stays with the reason under it (a re-read could drop the row, and
    // the reason with it, when the refusal's cause also takes it off the list, e.g. a runner locked meanwhile).
    onSuccess: refresh,
  });
}

/** PUT /runners/:id {paused}: GitLab's Pause / Resume. */
export function usePauseProjectRunner(fullPath: string) {
  const api = useApi();
  const refresh = useRefreshRunners(fullPath);
  return useMutation({
    mutationFn: ({ runnerId, paused }: { runnerId: number; paused: boolean }) => api.put(`/runners/${runnerId}`, { paused }),
    // A refused pause changed nothing: the rows stay, with the refusal under the button.
    onSuccess: refresh,
  });
}

/** DELETE /runners/:id: GitLab's "Delete runner", offered only to those who may. */
export function useDeleteProjectRunner(fullPath: string) {
  const api = useApi();
  const refresh = useRefreshRunners(fullPath);
  return useMutation({
    mutationFn: (runner: RunnerListItem) => api.delete(`/runners/${runner.id}`),
    onSuccess: refresh,
  });
}

export type RunnerSwitch = 'shared_runners_enabled' | 'group_runners_enabled';

/**
 * PUT /projects/:id with one of the two switches. Its answer is GitLab's Entities::Project, not the
 * ProjectWithAccess the page holds (no `permissions`), so the cached project takes the new value and is
 * read again.
 */
export function useProjectRunnerSwitch(fullPath: string, field: RunnerSwitch) {
  const api = useApi();
  const client = useQueryClient();
  const refresh = useRefreshRunners(fullPath);
  return useMutation({
    mutationFn: (value: boolean) => api.put<ProjectWithAccess>(`/projects/${encoded(fullPath)}`, { [field]: value }),
    onSuccess: (_, value) => {
      const key = queryKeys.projects.detail(fullPath);
      client.setQueryData<ProjectWithAccess>(key, (old) => (old ? { ...old, [field]: value } : old));
      return Promise.all([client.invalidateQueries({ queryKey: key }), refresh()]);
    },
  });
}
