'use client';
// Bulk pause / resume / delete of selected runners. GitLab's REST API has no bulk endpoint, so each runner
// gets its own request (PUT /runners/:id, DELETE /runners/:id), a few at a time, and its own outcome: a
// partial failure names every runner that failed with the API's message. No cap on how many. The bar that
// shows the selection and the outcome is runner-bulk-bar.tsx, loaded with the first selection (issue 23).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useApi } from '../dashboard/session-provider';
import { queryKeys } from '@/lib/client/query-keys';
import { errorText } from '@/lib/client/error-text';

export type BulkAction = 'pause' | 'resume' | 'delete';

/** Requests in flight at once: enough to be quick, few enough not to crowd out the page's own reads. */
export const BULK_CONCURRENCY = 4;

export interface BulkState {
  action: BulkAction;
  total: number;
  done: number;
  running: boolean;
  succeeded: number[];
  failures: Array<{ id: number; message: string }>;
}

/** Runs `work` over `items` with at most `limit` at a time; resolves when every item has settled. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function useBulkRunnerAction() {
  const api = useApi();
  const client = useQueryClient();
  const [state, setState] = useState<BulkState | null>(null);

  const run = useCallback(
    async (action: BulkAction, ids: number[], afterWrites?: (succeeded: number[]) => void) => {
      const succeeded: number[] = [];
      const failures: BulkState['failures'] = [];
      setState({ action, total: ids.length, done: 0, running: true, succeeded, failures });
      await eachLimited(ids, BULK_CONCURRENCY, async (id) => {
        try {
          if (action === 'delete') await api.delete(`/runners/${id}`);
          else await api.put(`/runners/${id}`, { paused: action === 'pause' });
          succeeded.push(id);
        } catch (e) {
          failures.push({ id, message: errorText(e) });
        }
        setState((s) => s && { ...s, done: s.done + 1, succeeded: [...succeeded], failures: [...failures] });
      });
      setState((s) => s && { ...s, running: false });
      // Before the refetch: a selection the user starts meanwhile must not be cleared when it lands.
      afterWrites?.(succeeded);
      for (const id of succeeded) {
        if (action === 'delete') client.removeQueries({ queryKey: queryKeys.runners.detail(id) });
        else client.invalidateQueries({ queryKey: queryKeys.runners.detail(id) });
      }
      await client.invalidateQueries({ queryKey: queryKeys.runners.all, predicate: (q) => q.queryKey[1] === 'list' });
      return { succeeded, failures };
    },
    [api, client],
  );

  return { state, run, dismiss: () => setState(null) };
}
