'use client';
// The dashboard lists' URL state: ?search= (sent to the API's `search`) and ?page=. A new search replaces
// the address (no history entry per typed phrase) and starts again at page 1.
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';

export function useListSearch() {
  const { params, update } = useUrlState();
  return {
    search: textParam(params, 'search'),
    page: pageParam(params),
    setSearch: (search: string) => update({ search }, { resetPages: ['page'], replace: true }),
    setPage: (page: number) => update({ page }),
  };
}
