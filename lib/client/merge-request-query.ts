// What the merge request list reads, as data: the endpoint, its parameters and the cache key, for a page of
// the list and for each state tab's count. The browser's hooks (components/merge-requests/use-merge-requests.ts)
// and the server's first-page prefetch build their reads from here, so the page the server puts in the HTML
// lands under exactly the key the browser then reads.
import { MR_SORTS, mrFilterParams, type MrFilters, type MrStateFilter } from './merge-request-filters';
import { queryKeys } from './query-keys';

export const MR_PER_PAGE = 20;

const listPath = (fullPath: string) => `/projects/${encodeURIComponent(fullPath)}/merge_requests`;

/** A page of the list: the state tab, the bar's filters, the sort and the page, as the URL holds them. */
export function mergeRequestListRead(fullPath: string, f: MrFilters) {
  const sort = MR_SORTS.find((s) => s.value === f.sort) ?? MR_SORTS[0];
  return {
    key: queryKeys.mergeRequests.list(fullPath, { ...f, perPage: MR_PER_PAGE }),
    path: listPath(fullPath),
    params: { state: f.state, ...mrFilterParams(f), order_by: sort.orderBy, sort: sort.sort, page: f.page, per_page: MR_PER_PAGE },
  };
}

/** A state tab's total under the bar's filters: X-Total of a per_page=1 read (as GitLab's tabs count). */
export function mergeRequestCountRead(fullPath: string, state: MrStateFilter, f: MrFilters) {
  const params = mrFilterParams(f);
  return { key: queryKeys.mergeRequests.count(fullPath, { state, ...params }), path: listPath(fullPath), params: { state, ...params, per_page: 1 } };
}
