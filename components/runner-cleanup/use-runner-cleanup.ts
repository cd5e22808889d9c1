'use client';
// The cleanup page's reads and writes through /api/v4: the preview page, the run, the last runs and the
// schedule (Runway-extension fields of /application/settings). A run refreshes the preview, the runs and
// every runner list.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import type { RunnerListItem } from '@/lib/client/types';
import { cleanupRuleParams, type CleanupRuleState, type CleanupRun, type CleanupSchedule } from '@/lib/client/runner-cleanup';

export const PREVIEW_PER_PAGE = 20;
export const RUNS_PER_PAGE = 5;

const keys = {
  preview: (params: Record<string, unknown>) => ['runner-cleanup', 'preview', params] as const,
  runs: (page: number) => ['runner-cleanup', 'runs', page] as const,
  schedule: ['application-settings'] as const,
};

export function useCleanupPreview(rule: CleanupRuleState) {
  const api = useApi();
  const params = { ...cleanupRuleParams(rule), page: rule.page, per_page: PREVIEW_PER_PAGE };
  return useQuery({
    queryKey: keys.preview(params),
    queryFn: () => api.getPage<RunnerListItem>('/runners/cleanup', { ...params, with_details: true }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useCleanupRuns(page: number) {
  const api = useApi();
  return useQuery({
    queryKey: keys.runs(page),
    queryFn: () => api.getPage<CleanupRun>('/runners/cleanup/runs', { page, per_page: RUNS_PER_PAGE }),
    placeholderData: keepPreviousData,
  });
}

/** POST /runners/cleanup with dry_run=false; `onDone` receives the run with its per-runner results. */
export function useRunCleanup(onDone: (run: CleanupRun) => void) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: CleanupRuleState) => api.post<CleanupRun>('/runners/cleanup', { ...cleanupRuleParams(rule), dry_run: false }),
    onSuccess: onDone,
    onSettled: () => {
      client.invalidateQueries({ queryKey: ['runner-cleanup'] });
      client.invalidateQueries({ queryKey: ['runners'] });
    },
  });
}

export function useCleanupSchedule() {
  const api = useApi();
  return useQuery({ queryKey: keys.schedule, queryFn: () => api.get<CleanupSchedule>('/application/settings') });
}

export function useUpdateCleanupSchedule() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<CleanupSchedule>) => api.put<CleanupSchedule>('/application/settings', change),
    onSuccess: (data) => client.setQueryData(keys.schedule, data),
  });
}
