'use client';
// Runners through /api/v4: the list (one page, keyed by the URL's filters), a runner's details, managers
// and jobs, and the writes (update, pause/resume, delete).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import type {
  NewRunner,
  RunnerCreate,
  RunnerDetails,
  RunnerDetailsWithPermissions,
  RunnerJob,
  RunnerListItem,
  RunnerManager,
  RunnerProject,
  RunnerType,
  RunnerUpdate,
} from '@/lib/client/types';
import type { RunnerFilters } from '@/lib/client/runner-filters';
import { RUNNER_LIST_PER_PAGE, runnerCountsRead, runnerListPageRead, type RunnerListSource } from '@/lib/client/runner-list-query';

export const PER_PAGE = RUNNER_LIST_PER_PAGE;
// GitLab's runner page lists 30 jobs a page.
export const JOBS_PER_PAGE = 30;
/** GitLab's runner page lists assigned projects five at a time. */
export const PROJECTS_PER_PAGE = 5;

/** The runner's details with what the viewer may do with it, so the page offers only actions that work. */
export function useRunner(id: number, opts: { refetchInterval?: (runner: RunnerDetailsWithPermissions | undefined) => number | false } = {}) {
  const api = useApi();
  const { refetchInterval } = opts;
  return useQuery({
    queryKey: queryKeys.runners.detail(id),
    queryFn: () => api.get<RunnerDetailsWithPermissions>(`/runners/${id}`, { with_permissions: true }),
    refetchInterval: refetchInterval ? (q) => refetchInterval(q.state.data) : undefined,
  });
}

/** GET /runners/:id/projects (Runway's paged, searchable list of the runner's projects). */
export function useRunnerProjects(id: number, page: number, search: string, enabled: boolean) {
  const api = useApi();
  const filters = { page, perPage: PROJECTS_PER_PAGE, search: search || undefined };
  return useQuery({
    queryKey: queryKeys.runners.projects(id, filters),
    queryFn: () => api.getPage<RunnerProject>(`/runners/${id}/projects`, { page, per_page: PROJECTS_PER_PAGE, search: filters.search }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** POST /user/runners: the answer carries the runner's token, which is never shown again. */
export function useCreateRunner() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runner: RunnerCreate) => api.post<NewRunner>('/user/runners', runner),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.runners.all, predicate: (q) => q.queryKey[1] === 'list' }),
  });
}

/** POST /runners/:id/reset_authentication_token: the new token, shown once. */
export function useResetRunnerToken(id: number) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ token: string; token_expires_at: string | null }>(`/runners/${id}/reset_authentication_token`),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.runners.detail(id), exact: true }),
  });
}

export function useRunnerManagers(id: number) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.runners.managers(id), queryFn: () => api.get<RunnerManager[]>(`/runners/${id}/managers`) });
}

export function useRunnerJobs(id: number, page: number, status?: string) {
  const api = useApi();
  const filters = { page, perPage: JOBS_PER_PAGE, status };
  return useQuery({
    queryKey: queryKeys.runners.jobs(id, filters),
    queryFn: () => api.getPage<RunnerJob>(`/runners/${id}/jobs`, { order_by: 'id', sort: 'desc', status, page: filters.page, per_page: filters.perPage }),
    placeholderData: keepPreviousData,
  });
}

/** PUT /runners/:id; the answer (RunnerDetails) replaces the cached details, lists refresh. */
export function useUpdateRunner(id: number) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: RunnerUpdate) => api.put<RunnerDetails>(`/runners/${id}`, changes),
    onSuccess: (runner) => {
      // PUT answers GitLab's RunnerDetails; the permissions stay until the details are read again.
      client.setQueryData<RunnerDetailsWithPermissions>(queryKeys.runners.detail(id), (old) =>
        old ? { ...runner, _runway_permissions: old._runway_permissions } : undefined,
      );
      client.invalidateQueries({ queryKey: queryKeys.runners.detail(id), exact: true });
      // The change wrote an audit event: an open Activity tab shows it.
      client.invalidateQueries({ queryKey: ['audit_events'] });
      return client.invalidateQueries({ queryKey: queryKeys.runners.all, predicate: (q) => q.queryKey[1] === 'list' });
    },
  });
}

export function useDeleteRunner() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/runners/${id}`),
    onSuccess: (_void, id) => {
      client.removeQueries({ queryKey: queryKeys.runners.detail(id) });
      return client.invalidateQueries({ queryKey: queryKeys.runners.all });
    },
  });
}

export type { RunnerListSource };

/** One page of the list with `with_details` (owner, job count, version, permissions per row, one request). */
export function useRunnerListPage(source: RunnerListSource, filters: RunnerFilters) {
  const api = useApi();
  const read = runnerListPageRead(source, filters);
  return useQuery({
    queryKey: read.key,
    queryFn: () => api.getPage<RunnerListItem>(read.path, read.params),
    placeholderData: keepPreviousData,
  });
}

/** GET .../counts (Runway extension): every type tab's and status counter's number in one request. */
export interface RunnerListCounts {
  runner_type: Record<'all' | RunnerType, number>;
  status: Record<'online' | 'offline' | 'stale', number>;
}

/** The tabs' and counters' numbers for the current filters (the list's filters with its type and status). */
export function useRunnerCounts(source: RunnerListSource, filters: RunnerFilters) {
  const api = useApi();
  const read = runnerCountsRead(source, filters);
  return useQuery({
    queryKey: read.key,
    queryFn: () => api.get<RunnerListCounts>(read.path, read.params),
    placeholderData: keepPreviousData,
  });
}

/** Tag names for the tag token's suggestions (admins; GitLab suggests on its admin list only). */
export function useRunnerTagSuggestions(search: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['runners', 'tags', search] as const,
    queryFn: () => api.get<Array<{ id: number; name: string }>>('/runners/tags', { search: search || undefined }),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/** Pause or resume one runner from a list (PUT /runners/:id paused); lists and counts refresh. */
export function useSetRunnerPaused() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, paused }: { id: number; paused: boolean }) => api.put<RunnerDetails>(`/runners/${id}`, { paused }),
    onSettled: (_r, _e, { id }) => {
      client.invalidateQueries({ queryKey: queryKeys.runners.detail(id) });
      return client.invalidateQueries({ queryKey: queryKeys.runners.all, predicate: (q) => q.queryKey[1] === 'list' });
    },
  });
}
