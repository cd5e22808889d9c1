'use client';
// A page of audit events: who, what (with each changed field before -> after), on what, from where, when.
// Used by the admin audit page and by a runner's Activity tab (which leaves out the target column).
import { createColumnHelper } from '@tanstack/react-table';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from '../ui/data-table';
import { formatDateTime } from '../tokens/format';
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

const columns = (withTarget: boolean) => [
  column.display({ id: 'author', header: 'Author', cell: (c) => authorCell(c.row.original) }),
  column.display({ id: 'action', header: 'Action', cell: (c) => <Action event={c.row.original} /> }),
  ...(withTarget
    ? [
        column.display({
          id: 'target',
          header: 'Target',
          cell: (c) => (
            <div className="flex flex-col">
              {c.row.original.details.target_type === 'Ci::Runner' ? (
                // The admin page of the runner (a deleted one answers "Runner not found" there).
                <Link href={`/admin/runners/${c.row.original.details.target_id}`} className="font-medium text-indigo-700 hover:underline">
                  Runner #{c.row.original.details.target_id}
                </Link>
              ) : (
                <span className="text-slate-900">{c.row.original.details.target_details}</span>
              )}
              <span className="text-xs text-slate-500">
                {c.row.original.entity_type === 'Gitlab::Audit::InstanceScope'
                  ? 'Instance'
                  : `${c.row.original.entity_type} ${c.row.original.details.entity_path ?? c.row.original.entity_id}`}
              </span>
            </div>
          ),
        }),
      ]
    : []),
  column.display({ id: 'ip', header: 'IP address', cell: (c) => c.row.original.details.ip_address ?? muted('—') }),
  column.accessor('created_at', { header: 'Date', cell: (c) => <time dateTime={c.getValue()}>{formatDateTime(c.getValue())}</time> }),
];

const WITH_TARGET = columns(true);
const WITHOUT_TARGET = columns(false);

export function AuditEventsTable({ withTarget, ...props }: Omit<DataTableProps<AuditEvent>, 'columns' | 'getRowId'> & { withTarget?: boolean }) {
  return <DataTable {...props} columns={withTarget ? WITH_TARGET : WITHOUT_TARGET} getRowId={(e) => String(e.id)} />;
}
