'use client';
// A chart and its data table: the plot is for the eye (hidden from assistive technology), the table,
// visually hidden, carries the same figures for screen readers. Each part loads and fails on its own.
import { useId, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { Spinner } from '../ui/states';
import { plainReason } from '@/lib/client/error-text';

export const panelClass = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900';

export function Panel({ title, description, children, actions }: { title: string; description?: ReactNode; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`${panelClass} flex min-w-0 flex-col gap-3`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={id} className="text-base font-semibold text-slate-900 dark:text-slate-100">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** What a part shows while it loads or after it failed; `null` once its data is there. */
export function PartState({ query, label }: { query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }; label: string }) {
  if (query.isPending) {
    return (
      <div className="flex h-40 items-center justify-center">
        <Spinner label={`Loading ${label}…`} />
      </div>
    );
  }
  if (query.isError) {
    const message = plainReason(query.error);
    return (
      <div role="alert" className="flex h-40 flex-col items-center justify-center gap-2 text-center">
        <p className="text-sm font-medium text-red-700 dark:text-red-300">Could not load {label}</p>
        <p className="text-sm text-slate-600 dark:text-slate-300">{message}</p>
        <Button variant="secondary" size="sm" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return null;
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  hidden = false,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  hidden?: boolean;
}) {
  return (
    <div className={hidden ? 'sr-only' : 'overflow-x-auto'}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs font-medium text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`px-2 py-2 font-medium ${c.numeric ? 'text-right' : ''}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-800 dark:divide-slate-800 dark:text-slate-200">
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} className={`px-2 py-2 ${c.numeric ? 'text-right tabular-nums' : ''}`}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A plot with its data table for screen readers. */
export function ChartFigure({ label, chart, table, height = 'h-64' }: { label: string; chart: ReactNode; table: ReactNode; height?: string }) {
  return (
    <figure aria-label={label} className="m-0 min-w-0">
      <div aria-hidden="true" className={`${height} w-full min-w-0`}>
        {chart}
      </div>
      {table}
    </figure>
  );
}

/** Placeholder while the chart library loads (it is its own bundle). */
export function ChartLoading() {
  return <div className="h-full w-full animate-pulse rounded-md bg-slate-100 dark:bg-slate-800" />;
}
