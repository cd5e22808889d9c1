'use client';
// PUT /groups/:id with GitLab's shared_runners_setting; the cached group (and every project and runner list
// the cascade may have changed) is read again afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { ApiError } from '@/lib/client/api';
import { queryKeys } from '@/lib/client/query-keys';
import type { Group, SharedRunnersSetting } from '@/lib/client/types';
import { errorText } from '@/lib/client/error-text';

export function useGroupRunnerSetting(fullPath: string) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (setting: SharedRunnersSetting) => api.put<Group>(`/groups/${encodeURIComponent(fullPath)}`, { shared_runners_setting: setting }),
    onSuccess: (group) =>
      client.setQueryData(queryKeys.groups.detail(fullPath), (old: Group | undefined) =>
        old ? { ...old, shared_runners_setting: group.shared_runners_setting } : old,
      ),
    onSettled: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.groups.all }), client.invalidateQueries({ queryKey: queryKeys.projects.all })]),
  });
}

/** GitLab answers a refused setting as {message: {update_shared_runners: [...]}}: the sentence alone is shown. */
export function settingErrorText(error: Error): string {
  const body = error instanceof ApiError ? (error.body as { message?: { update_shared_runners?: string[] } } | null) : null;
  return body?.message?.update_shared_runners?.join(' ') ?? errorText(error);
}
