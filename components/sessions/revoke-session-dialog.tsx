'use client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { UserSession } from '@/lib/client/types';
import { useRevokeSession } from './use-sessions';

export function RevokeSessionDialog({ session, onClose }: { session: UserSession | null; onClose: () => void }) {
  return (
    <ConfirmDialog
      target={session?.id ?? null}
      title="Revoke this session?"
      confirmLabel="Revoke"
      pendingLabel="Revoking…"
      mutation={useRevokeSession()}
      onClose={onClose}
    >
      <p>The device will be signed out of Runway on its next request.</p>
    </ConfirmDialog>
  );
}
