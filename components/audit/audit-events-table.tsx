'use client';
// A page of audit events: who, what (with each changed field before -> after), on what, from where, when.
// Used by the admin audit page and by a runner's Activity tab (which leaves out the target column).
import { useQueries } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import { createContext, useContext, type ReactNode } from 'react';
import { useApi } from '../dashboard/session-provider';
import { ApiError } from '@/lib/client/api';
import { DataTable, type DataTableProps } from '../ui/data-table';
import { formatDateTime } from '../shared/format';
import { muted } from '../ui/muted';
import type { AuditEvent } from '@/lib/client/types';

const column = createColumnHelper<AuditEvent>();

/** A changed value as a reader expects it: "none" for empty, lists joined. */
export function formatAuditValue(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'none';
  if (Array.isArray(v)) return v.length ? v.join(', ') : 'none';
  return String(v);
}

const VIA: Record<string, string> = { id: 'by a user', token: 'with the runner token', cleanup: 'by stale-runner cleanup' };

function Action({ event }: { event: AuditEvent }) {
  const d = event.details;
  const changes = d.changes ? Object.entries(d.changes) : [];
  return (
    <div className="flex max-w-md min-w-56 flex-col gap-1 whitespace-normal [overflow-wrap:anywhere]">
      <span className="text-slate-900">
        {d.custom_message ?? event.event_name}
        {d.via && VIA[d.via] && d.via !== 'id' && <span className="text-slate-500"> ({VIA[d.via]})</span>}
      </span>
      {changes.length > 0 && (
        <ul aria-label="Changes" className="flex flex-col gap-0.5 text-xs text-slate-600">
          {changes.map(([field, { from, to }]) => (
            <li key={field}>
              <code className="text-slate-800">{field}</code>: <span className="line-through decoration-slate-400">{formatAuditValue(from)}</span>
              {' → '}
              <span className="font-medium text-slate-900">{formatAuditValue(to)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function authorCell(e: AuditEvent): ReactNode {
  return (
    <div className="flex flex-col">
      <span className="text-slate-900">{e.details.author_name ?? `User #${e.author_id}`}</span>
      {e.author_id === -1 && <span className="text-xs text-slate-500">Not a user</span>}
    </div>
  );
}

/** Runner ids of the page's targets that no longer exist (GET /runners/:id answered 404). */
const DeletedRunners = createContext<ReadonlySet<number>>(new Set());

/**
 * Which runner targets of a page are gone: a deleted runner's events stay in the log, and a link would lead
 * to "Runner not found". One read per runner on the page (at most a page's worth), each cached a minute.
 */
function useDeletedRunners(events: AuditEvent[] | undefined, enabled: boolean): ReadonlySet<number> {
  const api = useApi();
  const ids = enabled ? [...new Set((events ?? []).filter((e) => e.details.target_type === 'Ci::Runner').map((e) => Number(e.details.target_id)))] : [];
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['runners', 'exists', id],
      queryFn: () =>
        api.get(`/runners/${id}`).then(
          () => true,
          (e: unknown) => (e instanceof ApiError && e.status === 404 ? false : Promise.reject(e)),
        ),
      staleTime: 60_000,
    })),
  });
  return new Set(ids.filter((_, i) => results[i].data === false));
}

function TargetCell({ event }: { event: AuditEvent }) {
  const deleted = useContext(DeletedRunners);
  const d = event.details;
  const runnerId = d.target_type === 'Ci::Runner' ? Number(d.target_id) : null;
  return (
    <div className="flex min-w-0 max-w-64 flex-col whitespace-normal [overflow-wrap:anywhere]">
      {runnerId === null ? (
        <span className="text-slate-900">{d.target_details}</span>
      ) : deleted.has(runnerId) ? (
        <span className="text-slate-900">
          Runner #{runnerId} <span className="text-slate-500">(deleted)</span>
        </span>
      ) : (
        <Link href={`/admin/runners/${runnerId}`} className="font-medium text-indigo-700 hover:underline">
          Runner #{runnerId}
        </Link>
      )}
      <span className="text-xs text-slate-500">
        {event.entity_type === 'Gitlab::Audit::InstanceScope' ? 'Instance' : `${event.entity_type} ${d.entity_path ?? event.entity_id}`}
      </span>
    </div>
  );
}

const columns = (withTarget: boolean) => [
  column.display({ id: 'author', header: 'Author', cell: (c) => authorCell(c.row.original) }),
  column.display({ id: 'action', header: 'Action', cell: (c) => <Action event={c.row.original} /> }),
  ...(withTarget
    ? [
        column.display({
          id: 'target',
          header: 'Target',
          cell: (c) => <TargetCell event={c.row.original} />,
        }),
      ]
    : []),
  column.display({ id: 'ip', header: 'IP address', cell: (c) => c.row.original.details.ip_address ?? muted('—') }),
  column.accessor('created_at', {
    header: 'Date',
    cell: (c) => (
      <time className="whitespace-nowrap" dateTime={c.getValue()}>
        {formatDateTime(c.getValue())}
      </time>
    ),
  }),
];

const WITH_TARGET = columns(true);
const WITHOUT_TARGET = columns(false);

export function AuditEventsTable({ withTarget, ...props }: Omit<DataTableProps<AuditEvent>, 'columns' | 'getRowId'> & { withTarget?: boolean }) {
  const deleted = useDeletedRunners(props.data, !!withTarget);
  return (
    <DeletedRunners.Provider value={deleted}>
      <DataTable {...props} columns={withTarget ? WITH_TARGET : WITHOUT_TARGET} getRowId={(e) => String(e.id)} />
    </DeletedRunners.Provider>
  );
}
