// What a page refetches when runners change: the queries that show them, by TanStack Query key. Runner
// events (lib/client/runner-event-stream.ts) name one runner each, and become one round of refetches per
// batch; `resync` refetches every runner query. components/runners/use-runner-events.ts is the hook.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { queryKeys } from './query-keys';
import { openRunnerEventStream, type EventSourceFactory, type RunnerEvent, type RunnerEventsState } from './runner-event-stream';

/** Events that arrive together become one round of refetches. */
export const BATCH_MS = 50;

const isProjectRunnerList = (key: QueryKey) => key[0] === 'projects' && key[1] === 'detail' && key[3] === 'runners';

const isListPage = (key: QueryKey) => key[0] === 'runners' && key[1] === 'list' && key[3] === 'page';

/**
 * What shows the runners first (the rows, the runner's page), then the counts and other lists: a list
 * page holds several count queries, and the browser's six connections per host would queue the rows
 * behind them.
 */
export async function refetchRunners(client: QueryClient, ids: number[] | 'all', extra: readonly QueryKey[]) {
  const first: Promise<unknown>[] = [client.invalidateQueries({ predicate: (q) => isListPage(q.queryKey) })];
  if (ids === 'all') first.push(client.invalidateQueries({ queryKey: [...queryKeys.runners.all, 'detail'] }));
  // Prefix: the runner's details, managers, jobs and projects.
  else for (const id of ids) first.push(client.invalidateQueries({ queryKey: queryKeys.runners.detail(id) }));
  await Promise.allSettled(first);
  await Promise.allSettled([
    client.invalidateQueries({ queryKey: queryKeys.runners.all, predicate: (q) => !isListPage(q.queryKey) && q.queryKey[1] !== 'detail' }),
    client.invalidateQueries({ predicate: (q) => isProjectRunnerList(q.queryKey) }),
    ...extra.map((key) => client.invalidateQueries({ queryKey: key })),
  ]);
}

export interface FollowOptions {
  /** Further keys to refetch on any change (read at each refetch: the caller's latest). */
  invalidate: () => readonly QueryKey[];
  onEvent: (e: RunnerEvent) => void;
  onState: (state: RunnerEventsState) => void;
}

/** Keeps `client`'s runner queries fresh from the event stream until the returned function is called. */
export function followRunnerEvents(client: QueryClient, opts: FollowOptions, create?: EventSourceFactory): () => void {
  let flush: ReturnType<typeof setTimeout> | undefined;
  let pending = new Set<number>();
  let all = false;

  const schedule = () => {
    flush ??= setTimeout(() => {
      flush = undefined;
      const ids = all ? 'all' : [...pending];
      pending = new Set();
      all = false;
      void refetchRunners(client, ids, opts.invalidate());
    }, BATCH_MS);
  };

  const close = openRunnerEventStream(
    {
      onState: opts.onState,
      onRunner: (event) => {
        pending.add(event.id);
        schedule();
        opts.onEvent(event);
      },
      onResync: () => {
        all = true;
        schedule();
      },
    },
    create,
  );

  return () => {
    close();
    clearTimeout(flush);
  };
}
