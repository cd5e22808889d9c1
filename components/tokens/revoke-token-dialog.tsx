'use client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { PersonalAccessToken } from '@/lib/client/types';
import { useRevokeToken } from './use-tokens';

export function RevokeTokenDialog({ token, onClose }: { token: PersonalAccessToken | null; onClose: () => void }) {
  return (
    <ConfirmDialog
      target={token?.id ?? null}
      title={`Revoke “${token?.name ?? ''}”?`}
      confirmLabel="Revoke token"
      pendingLabel="Revoking…"
      mutation={useRevokeToken()}
      onClose={onClose}
    >
      <p>Anything using this token stops working at once. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
