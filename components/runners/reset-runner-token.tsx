'use client';
// "Reset authentication token": after a confirmation, the new token is shown once in a copyable field (only
// its digest is stored); the old token stops working at once.
import { useState } from 'react';
import { Button } from '../ui/button';
import { CopyField } from '../ui/copy-field';
import { Dialog } from '../ui/dialog';
import { InlineError } from '../ui/states';
import { formatDateTime } from '../shared/format';
import { useResetRunnerToken } from './use-runners';
import { errorText } from '@/lib/client/error-text';

export function ResetRunnerToken({ runnerId }: { runnerId: number }) {
  const reset = useResetRunnerToken(runnerId);
  const [confirming, setConfirming] = useState(false);
  const token = reset.data;
  return (
    <section aria-labelledby="runner-token-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="runner-token-heading" className="text-base font-semibold text-slate-900">
        Runner authentication token
      </h2>
      <p className="text-sm text-slate-600">
        Resetting the token stops every machine using the current one from picking up jobs until it is registered with the new token.
      </p>
      {token && (
        <div className="flex flex-col gap-2 rounded-md border border-emerald-200 bg-emerald-50 p-4">
          <p className="text-sm font-medium text-emerald-900">New runner authentication token</p>
          <CopyField label="Runner authentication token" value={token.token} />
          <p className="text-sm font-medium text-amber-800" role="note">
            Make sure you save it now: you won’t be able to see it again.
            {token.token_expires_at && ` It expires ${formatDateTime(token.token_expires_at)}.`}
          </p>
        </div>
      )}
      <div>
        <Button variant="secondary" onClick={() => setConfirming(true)} disabled={reset.isPending}>
          {reset.isPending ? 'Resetting…' : 'Reset authentication token'}
        </Button>
      </div>
      {reset.error && <InlineError>{errorText(reset.error)}</InlineError>}
      <Dialog
        open={confirming}
        title="Reset authentication token?"
        onClose={() => setConfirming(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirming(false);
                reset.mutate();
              }}
            >
              Reset token
            </Button>
          </>
        }
      >
        <p>The runner stops working until it is registered again with the new token.</p>
      </Dialog>
    </section>
  );
}
