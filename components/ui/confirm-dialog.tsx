'use client';
// A dialog that confirms one destructive mutation: Cancel, the confirming button (busy while it runs) and
// the API's error in place. Closing is refused while the mutation runs.
import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { InlineError } from './states';
import { errorText } from '@/lib/client/error-text';

export interface ConfirmDialogProps<V> {
  /** What the mutation acts on; the dialog is open while it is set. */
  target: V | null;
  title: string;
  confirmLabel: string;
  pendingLabel: string;
  mutation: UseMutationResult<unknown, Error, V>;
  onClose: () => void;
  /** Keeps the confirming button disabled (e.g. until a typed confirmation matches). */
  confirmDisabled?: boolean;
  /** After success; closing the dialog unless given. */
  onDone?: () => void;
  children: ReactNode;
}

export function ConfirmDialog<V>({ target, title, confirmLabel, pendingLabel, mutation, onClose, onDone, confirmDisabled, children }: ConfirmDialogProps<V>) {
  const close = () => {
    if (mutation.isPending) return;
    mutation.reset();
    onClose();
  };
  const confirm = () => {
    if (target === null) return;
    mutation.mutate(target, {
      onSuccess: () => {
        mutation.reset();
        (onDone ?? onClose)();
      },
    });
  };
  return (
    <Dialog
      open={target !== null}
      title={title}
      onClose={close}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant="danger" disabled={mutation.isPending || confirmDisabled} onClick={confirm}>
            {mutation.isPending ? pendingLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {mutation.error && (
        <div className="mt-3">
          <InlineError>{errorText(mutation.error)}</InlineError>
        </div>
      )}
    </Dialog>
  );
}
