'use client';
// The bulk bar: the selection's actions above the runner table, and the progress / outcome of the last bulk
// action (useBulkRunnerAction runs it). Loaded by the list with the first selection, so it and its delete
// dialog are off the list's first-load JavaScript (issue 23).
import { useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import type { BulkAction, BulkState, useBulkRunnerAction } from './runner-bulk-actions';

const WORDS: Record<BulkAction, { running: string; done: string; failed: string }> = {
  pause: { running: 'Pausing', done: 'paused', failed: 'Some runners could not be paused' },
  resume: { running: 'Resuming', done: 'resumed', failed: 'Some runners could not be resumed' },
  delete: { running: 'Deleting', done: 'deleted', failed: 'Some runners could not be deleted' },
};

const runners = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'runner' : 'runners'}`;

/** The bar above the table while runners are selected, and the progress / outcome of the last bulk action. */
export function RunnerBulkBar({
  selectedIds,
  canPause,
  canDelete,
  onClear,
  bulk,
}: {
  selectedIds: number[];
  canPause: boolean;
  canDelete: boolean;
  onClear: () => void;
  bulk: ReturnType<typeof useBulkRunnerAction>;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { state } = bulk;
  const busy = !!state?.running;
  const start = async (action: BulkAction) => {
    setConfirmDelete(false);
    // What worked leaves the selection; what failed stays selected so it can be retried.
    await bulk.run(action, selectedIds, (succeeded) => {
      if (succeeded.length) onClear();
    });
  };

  return (
    <div className="flex flex-col gap-2">
      {selectedIds.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2" role="region" aria-label="Bulk actions">
          <p className="mr-auto text-sm font-medium text-indigo-900">{runners(selectedIds.length)} selected</p>
          <Button variant="ghost" size="sm" onClick={onClear} disabled={busy}>
            Clear selection
          </Button>
          {canPause && (
            <>
              <Button variant="secondary" size="sm" onClick={() => start('pause')} disabled={busy}>
                Pause selected
              </Button>
              <Button variant="secondary" size="sm" onClick={() => start('resume')} disabled={busy}>
                Resume selected
              </Button>
            </>
          )}
          {canDelete && (
            <Button variant="danger" size="sm" onClick={() => setConfirmDelete(true)} disabled={busy}>
              Delete selected
            </Button>
          )}
        </div>
      )}

      {state && <BulkOutcome state={state} onDismiss={bulk.dismiss} />}

      {confirmDelete && (
        <Dialog
          open={confirmDelete}
          title={`Delete ${runners(selectedIds.length)}?`}
          onClose={() => setConfirmDelete(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
                Cancel
              </Button>
              <Button variant="danger" onClick={() => start('delete')}>
                Permanently delete {runners(selectedIds.length)}
              </Button>
            </>
          }
        >
          <p>
            {runners(selectedIds.length)} will be permanently deleted: they stop picking up jobs and their tokens stop working at once. This cannot be undone.
          </p>
        </Dialog>
      )}
    </div>
  );
}

function BulkOutcome({ state, onDismiss }: { state: BulkState; onDismiss: () => void }) {
  const w = WORDS[state.action];
  if (state.running) {
    return (
      <div role="status" className="flex flex-col gap-1 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700">
        <span>
          {w.running} {state.done.toLocaleString('en-US')} of {runners(state.total)}…
        </span>
        <progress className="h-1.5 w-full accent-indigo-600" max={state.total} value={state.done} aria-label={`${w.running} runners`} />
      </div>
    );
  }
  const ok = state.succeeded.length;
  if (!state.failures.length) {
    return (
      <div role="status" className="flex items-center gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        <span className="mr-auto">
          {runners(ok)} {w.done}.
        </span>
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    );
  }
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <div className="flex items-start gap-2">
        <p className="mr-auto font-medium">
          {w.failed}: {state.failures.length} of {runners(state.total)} failed{ok ? `, ${ok.toLocaleString('en-US')} ${w.done}` : ''}.
        </p>
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
      <ul className="mt-1 list-disc pl-5" aria-label="Runners that failed">
        {state.failures
          .slice()
          .sort((a, b) => a.id - b.id)
          .map((f) => (
            <li key={f.id}>
              Runner #{f.id}: {f.message}
            </li>
          ))}
      </ul>
    </div>
  );
}
