'use client';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { InlineError } from '../ui/states';
import type { PersonalAccessToken } from '@/lib/client/types';
import { useRevokeToken } from './use-tokens';

export function RevokeTokenDialog({ token, onClose }: { token: PersonalAccessToken | null; onClose: () => void }) {
  const revoke = useRevokeToken();
  const close = () => {
    if (revoke.isPending) return;
    revoke.reset();
    onClose();
  };
  return (
    <Dialog
      open={token !== null}
      title={`Revoke “${token?.name ?? ''}”?`}
      onClose={close}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={revoke.isPending}
            onClick={() => token && revoke.mutate(token.id, { onSuccess: () => { revoke.reset(); onClose(); } })}
          >
            {revoke.isPending ? 'Revoking…' : 'Revoke token'}
          </Button>
        </>
      }
    >
      <p>Anything using this token stops working at once. This cannot be undone.</p>
      {revoke.error && (
        <div className="mt-3">
          <InlineError>{revoke.error.message}</InlineError>
        </div>
      )}
    </Dialog>
  );
}
