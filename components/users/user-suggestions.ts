'use client';
// Users offered by a filtered-search token that takes a username (the runner list's Creator, the merge
// request list's Author, Assignee and Reviewer): found by username or name, plus what was typed when it is
// a username the search did not return.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { typedOption, type FilterOption } from '../ui/filtered-search';
import { USERNAME } from '@/lib/client/usernames';

export interface UserSuggestion {
  id: number;
  username: string;
  name: string;
}

/** GET /users?search=, which any signed-in user may read, as in GitLab. */
export function useUserSuggestions(search: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['users', 'suggestions', search] as const,
    queryFn: () => api.get<UserSuggestion[]>('/users', { search: search || undefined, per_page: 10, active: true }),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/** The token's values: the users found, then a typed username none of them has. */
export function userOptions<C>(users: UserSuggestion[] | undefined, typed: string, changes: (username: string) => C): FilterOption<C>[] {
  const known = (users ?? []).map<FilterOption<C>>((u) => ({ key: `user:${u.id}`, text: u.name, detail: `@${u.username}`, changes: changes(u.username) }));
  const listed = (users ?? []).some((u) => u.username.toLowerCase() === typed.toLowerCase());
  return [...known, ...(typed && USERNAME.test(typed) && !listed ? [typedOption(typed, changes(typed))] : [])];
}

/** What the list says while it has no user to offer. */
export const userHint = (fetching: boolean) => (fetching ? 'Loading users…' : 'Type a username');
