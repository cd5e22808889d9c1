'use client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { InlineError } from '../ui/states';
import type { RunnerDetails } from '@/lib/client/types';
import { useDeleteRunner } from './use-runners';
import { errorText } from '@/lib/client/error-text';

/** Confirms, deletes, then hands back to the caller (which leaves the page). The API's 403s are shown as they come. */
export function DeleteRunnerDialog({ runner, open, onClose, onDeleted }: { runner: RunnerDetails; open: boolean; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteRunner();
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      title={`Delete runner #${runner.id}?`}
      onClose={close}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate(runner.id, { onSuccess: onDeleted })}>
            {remove.isPending ? 'Deleting…' : 'Delete runner'}
          </Button>
        </>
      }
    >
      <p>{runner.description ? `“${runner.description}” ` : 'The runner '}stops picking up jobs and its token stops working at once. This cannot be undone.</p>
      {remove.error && (
        <div className="mt-3">
          <InlineError>{errorText(remove.error)}</InlineError>
        </div>
      )}
    </Dialog>
  );
}
