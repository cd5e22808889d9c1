'use client';
// A runner list page: /admin/runners (every runner, for admins) and
// /groups/<path>/-/runners. Type tabs with counts, status stats, filters, sort and page live in the URL;
// rows come with details and permissions in one request; selected runners take bulk actions.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import Link from 'next/link';
import { Button, buttonClass } from '../ui/button';
import { cn } from '../ui/cn';
import { FieldError } from '../ui/field-error';
import { EmptyState } from '../ui/states';
import { inputClass } from '../ui/input';
import {
  hasFilters,
  parseRunnerFilters,
  RUNNER_SORTS,
  RUNNER_TYPES,
  runnerFiltersQuery,
  STATUS_FILTERS,
  type RunnerFilters,
  type RunnerSort,
  type StatusFilter,
} from '@/lib/client/runner-filters';
import type { RunnerListItem, RunnerType } from '@/lib/client/types';
import { parameterErrors } from '@/lib/client/validation';
import { ADMIN_SCOPE } from '@/lib/client/runner-paths';
import { NewRunnerButton } from './new-runner-button';
import { RunnerBulkBar, useBulkRunnerAction } from './runner-bulk-actions';
import { mayChange, RunnersTable } from './runners-table';
import { PER_PAGE, useRunnerCount, useRunnerListPage, type RunnerListSource } from './use-runners';
import { useRunnerEvents } from './use-runner-events';
import { LiveIndicator } from './live-indicator';

// The typed filters the API validates, with their labels: its refusal is shown beside the field.
const TYPED_FILTERS = {
  search: { label: 'Description', key: 'search', id: 'runner-search', placeholder: 'Search description…', width: 'w-full sm:w-56' },
  tag_list: { label: 'Tags', key: 'tagList', id: 'runner-tags', placeholder: 'docker, linux', width: 'w-full sm:w-44' },
  version_prefix: { label: 'Version prefix', key: 'versionPrefix', id: 'runner-version', placeholder: '17.5', width: 'w-full sm:w-28' },
  // Runway extension: the owning group or project by id (not offered on a group's own list).
  owner_group_id: { label: 'Owner group ID', key: 'ownerGroupId', id: 'runner-owner-group', placeholder: 'e.g. 12', width: 'w-[calc(50%-0.375rem)] sm:w-32' },
  owner_project_id: {
    label: 'Owner project ID',
    key: 'ownerProjectId',
    id: 'runner-owner-project',
    placeholder: 'e.g. 34',
    width: 'w-[calc(50%-0.375rem)] sm:w-32',
  },
} as const;
type TypedFilter = keyof typeof TYPED_FILTERS;
const OWNER_FILTERS: readonly TypedFilter[] = ['owner_group_id', 'owner_project_id'];

