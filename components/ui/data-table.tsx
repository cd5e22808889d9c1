'use client';
// A server-paged table: the page comes from the caller (the URL), the API returns one page and its headers,
// and the pager only asks the caller to move. Columns are TanStack Table column definitions (its
// createColumnHelper or plain objects), rendered here directly: a page of rows needs no row model, sorting
// or state, and leaving TanStack's runtime out keeps it off every list page's first load.
import type { CellContext, ColumnDef, HeaderContext } from '@tanstack/react-table';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';
import { EmptyState, ErrorState, LoadingState } from './states';
import { cn } from './cn';

export interface ServerPage {
  /** 1-based, as GitLab counts pages. */
  page: number;
  perPage: number;
  /** From X-Total-Pages; unknown when the API skipped counting. */
  totalPages?: number;
  total?: number;
  /** From X-Next-Page: whether a next page exists when the total is unknown. */
  hasNext?: boolean;
}

// A table's columns. Each TanStack column is typed by its value (ColumnDef<T, string>, ColumnDef<T, number>)
// and its callbacks take that value, so a list of mixed columns only types with `any` there (TanStack's own
// idiom): `unknown` is refused by the callbacks' parameter variance.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Columns<T> = ColumnDef<T, any>[];

export interface DataTableProps<T> {
  label: string;
  columns: Columns<T>;
  data: T[] | undefined;
  getRowId: (row: T) => string;
  pagination: ServerPage;
  onPageChange: (page: number) => void;
  isLoading?: boolean;
  /** A background refetch: the rows stay, dimmed. */
  isFetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Shown instead of the generic error state, for errors the page explains itself (a bad filter). */
  errorState?: ReactNode;
  /** `icon`: the empty state's illustration (see EmptyState). */
  empty: { title: string; description?: ReactNode; icon?: LucideIcon };
  /**
   * Below the `sm` breakpoint, each row is drawn as a card: its cells stacked, each under its column's
   * header (the header row is hidden). Off by default, so tables that scroll sideways stay as they are.
   */
  cards?: boolean;
  /**
   * Below the md breakpoint each row becomes a card (cells wrap, headers are read by screen readers only,
   * columns with `meta.cardLabel` show their header), so a phone never scrolls sideways to reach a row's actions.
   */
  stacked?: boolean;
}

/** Optional per-column layout: classes for its cells, and whether a card shows its header. */
interface ColumnLayout {
  className?: string;
  cardLabel?: boolean;
  /** Its header stays shown above the cards (a "select all" checkbox). */
  keepHeader?: boolean;
}
const layoutOf = (meta: unknown): ColumnLayout => (meta ?? {}) as ColumnLayout;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** An empty page past the end (?page=9999): say so and offer the last page, not "nothing here yet". */
function PastLastPage({ label, pagination, onPageChange }: { label: string; pagination: ServerPage; onPageChange: (page: number) => void }) {
  const { page, total, totalPages } = pagination;
  const last = totalPages !== undefined && totalPages >= 1 && total !== 0 ? totalPages : undefined;
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center">
      <div>
        <p className="text-sm font-medium text-slate-900">Page {page} does not exist</p>
        <p className="mt-1 max-w-sm text-sm text-slate-600">
          {total === 0
            ? `There are no ${label.toLowerCase()} on any page.`
            : total !== undefined && last !== undefined
              ? `There ${total === 1 ? 'is' : 'are'} ${plural(total, label.toLowerCase().replace(/s$/, ''), label.toLowerCase())} on ${plural(last, 'page', 'pages')}.`
              : 'This list has fewer pages.'}
        </p>
      </div>
      <Button variant="secondary" size="sm" onClick={() => onPageChange(last ?? 1)}>
        {last !== undefined ? 'Go to last page' : 'Go to first page'}
      </Button>
    </div>
  );
}

/** The parts of a column definition this table reads. */
interface Def<T> {
  id?: string;
  accessorKey?: string;
  accessorFn?: (row: T, index: number) => unknown;
  header?: unknown;
  cell?: unknown;
  meta?: unknown;
}

const columnId = <T,>(def: Def<T>) => def.id ?? def.accessorKey ?? '';

function valueOf<T>(def: Def<T>, row: T, index: number): unknown {
  if (def.accessorFn) return def.accessorFn(row, index);
  if (def.accessorKey) return (row as Record<string, unknown>)[def.accessorKey];
  return undefined;
}

/**
 * Calls a header or cell function inside one stable component (so it may use hooks). Not TanStack's flexRender,
 * which renders the function itself as the component: a column list rebuilt on a render (a selection
 * changed) gives every cell a new component type, React replaces its elements, and the focused checkbox or
 * button is gone from under the keyboard.
 */
function Part<C>({ part, context }: { part: (props: C) => ReactNode; context: C }) {
  return part(context);
}

