'use client';
// The admin overview's counts: X-Total of each list, asked for one row at a time (per_page=1). A list
// the API did not count (no X-Total) shows as "Not counted" rather than a guess.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';

export const COUNTED = [
  { key: 'projects', path: '/projects' },
  { key: 'users', path: '/users' },
  { key: 'groups', path: '/groups', query: { all_available: true } },
  { key: 'runners', path: '/runners/all' },
] as const;

export type CountKey = (typeof COUNTED)[number]['key'];

export function useAdminCounts() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.adminCounts,
    queryFn: async () => {
      const pages = await Promise.all(COUNTED.map((c) => api.getPage<unknown>(c.path, { ...('query' in c ? c.query : {}), per_page: 1 })));
      return Object.fromEntries(COUNTED.map((c, i) => [c.key, pages[i].total])) as Record<CountKey, number | undefined>;
    },
  });
}
