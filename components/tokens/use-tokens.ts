'use client';
// Personal access tokens through /api/v4: the list (one page, keyed by the URL state), create and revoke.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, useCurrentUser } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import type { NewPersonalAccessToken, PersonalAccessToken } from '@/lib/client/types';

export const TOKEN_SCOPES = [
  { value: 'api', description: 'Complete read and write access to the API.' },
  { value: 'read_api', description: 'Read access to the API.' },
  { value: 'read_user', description: 'Read your profile through /user.' },
  { value: 'create_runner', description: 'Create runners.' },
  { value: 'manage_runner', description: 'Manage runners.' },
] as const;

export type TokenStateFilter = 'active' | 'inactive' | 'all';
export const PER_PAGE = 20;

export function useTokenList(page: number, state: TokenStateFilter) {
  const api = useApi();
  const user = useCurrentUser();
  const filters = { userId: user.id, page, perPage: PER_PAGE, state: state === 'all' ? undefined : state };
  return useQuery({
    queryKey: queryKeys.personalAccessTokens.list(filters),
    queryFn: () =>
      api.getPage<PersonalAccessToken>('/personal_access_tokens', {
        user_id: filters.userId,
        state: filters.state,
        page: filters.page,
        per_page: filters.perPage,
      }),
    placeholderData: keepPreviousData,
  });
}

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  description?: string;
  expires_at?: string;
}

export function useCreateToken() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTokenInput) => api.post<NewPersonalAccessToken>('/user/personal_access_tokens', input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.personalAccessTokens.all }),
  });
}

export function useRevokeToken() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/personal_access_tokens/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.personalAccessTokens.all }),
  });
}