function useRunnerFilters() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = parseRunnerFilters(params);
  const update = useCallback(
    (changes: Partial<RunnerFilters>) => {
      const qs = runnerFiltersQuery(params.toString(), changes);
      router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return { filters, update };
}

/** The selection survives page turns (to act on more than one page) and is dropped when the filters change. */
function useSelection(filterKey: string) {
  const [state, setState] = useState<{ key: string; ids: Set<number> }>({ key: filterKey, ids: new Set() });
  const ids = state.key === filterKey ? state.ids : new Set<number>();
  const select = useCallback(
    (runners: RunnerListItem[], on: boolean) =>
      setState((s) => {
        const next = new Set(s.key === filterKey ? s.ids : []);
        for (const r of runners) {
          if (on) next.add(r.id);
          else next.delete(r.id);
        }
        return { key: filterKey, ids: next };
      }),
    [filterKey],
  );
  const clear = useCallback(() => setState({ key: filterKey, ids: new Set() }), [filterKey]);
  return { ids, select, clear };
}

const count = (n: number | undefined) => (n === undefined ? '…' : n > 10_000 ? '10,000+' : n.toLocaleString('en-US'));

function TypeTab({
  source,
  filters,
  type,
  label,
  onSelect,
}: {
  source: RunnerListSource;
  filters: RunnerFilters;
  type?: RunnerType;
  label: string;
  onSelect: () => void;
}) {
  const n = useRunnerCount(source, filters, { type: type ?? null });
  const active = filters.type === type;
  return (
    <button
      role="tab"
      type="button"
      aria-selected={active}
      onClick={onSelect}
      className={cn(
        '-mb-px inline-flex shrink-0 items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium',
        active ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
      )}
    >
      {label}
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700" data-testid={`count-${type ?? 'all'}`}>
        {n.isError ? '?' : count(n.data)}
      </span>
    </button>
  );
}

const STATS: Array<{ status: StatusFilter; label: string; dot: string }> = [
  { status: 'online', label: 'Online', dot: 'bg-emerald-500' },
  { status: 'offline', label: 'Offline', dot: 'bg-slate-400' },
  { status: 'stale', label: 'Stale', dot: 'bg-amber-500' },
];

function StatusStat({
  source,
  filters,
  status,
  label,
  dot,
}: {
  source: RunnerListSource;
  filters: RunnerFilters;
  status: StatusFilter;
  label: string;
  dot: string;
}) {
  const n = useRunnerCount(source, filters, { status });
  return (
    <div className="flex min-w-28 flex-col rounded-md border border-slate-200 bg-white px-3 py-2">
      <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
        <span aria-hidden className={cn('size-2 rounded-full', dot)} />
        {label}
      </dt>
      <dd className="text-lg font-semibold text-slate-900" data-testid={`stat-${status}`}>
        {n.isError ? '?' : count(n.data)}
      </dd>
    </div>
  );
}

/** GitLab skips the counters of other statuses while a status filter is set (they would be 0). */
function StatusStats({ source, filters }: { source: RunnerListSource; filters: RunnerFilters }) {
  const shown = STATS.filter((s) => !filters.status || s.status === filters.status);
  return (
    <dl aria-label="Runners by connection" className="flex flex-wrap gap-2">
      {shown.map((s) => (
        <StatusStat key={s.status} source={source} filters={filters} {...s} />
      ))}
    </dl>
  );
}

export interface RunnerListViewProps {
  source: RunnerListSource;
  title: string;
  description: ReactNode;
  /** The runner's page for a row. */
  runnerHref: (id: number) => string;
  /** Header actions ("New group runner"). */
  actions?: ReactNode;
  /** Group lists: the "Show only inherited" toggle and tabs without "Instance". */
  group?: boolean;
  /** What an empty, unfiltered list says. */
  emptyDescription: string;
}

export function RunnerListView({ source, title, description, runnerHref, actions, group = false, emptyDescription }: RunnerListViewProps) {
  const { filters, update } = useRunnerFilters();
  const list = useRunnerListPage(source, filters);
  const live = useRunnerEvents();
  const bulk = useBulkRunnerAction();
  const { page: _page, ...filterKeyParts } = filters;
  const selection = useSelection(JSON.stringify(filterKeyParts));
  const tabs = [{ value: undefined, label: 'All' }, ...RUNNER_TYPES.filter((t) => !group || t.value !== 'instance_type')];

  const typedFilters = (Object.keys(TYPED_FILTERS) as TypedFilter[]).filter((f) => !group || !OWNER_FILTERS.includes(f));
  const refused = parameterErrors(list.error, typedFilters).byAttribute;
  const badFilters = typedFilters.filter((f) => refused[f]);
  const filterError = (f: TypedFilter) => (refused[f] ? [`${TYPED_FILTERS[f].label} ${refused[f].join(', ')}.`] : null);
  const invalid = (f: TypedFilter) => ({ 'aria-invalid': !!refused[f], 'aria-describedby': refused[f] ? `runner-${f}-error` : undefined });

  function onSearch(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '');
    const owners = group ? {} : { ownerGroupId: value('owner_group_id'), ownerProjectId: value('owner_project_id') };
    update({ search: value('search'), tagList: value('tag_list'), versionPrefix: value('version_prefix'), ...owners });
  }

  // Runners on this page the viewer may change; the bar offers what every selected one allows. Remembered
  // across page turns, and taken in while rendering the page that brings them (no effect, no extra render pass).
  const [known, setKnown] = useState({ page: undefined as RunnerListItem[] | undefined, byId: new Map<number, RunnerListItem>() });
  const page = list.data?.items;
  if (page && page !== known.page) setKnown({ page, byId: new Map([...known.byId, ...page.filter(mayChange).map((r) => [r.id, r] as const)]) });
  const selected = [...selection.ids].map((id) => known.byId.get(id)).filter((r): r is RunnerListItem => !!r);
  const filtered = hasFilters(filters);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
            <LiveIndicator state={live} />
          </div>
          <p className="mt-1 max-w-2xl text-sm text-slate-500">{description}</p>
        </div>
        {actions}
      </div>

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-2 border-b border-slate-200">
          <div role="tablist" aria-label="Runner type" className="-mb-px flex max-w-full gap-1 overflow-x-auto">
            {tabs.map((t) => (
              <TypeTab key={t.label} source={source} filters={filters} type={t.value} label={t.label} onSelect={() => update({ type: t.value })} />
            ))}
          </div>
          {group && (
            <label className="mb-2 inline-flex items-center gap-2 text-sm text-slate-700">
              <span>Show only inherited</span>
              <input
                type="checkbox"
                role="switch"
                className="size-4 accent-indigo-600"
                checked={filters.membership === 'descendants'}
                onChange={(e) => update({ membership: e.target.checked ? 'descendants' : 'all_available' })}
              />
            </label>
          )}
        </div>

        <StatusStats source={source} filters={filters} />

        {/* Keyed by the URL so Back/Forward and "Clear" reset the typed values. */}
        <form
          key={`${filters.search ?? ''}|${filters.tagList ?? ''}|${filters.versionPrefix ?? ''}|${filters.ownerGroupId ?? ''}|${filters.ownerProjectId ?? ''}`}
          role="search"
          aria-label="Filter runners"
          onSubmit={onSearch}
          className="flex flex-wrap items-end gap-3"
        >
          {typedFilters.map((f) => {
            const { label, key, id, placeholder, width } = TYPED_FILTERS[f];
            return (
              <div key={f} className={cn('flex flex-col gap-1', width)}>
                <label htmlFor={id} className="text-xs font-medium text-slate-600">
                  {label}
                </label>
                <input id={id} name={f} defaultValue={filters[key] ?? ''} placeholder={placeholder} className={cn(inputClass, 'h-9 w-full')} {...invalid(f)} />
              </div>
            );
          })}
          <div className="flex w-[calc(50%-0.375rem)] flex-col gap-1 sm:w-auto">
            <label htmlFor="runner-status" className="text-xs font-medium text-slate-600">
              Status
            </label>
            <select
              id="runner-status"
              value={filters.status ?? ''}
              onChange={(e) => update({ status: (e.target.value || undefined) as StatusFilter | undefined })}
              className={cn(inputClass, 'h-9 sm:w-40')}
            >
              <option value="">Any status</option>
              {STATUS_FILTERS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex w-[calc(50%-0.375rem)] flex-col gap-1 sm:w-auto">
            <label htmlFor="runner-paused" className="text-xs font-medium text-slate-600">
              Paused
            </label>
            <select
              id="runner-paused"
              value={filters.paused === undefined ? '' : String(filters.paused)}
              onChange={(e) => update({ paused: e.target.value === '' ? undefined : e.target.value === 'true' })}
              className={cn(inputClass, 'h-9 sm:w-32')}
            >
              <option value="">Any</option>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </select>
          </div>
          <div className="flex w-full flex-col gap-1 sm:w-auto">
            <label htmlFor="runner-sort" className="text-xs font-medium text-slate-600">
              Sort by
            </label>
            <select
              id="runner-sort"
              value={filters.sort}
              onChange={(e) => update({ sort: e.target.value as RunnerSort })}
              className={cn(inputClass, 'h-9 sm:w-64')}
            >
              {RUNNER_SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary">
            Search
          </Button>
          {filtered && (
            <Button
              variant="ghost"
              onClick={() =>
                update({
                  type: undefined,
                  status: undefined,
                  paused: undefined,
                  tagList: undefined,
                  versionPrefix: undefined,
                  search: undefined,
                  ownerGroupId: undefined,
                  ownerProjectId: undefined,
                })
              }
            >
              Clear filters
            </Button>
          )}
        </form>

        {badFilters.map((f) => (
          <div key={f} role="alert" className="-mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
            <FieldError id={`runner-${f}-error`} messages={filterError(f)} />
            <Button variant="secondary" size="sm" onClick={() => update({ [TYPED_FILTERS[f].key]: undefined })}>
              Clear {TYPED_FILTERS[f].label.toLowerCase()}
            </Button>
          </div>
        ))}

        <RunnerBulkBar
          selectedIds={selected.map((r) => r.id)}
          canPause={selected.length > 0 && selected.every((r) => r._runway_permissions.update_runner)}
          canDelete={selected.length > 0 && selected.every((r) => r._runway_permissions.delete_runner)}
          onClear={selection.clear}
          bulk={bulk}
        />

        <RunnersTable
          data={list.data?.items}
          pagination={{
            page: filters.page,
            perPage: list.data?.perPage ?? PER_PAGE,
            totalPages: list.data?.totalPages,
            total: list.data?.total,
            hasNext: list.data?.nextPage !== undefined,
          }}
          onPageChange={(page) => update({ page })}
          isLoading={list.isPending}
          isFetching={list.isPlaceholderData}
          error={list.error}
          onRetry={() => list.refetch()}
          errorState={
            badFilters.length ? (
              <EmptyState title="No runners shown">
                Correct or clear the {badFilters.map((f) => TYPED_FILTERS[f].label.toLowerCase()).join(' and ')} filter above.
              </EmptyState>
            ) : undefined
          }
          empty={{
            title: filtered ? 'No results found' : 'Get started with runners',
            description: filtered ? 'Edit your search and try again, or clear the filters.' : emptyDescription,
          }}
          runnerHref={runnerHref}
          selected={selection.ids}
          onSelect={selection.select}
        />
      </div>
    </div>
  );
}

/** /admin/runners: every runner (the Admin area is for administrators only). */
export function RunnersList() {
  return (
    <RunnerListView
      source={{ kind: 'all' }}
      title="Runners"
      description="Every runner on this instance: instance, group and project runners."
      runnerHref={(id) => `/admin/runners/${id}`}
      actions={
        <div className="flex flex-wrap gap-2">
          <Link href="/admin/runners/dashboard" className={buttonClass('secondary')}>
            Fleet dashboard
          </Link>
          <Link href="/admin/runners/cleanup" className={buttonClass('secondary')}>
            Clean up stale runners
          </Link>
          <NewRunnerButton scope={ADMIN_SCOPE} />
        </div>
      }
      emptyDescription="Runners are the agents that run your CI/CD jobs. Create a new runner to get started."
    />
  );
}
