'use client';
// The caller's dashboard sessions through /api/v4/user/sessions: the list and revoking one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import type { UserSession } from '@/lib/client/types';

// A user holds at most 100 active sessions (as GitLab), so one page of 100 is all of them.
const PER_PAGE = 100;

export function useSessionList() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.userSessions,
    queryFn: () => api.getPage<UserSession>('/user/sessions', { per_page: PER_PAGE }),
  });
}

export function useRevokeSession() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/user/sessions/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.userSessions }),
  });
}
