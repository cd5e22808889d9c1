// What one runner list page reads, as data: the endpoint, its parameters and the cache key, for the rows
// (one page with details) and for the tab and status counts. The browser's hooks (components/runners/
// use-runners.ts) and the server's first-page prefetch build their reads from here, so the page the
// server puts in the HTML lands under exactly the key the browser then reads.
import { queryKeys } from './query-keys';
import { runnerFilterParams, type RunnerFilters } from './runner-filters';

/** Which list a runner list page shows: every runner (admins) or a group's. */
export type RunnerListSource = { kind: 'all' } | { kind: 'group'; groupId: number };

export const RUNNER_LIST_PER_PAGE = 20;

const sourcePath = (s: RunnerListSource) => (s.kind === 'all' ? '/runners/all' : `/groups/${s.groupId}/runners`);
const sourceKey = (s: RunnerListSource) => (s.kind === 'group' ? `group:${s.groupId}` : s.kind);

/** One page of the list with `with_details` (owner, job count, version, permissions per row). */
export function runnerListPageRead(source: RunnerListSource, filters: RunnerFilters) {
  const query = {
    ...runnerFilterParams(filters, { group: source.kind === 'group' }),
    type: filters.type,
    page: filters.page,
    per_page: RUNNER_LIST_PER_PAGE,
  };
  return { key: queryKeys.runners.listPage(sourceKey(source), query), path: sourcePath(source), params: { ...query, with_details: true } };
}

/** The tabs' and counters' numbers for the list's filters (GET .../counts, a Runway extension). */
export function runnerCountsRead(source: RunnerListSource, filters: RunnerFilters) {
  const { order_by: _o, sort: _s, ...params } = runnerFilterParams(filters, { group: source.kind === 'group' });
  const query = { ...params, type: filters.type };
  return { key: queryKeys.runners.listCount(sourceKey(source), query), path: `${sourcePath(source)}/counts`, params: query };
}
