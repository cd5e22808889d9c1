'use client';
// Live runner updates for a page: one EventSource on GET /api/v4/runners/events (a Runway extension).
// An event names a runner; the page refetches what shows it (lists, counts, the runner's page, a
// project's runner lists, and any keys the caller adds, e.g. the fleet overview's). A lost stream is
// reopened with backoff and, once open again, every runner query is refetched: nothing is replayed.
import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiPath } from '@/lib/client/api';
import { queryKeys } from '@/lib/client/query-keys';

export type RunnerEventsState = 'connecting' | 'live' | 'reconnecting';
export interface RunnerEvent {
  id: number;
  action: 'created' | 'updated' | 'deleted';
}

/** Events that arrive together become one round of refetches. */
const BATCH_MS = 50;
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 15_000];

const isProjectRunnerList = (key: QueryKey) => key[0] === 'projects' && key[1] === 'detail' && key[3] === 'runners';

const isListPage = (key: QueryKey) => key[0] === 'runners' && key[1] === 'list' && key[3] === 'page';

/**
 * What shows the runners first (the rows, the runner's page), then the counts and other lists: a list
 * page holds several count queries, and the browser's six connections per host would queue the rows
 * behind them.
 */
async function refetchRunners(client: QueryClient, ids: number[] | 'all', extra: readonly QueryKey[]) {
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

function parseEvent(data: string): RunnerEvent | null {
  try {
    const v = JSON.parse(data) as Partial<RunnerEvent>;
    return typeof v.id === 'number' ? (v as RunnerEvent) : null;
  } catch {
    return null;
  }
}

/**
 * Keeps the page's runner queries fresh while it is open. `invalidate` adds query keys to refetch on any
 * change; `onEvent` sees each event (after the refetches are asked for). Returns the stream's state.
 */
export function useRunnerEvents(opts: { invalidate?: readonly QueryKey[]; onEvent?: (e: RunnerEvent) => void } = {}): RunnerEventsState {
  const client = useQueryClient();
  const [state, setState] = useState<RunnerEventsState>('connecting');
  // The latest options without reopening the stream when a caller passes new arrays each render.
  const latest = useRef(opts);
  useEffect(() => {
    latest.current = opts;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let flush: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let openedBefore = false;
    let pending = new Set<number>();
    let all = false;

    const schedule = () => {
      flush ??= setTimeout(() => {
        flush = undefined;
        const ids = all ? 'all' : [...pending];
        pending = new Set();
        all = false;
        void refetchRunners(client, ids, latest.current.invalidate ?? []);
      }, BATCH_MS);
    };
    const catchUp = () => {
      all = true;
      schedule();
    };

    const open = () => {
      source = new EventSource(apiPath('/runners/events'));
      source.onopen = () => {
        failures = 0;
        setState('live');
        // Changes made while the stream was down were not delivered: refetch everything once.
        if (openedBefore) catchUp();
        openedBefore = true;
      };
      source.addEventListener('runner', (e) => {
        const event = parseEvent((e as MessageEvent<string>).data);
        if (!event) return;
        pending.add(event.id);
        schedule();
        latest.current.onEvent?.(event);
      });
      source.addEventListener('resync', catchUp);
      source.onerror = () => {
        // Reopened by us with backoff (the browser's own retry has none and gives up on an HTTP error).
        source?.close();
        setState('reconnecting');
        retry = setTimeout(open, BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]);
      };
    };
    open();

    return () => {
      source?.close();
      clearTimeout(retry);
      clearTimeout(flush);
    };
  }, [client]);

  return state;
}

/** GitLab's online window (lib/runners/status.ts): a runner not heard from for two hours is offline. */
const ONLINE_WINDOW_MS = 2 * 60 * 60 * 1000;
/** Never sooner than this: a client clock ahead of the server's must not turn into polling. */
const MIN_EXPIRY_MS = 60_000;
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Going offline is time passing, not a write, so no event announces it. While a runner shows as online,
 * one refetch of its queries is scheduled for the moment its two hours run out (once per contact seen).
 */
export function useOnlineExpiry(runner: { id?: number; online?: boolean | null; contactedAt?: string | null }) {
  const client = useQueryClient();
  const { id, online, contactedAt } = runner;
  useEffect(() => {
    if (!id || !online || !contactedAt) return;
    const left = Math.max(MIN_EXPIRY_MS, Date.parse(contactedAt) + ONLINE_WINDOW_MS - Date.now() + 1_000);
    if (!Number.isFinite(left) || left > MAX_TIMEOUT_MS) return;
    const timer = setTimeout(() => void refetchRunners(client, [id], []), left);
    return () => clearTimeout(timer);
  }, [client, id, online, contactedAt]);
}
