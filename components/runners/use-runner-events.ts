'use client';
// Live runner updates for a page: one stream of GET /api/v4/runners/events (a Runway extension, opened
// and reopened by lib/client/runner-event-stream.ts). An event names a runner; the page refetches what
// shows it (lists, counts, the runner's page, a project's runner lists, and any keys the caller adds,
// e.g. the fleet overview's). A reopened stream is replayed what the page missed; when the server cannot
// (`resync`: the page was away longer than the event log keeps, or its id is unknown) every runner
// query is refetched instead.
import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { followRunnerEvents, refetchRunners } from '@/lib/client/runner-refetch';
import type { RunnerEvent, RunnerEventsState } from '@/lib/client/runner-event-stream';

export type { RunnerEvent, RunnerEventsState } from '@/lib/client/runner-event-stream';

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
    return followRunnerEvents(client, {
      invalidate: () => latest.current.invalidate ?? [],
      onEvent: (event) => latest.current.onEvent?.(event),
      onState: setState,
    });
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