function render<C>(part: unknown, context: C): ReactNode {
  if (typeof part === 'function') return <Part part={part as (props: C) => ReactNode} context={context} />;
  return part as ReactNode;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, data, pagination, onPageChange } = props;
  const cols = columns.map((column) => {
    const def = column as Def<T>;
    return { def, id: columnId(def) };
  });
  const pastEnd = !props.isLoading && !props.error && !data?.length && pagination.page > 1;
  const canPrev = pagination.page > 1 && !pastEnd;
  const canNext = pagination.totalPages !== undefined ? pagination.page < pagination.totalPages : !!pagination.hasNext;

  let body: ReactNode;
  if (props.isLoading) body = <LoadingState />;
  else if (props.error)
    body = props.errorState ?? <ErrorState title={`Could not load ${props.label.toLowerCase()}`} error={props.error} onRetry={props.onRetry} />;
  else if (pastEnd) body = <PastLastPage label={props.label} pagination={pagination} onPageChange={onPageChange} />;
  else if (!data?.length)
    body = (
      <EmptyState title={props.empty.title} icon={props.empty.icon}>
        {props.empty.description}
      </EmptyState>
    );

  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      {body ?? (
        // relative: the sr-only column headers (absolute) stay inside the scroller, not widening the page.
        // Focusable, so a keyboard can scroll a table wider than a phone when no cell holds a link or button.
        <div className="relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600" tabIndex={0} role="region" aria-label={props.label}>
          <table
            aria-label={props.label}
            className={cn(
              'min-w-full divide-y divide-slate-200 text-sm',
              props.isFetching && 'opacity-60',
              props.stacked && 'max-md:block',
              props.cards && 'max-sm:block max-sm:divide-y-0',
            )}
          >
            <thead className={cn('bg-slate-50', props.stacked && 'max-md:block', props.cards && 'max-sm:sr-only')}>
              <tr className={cn(props.stacked && 'max-md:flex')}>
                {cols.map(({ def, id }) => (
                  <th
                    key={id}
                    scope="col"
                    className={cn(
                      'px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500',
                      layoutOf(def.meta).className?.includes('text-right') && 'text-right',
                      props.stacked && !layoutOf(def.meta).keepHeader && 'max-md:sr-only',
                    )}
                  >
                    {render(def.header, { column: { id, columnDef: def } } as unknown as HeaderContext<T, unknown>)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={cn('divide-y divide-slate-100', props.stacked && 'max-md:block', props.cards && 'max-sm:block')}>
              {(data ?? []).map((original, index) => (
                <tr
                  key={props.getRowId(original)}
                  className={cn(
                    'hover:bg-slate-50/60',
                    props.stacked && 'max-md:flex max-md:flex-wrap max-md:items-start max-md:gap-x-3 max-md:gap-y-2 max-md:p-4',
                    props.cards && 'max-sm:flex max-sm:flex-col max-sm:gap-2 max-sm:px-4 max-sm:py-3',
                  )}
                >
                  {cols.map(({ def, id }) => {
                    const layout = layoutOf(def.meta);
                    const header = def.header;
                    const value = () => valueOf(def, original, index);
                    const context = {
                      getValue: value,
                      renderValue: value,
                      row: { original, index, id: props.getRowId(original) },
                      column: { id, columnDef: def },
                    };
                    return (
                      <td
                        key={id}
                        data-label={props.cards && typeof header === 'string' && header ? header : undefined}
                        className={cn(
                          'whitespace-nowrap px-4 py-3 align-middle text-slate-700',
                          props.stacked && 'max-md:block max-md:min-w-0 max-md:max-w-full max-md:whitespace-normal max-md:p-0',
                          props.cards &&
                            'max-sm:block max-sm:whitespace-normal max-sm:break-words max-sm:p-0 max-sm:empty:hidden max-sm:data-[label]:before:block max-sm:data-[label]:before:text-xs max-sm:data-[label]:before:font-medium max-sm:data-[label]:before:text-slate-500 max-sm:data-[label]:before:content-[attr(data-label)]',
                          layout.className,
                        )}
                      >
                        {props.stacked && layout.cardLabel && typeof header === 'string' && (
                          <span aria-hidden className="mb-0.5 block text-xs font-medium text-slate-500 md:hidden">
                            {header}
                          </span>
                        )}
                        {def.cell === undefined ? String(value() ?? '') : render(def.cell, context as unknown as CellContext<T, unknown>)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(canPrev || canNext) && (
        <nav aria-label="Pagination" className="flex items-center justify-between border-t border-slate-200 px-4 py-2.5">
          <p className="text-xs text-slate-500">
            Page {pagination.page}
            {pagination.totalPages !== undefined && ` of ${pagination.totalPages}`}
            {pagination.total !== undefined && ` · ${pagination.total} total`}
          </p>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={!canPrev} onClick={() => onPageChange(pagination.page - 1)}>
              Previous
            </Button>
            <Button variant="secondary" size="sm" disabled={!canNext} onClick={() => onPageChange(pagination.page + 1)}>
              Next
            </Button>
          </div>
        </nav>
      )}
    </div>
  );
}
