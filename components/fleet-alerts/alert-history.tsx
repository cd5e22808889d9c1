'use client';
// The alert history (GET /runners/alerts, newest first): Firing or Resolved, the rule, the message, when it
// fired and resolved and how long it lasted; tabs All / Firing / Resolved and the page live in the URL.
import { createColumnHelper } from '@tanstack/react-table';
import { BellOff } from 'lucide-react';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { DataTable, type Columns } from '../ui/data-table';
import { TabList, tabProps } from '../ui/tabs';
import { formatDateTime } from '../shared/format';
import { alertDuration, describeAlert, type FleetAlert } from '@/lib/client/fleet-alerts';
import { HISTORY_PER_PAGE, useAlertHistory, type HistoryFilter } from './use-fleet-alerts';

const col = createColumnHelper<FleetAlert>();
const TABS: Array<{ value: HistoryFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'firing', label: 'Firing' },
  { value: 'resolved', label: 'Resolved' },
];
const EMPTY: Record<HistoryFilter, { title: string; description: string }> = {
  all: { title: 'No alerts yet', description: 'When a rule’s condition becomes true, the alert is listed here until it resolves, and after.' },
  firing: { title: 'No alerts are firing', description: 'Every enabled rule’s condition was false at its last check.' },
  resolved: { title: 'No resolved alerts', description: 'Alerts appear here once their condition is no longer true.' },
};

const when = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} className="whitespace-nowrap">
      {formatDateTime(iso)}
    </time>
  ) : (
    '–'
  );

const columns: Columns<FleetAlert> = [
  col.accessor('state', {
    header: 'State',
    cell: ({ getValue }) => (getValue() === 'firing' ? <Badge tone="danger">Firing</Badge> : <Badge tone="success">Resolved</Badge>),
  }),
  col.display({
    id: 'alert',
    header: 'Alert',
    cell: ({ row }) => (
      <div className="flex min-w-0 flex-col whitespace-normal">
        <span className="font-medium text-slate-900">{row.original.rule.name}</span>
        <span className="text-xs text-slate-600">{describeAlert(row.original)}</span>
      </div>
    ),
    meta: { className: 'max-md:w-full md:min-w-64' },
  }),
  col.accessor('fired_at', { header: 'Fired at', cell: ({ getValue }) => when(getValue()), meta: { cardLabel: true } }),
  col.accessor('resolved_at', { header: 'Resolved at', cell: ({ getValue }) => when(getValue()), meta: { cardLabel: true } }),
  col.display({
    id: 'duration',
    header: 'Duration',
    cell: ({ row }) => (row.original.resolved_at ? alertDuration(row.original) : `${alertDuration(row.original)} so far`),
    meta: { cardLabel: true },
  }),
];

export function AlertHistory({ state, page, onChange }: { state: HistoryFilter; page: number; onChange: (state: HistoryFilter, page: number) => void }) {
  const history = useAlertHistory(state, page);
  return (
    <section id="alert-history" aria-labelledby="alert-history-heading" className="flex scroll-mt-20 flex-col gap-3">
      <h2 id="alert-history-heading" className="text-lg font-semibold text-slate-900">
        Alert history
      </h2>
      <TabList label="Alert state" className="-mb-px flex max-w-full gap-1 overflow-x-auto border-b border-slate-200">
        {TABS.map((t) => (
          <button
            key={t.value}
            type="button"
            {...tabProps(state === t.value)}
            onClick={() => onChange(t.value, 1)}
            className={cn(
              '-mb-px inline-flex shrink-0 items-center border-b-2 px-3 py-2 text-sm font-medium',
              state === t.value ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {t.label}
          </button>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={`${TABS.find((t) => t.value === state)!.label} alerts`}>
        <DataTable
          label="Alerts"
          columns={columns}
          data={history.data?.items}
          getRowId={(a) => String(a.id)}
          pagination={{
            page,
            perPage: HISTORY_PER_PAGE,
            total: history.data?.total,
            totalPages: history.data?.totalPages,
            hasNext: history.data?.nextPage !== undefined,
          }}
          onPageChange={(p) => onChange(state, p)}
          isLoading={history.isPending}
          isFetching={history.isPlaceholderData}
          error={history.data ? undefined : history.error}
          onRetry={() => history.refetch()}
          empty={{ ...EMPTY[state], icon: BellOff }}
          stacked
        />
      </div>
    </section>
  );
}
