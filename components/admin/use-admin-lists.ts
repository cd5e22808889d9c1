'use client';
// The admin pages' reads and writes through /api/v4: users (list, one, create, edit, block, unlock, admin,
// delete)
// and deleting a group or project. Every write refreshes the lists and the overview's counts.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import { PER_PAGE } from '../namespaces/use-namespaces';
import { toast } from '../ui/toast';

export interface AdminUser {
  id: number;
  username: string;
  name: string;
  email: string;
  state: string;
  locked?: boolean;
  /** Runway extension: when the latest sign-in lock that refuses the user ends. */
  locked_until?: string | null;
  is_admin: boolean;
  created_at: string;
  web_url: string;
}

export interface UserInput {
  username?: string;
  name?: string;
  email?: string;
  password?: string;
  admin?: boolean;
  skip_confirmation?: boolean;
}

export function useAdminUserList(filters: { search?: string; page: number }) {
  const api = useApi();
  const key = { search: filters.search, page: filters.page, perPage: PER_PAGE };
  return useQuery({
    queryKey: queryKeys.adminUsers.list(key),
    queryFn: () => api.getPage<AdminUser>('/users', { search: key.search, page: key.page, per_page: key.perPage }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(id: number) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.adminUsers.detail(id), queryFn: () => api.get<AdminUser>(`/users/${id}`) });
}

/** Refreshes what a write may have changed: the user lists and the overview's counts. */
function useInvalidate(key: readonly unknown[]) {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: key }), client.invalidateQueries({ queryKey: queryKeys.adminCounts })]);
}

export function useCreateUser() {
  const api = useApi();
  const invalidate = useInvalidate(queryKeys.adminUsers.all);
  return useMutation({ mutationFn: (input: UserInput) => api.post<AdminUser>('/users', input), onSuccess: invalidate });
}

export function useUpdateUser(id: number) {
  const api = useApi();
  const invalidate = useInvalidate(queryKeys.adminUsers.all);
  return useMutation({ mutationFn: (input: UserInput) => api.put<AdminUser>(`/users/${id}`, input), onSuccess: invalidate });
}

export type UserAction = 'block' | 'unblock' | 'unlock' | 'make_admin' | 'remove_admin';

// GitLab's notices after these admin actions ("Successfully unlocked"...), naming the user.
const DONE: Record<UserAction, string> = {
  block: 'Successfully blocked',
  unblock: 'Successfully unblocked',
  unlock: 'Successfully unlocked',
  make_admin: 'Made an administrator:',
  remove_admin: 'No longer an administrator:',
};

export function useUserAction() {
  const api = useApi();
  const invalidate = useInvalidate(queryKeys.adminUsers.all);
  return useMutation({
    mutationFn: ({ user, action }: { user: AdminUser; action: UserAction }) =>
      action === 'make_admin' || action === 'remove_admin'
        ? api.put(`/users/${user.id}`, { admin: action === 'make_admin' })
        : api.post(`/users/${user.id}/${action}`),
    onSuccess: async (_, { user, action }) => {
      toast(`${DONE[action]} @${user.username}`);
      await invalidate();
    },
  });
}

export function useDeleteUser() {
  const api = useApi();
  const invalidate = useInvalidate(queryKeys.adminUsers.all);
  return useMutation({
    mutationFn: ({ user, hardDelete }: { user: AdminUser; hardDelete: boolean }) => api.delete(`/users/${user.id}${hardDelete ? '?hard_delete=true' : ''}`),
    onSuccess: invalidate,
  });
}

/** DELETE /groups/:id or /projects/:id. */
export function useDeleteNamespace(kind: 'groups' | 'projects') {
  const api = useApi();
  const invalidate = useInvalidate(kind === 'groups' ? queryKeys.groups.all : queryKeys.projects.all);
  return useMutation({ mutationFn: (target: { id: number }) => api.delete(`/${kind}/${target.id}`), onSuccess: invalidate });
}
