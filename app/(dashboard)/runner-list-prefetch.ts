// The first page of a runner list (rows and counts), read on the server for the first HTML under the same
// cache keys as the browser's hooks (lib/client/runner-list-query.ts), so live updates, filters, selection
// and row actions carry on from there. See page-prefetch.ts.
import type { RouteHandler } from '@/lib/api/handler';
import { parseRunnerFilters } from '@/lib/client/runner-filters';
import { runnerCountsRead, runnerListPageRead, type RunnerListSource } from '@/lib/client/runner-list-query';
import { PagePrefetch, urlParams, type SearchParams } from './page-prefetch';

export type { SearchParams };

export interface RunnerListHandlers {
  list: RouteHandler;
  counts: RouteHandler;
  /** The route's path parameters (a group list's `id`). */
  params?: Record<string, string>;
}

/** Adds the list's first page (rows and counts) for the URL's filters to `into`. */
export async function prefetchRunnerList(
  source: RunnerListSource,
  searchParams: SearchParams,
  handlers: RunnerListHandlers,
  into = new PagePrefetch(),
): Promise<PagePrefetch> {
  const filters = parseRunnerFilters(urlParams(searchParams));
  const params = handlers.params ?? {};
  await Promise.all([
    into.page(handlers.list, runnerListPageRead(source, filters), params),
    into.json(handlers.counts, runnerCountsRead(source, filters), params),
  ]);
  return into;
}
