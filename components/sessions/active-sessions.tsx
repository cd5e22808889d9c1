'use client';
// The Active sessions page (GitLab's /-/user_settings/active_sessions): every device signed in to the
// account, the current one marked, the others revocable after confirmation.
import { MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';
import { Breadcrumbs } from '../ui/breadcrumbs';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { formatDateTime } from '../shared/format';
import type { UserSession } from '@/lib/client/types';
import { RevokeSessionDialog } from './revoke-session-dialog';
import { useSessionList } from './use-sessions';

function SessionItem({ session, onRevoke }: { session: UserSession; onRevoke: (s: UserSession) => void }) {
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-start sm:justify-between" data-testid="active-session">
      <div className="min-w-0 text-sm text-slate-600">
        <p className="font-semibold text-slate-900">{session.ip_address ?? 'Unknown address'}</p>
        {session.current ? (
          <p className="text-emerald-700">This is your current session</p>
        ) : (
          <p>
            Last accessed on <time dateTime={session.last_activity_at}>{formatDateTime(session.last_activity_at)}</time>
          </p>
        )}
        <p className="break-words text-slate-500">{session.user_agent ?? 'Unknown browser'}</p>
        <p>
          <span className="font-medium text-slate-700">Signed in</span> on <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
        </p>
      </div>
      {!session.current && (
        <Button
          variant="danger"
          size="sm"
          className="shrink-0 self-start"
          aria-label={`Revoke session from ${session.ip_address ?? 'unknown address'}, signed in ${formatDateTime(session.created_at)}`}
          onClick={() => onRevoke(session)}
        >
          Revoke
        </Button>
      )}
    </li>
  );
}

export function ActiveSessions() {
  const list = useSessionList();
  const [revoking, setRevoking] = useState<UserSession | null>(null);
  const sessions = list.data?.items;

  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={[{ label: 'User settings' }, { label: 'Active sessions' }]} />
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Active sessions</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-500">
          This is a list of devices that have logged into your account. Revoke any sessions that you do not recognize.
        </p>
      </div>
      <section aria-label="Active sessions" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        {list.isPending ? (
          <LoadingState />
        ) : list.error ? (
          <ErrorState error={list.error} onRetry={() => list.refetch()} />
        ) : !sessions?.length ? (
          <EmptyState title="No active sessions" icon={MonitorSmartphone} />
        ) : (
          <ul className="divide-y divide-slate-200">
            {sessions.map((s) => (
              <SessionItem key={s.id} session={s} onRevoke={setRevoking} />
            ))}
          </ul>
        )}
      </section>
      <RevokeSessionDialog session={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}
