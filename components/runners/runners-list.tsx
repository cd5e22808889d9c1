'use client';
// A runner list page: /admin/runners (every runner, for admins) and /groups/<path>/-/runners. Type tabs
// and status counters (one counts request), GitLab's filtered search, sort and page live in the URL (in
// GitLab's parameter names; anything else in the address is normalised away); rows come with details and
// permissions in one request; selected runners take bulk actions.
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import Link from 'next/link';
import { SlidersHorizontal } from 'lucide-react';
import { Button, buttonClass } from '../ui/button';
import { cn } from '../ui/cn';
import { EmptyState } from '../ui/states';
import { SortAndClear } from '../ui/filtered-search';
import { useCurrentUser } from '../dashboard/session-provider';
import {
  canonicalRunnerQuery,
  hasFilters,
  parseRunnerFilters,
  RUNNER_SORTS,
  RUNNER_TYPES,
  runnerFiltersQuery,
  type RunnerFilters,
} from '@/lib/client/runner-filters';
import type { RunnerListItem, RunnerType } from '@/lib/client/types';
import { ApiError } from '@/lib/client/api';
import { errorText } from '@/lib/client/error-text';
import { ADMIN_SCOPE } from '@/lib/client/runner-paths';
import { useCanonicalFilters } from '@/lib/client/url-state';
import { NewRunnerButton } from './new-runner-button';
import { useBulkRunnerAction } from './runner-bulk-actions';
import { StatusIcon, TypeIcon } from './runner-badges';
import { RunnerFilterBar } from './runner-filter-bar';
import { mayChange, RunnersTable } from './runners-table';
import { PER_PAGE, useRunnerCounts, useRunnerListPage, type RunnerListCounts, type RunnerListSource } from './use-runners';
import { useRunnerEvents } from './use-runner-events';
import { LiveIndicator } from './live-indicator';
import { FiringAlertsBanner } from '../fleet-alerts/firing-banner';
import { TabList, tabProps } from '../ui/tabs';
import { adminCrumbs, Breadcrumbs, type Crumb } from '../ui/breadcrumbs';

// The bulk bar is drawn only once a runner is selected (or while a bulk action's outcome shows): it loads
// then, off the first-load JavaScript (issue 23).
const RunnerBulkBar = lazy(() => import('./runner-bulk-bar').then((m) => ({ default: m.RunnerBulkBar })));

/** The filters from the URL; an address that is not in normal form (unknown or bad parameters) is replaced by it. */
const useRunnerFilters = () => useCanonicalFilters(parseRunnerFilters, canonicalRunnerQuery, runnerFiltersQuery);

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

function TypeTab({ type, label, n, active, onSelect }: { type?: RunnerType; label: string; n: number | undefined; active: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      {...tabProps(active)}
      onClick={onSelect}
      className={cn(
        '-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium',
        active ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
      )}
    >
      {type && <TypeIcon type={type} className="size-4" />}
      {label}
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700" data-testid={`count-${type ?? 'all'}`}>
        {count(n)}
      </span>
    </button>
  );
}

// GitLab's definitions (HasRunnerStatus): what each counter counts, said on the page.
const STATS = [
  { status: 'online', label: 'Online', help: 'Contacted in the last 2 hours' },
  { status: 'offline', label: 'Offline', help: 'No contact for 2 hours or more, stale ones included' },
  { status: 'stale', label: 'Stale', help: 'No contact for 7 days, or never since created 7+ days ago' },
] as const;

/** GitLab skips the counters of other statuses while a status filter is set (they would be 0). */
function StatusStats({ filters, counts, failed }: { filters: RunnerFilters; counts: RunnerListCounts | undefined; failed: boolean }) {
  const shown = STATS.filter((s) => !filters.status || s.status === filters.status);
  return (
    <div className="flex flex-col gap-1.5">
      <dl aria-label="Runners by connection" className="grid grid-cols-1 gap-2 sm:grid-cols-3">
        {shown.map((s) => (
          <div key={s.status} className="rounded-md border border-slate-200 bg-white px-3 py-2">
            <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-700">
              <StatusIcon
                status={s.status}
                className={cn('size-4 shrink-0', s.status === 'online' ? 'text-emerald-600' : s.status === 'offline' ? 'text-red-600' : 'text-amber-600')}
              />
              {s.label}
            </dt>
            <dd className="text-lg font-semibold leading-7 text-slate-900" data-testid={`stat-${s.status}`}>
              {failed ? '?' : count(counts?.status[s.status])}
            </dd>
            <dd className="text-xs text-slate-500">{s.help}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-slate-500">
        Counts follow GitLab: a stale runner that once connected is also offline, so the counters overlap. The{' '}
        <span className="font-medium">fleet dashboard</span> counts each runner under one status only.
      </p>
    </div>
  );
}

export interface RunnerListViewProps {
  source: RunnerListSource;
  /** The trail above the title ("Admin area / Runners"). */
  crumbs: Crumb[];
  title: string;
  description: ReactNode;
  /** The runner's page for a row. */
  runnerHref: (id: number) => string;
  /** Header actions ("New group runner"). */
  actions?: ReactNode;
  /** Above the title, under the trail (the admin list's firing fleet alerts). */
  banner?: ReactNode;
  /** Group lists: the "Show only inherited" toggle and tabs without "Instance". */
  group?: boolean;
  /** What an empty, unfiltered list says. */
  emptyDescription: string;
}

const NO_FILTERS: Partial<RunnerFilters> = {
  type: undefined,
  status: undefined,
  paused: undefined,
  tags: [],
  versionPrefix: undefined,
  upgradeStatus: undefined,
  creator: undefined,
  search: undefined,
  ownerGroupId: undefined,
  ownerProjectId: undefined,
};

export function RunnerListView({ source, crumbs, title, description, runnerHref, actions, banner, group = false, emptyDescription }: RunnerListViewProps) {
  const { admin } = useCurrentUser();
  const { filters, asked, update } = useRunnerFilters();
  const list = useRunnerListPage(source, filters);
  const counts = useRunnerCounts(source, filters);
  const live = useRunnerEvents();
  const bulk = useBulkRunnerAction();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { page: _page, ...filterKeyParts } = filters;
  const selection = useSelection(JSON.stringify(filterKeyParts));
  const tabs = [{ value: undefined, label: 'All' }, ...RUNNER_TYPES.filter((t) => !group || t.value !== 'instance_type')];

  // Runners on this page the viewer may change; the bar offers what every selected one allows. Remembered
  // across page turns, and taken in while rendering the page that brings them (no effect, no extra render pass).
  const [known, setKnown] = useState({ page: undefined as RunnerListItem[] | undefined, byId: new Map<number, RunnerListItem>() });
  const page = list.data?.items;
  if (page && page !== known.page) setKnown({ page, byId: new Map([...known.byId, ...page.filter(mayChange).map((r) => [r.id, r] as const)]) });
  const selected = [...selection.ids].map((id) => known.byId.get(id)).filter((r): r is RunnerListItem => !!r);
  const filtered = hasFilters(filters);
  const activeFilters =
    [
      filters.status,
      filters.type,
      filters.paused,
      filters.versionPrefix,
      filters.upgradeStatus,
      filters.creator,
      filters.search,
      filters.ownerGroupId,
      filters.ownerProjectId,
    ].filter((v) => v !== undefined).length + filters.tags.length;
  const refused = list.error instanceof ApiError && list.error.status === 400;

  return (
    <div className="flex flex-col gap-5">
      <Breadcrumbs items={crumbs} />
      {banner}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
            <LiveIndicator state={live} />
          </div>
          <p className="mt-1 max-w-2xl text-sm text-slate-500">{description}</p>
        </div>
        {actions}
      </div>

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-x-2 border-b border-slate-200">
          <TabList label="Runner type" className="-mb-px flex max-w-full gap-1 overflow-x-auto">
            {tabs.map((t) => (
              <TypeTab
                key={t.label}
                type={t.value}
                label={t.label}
                n={counts.data?.runner_type[t.value ?? 'all']}
                active={asked.type === t.value}
                onSelect={() => update({ type: t.value })}
              />
            ))}
          </TabList>
          {group && (
            <label className="mb-2 inline-flex items-center gap-2 text-sm text-slate-700">
              <span>Show only inherited</span>
              <input
                type="checkbox"
                role="switch"
                className="size-4 accent-indigo-600"
                checked={asked.membership === 'descendants'}
                onChange={(e) => update({ membership: e.target.checked ? 'descendants' : 'all_available' })}
              />
            </label>
          )}
        </div>

        {/* On a phone the filters wait behind a toggle, so the first screen shows runners. */}
        <div className="flex items-center justify-between gap-2 sm:hidden">
          <Button variant="secondary" size="sm" aria-expanded={filtersOpen} aria-controls="runner-filters" onClick={() => setFiltersOpen((o) => !o)}>
            <SlidersHorizontal aria-hidden className="size-4" />
            Filter{activeFilters ? ` (${activeFilters})` : ''}
          </Button>
          {counts.data && (
            <p className="text-xs text-slate-500">
              {count(counts.data.status.online)} online · {count(counts.data.status.offline)} offline · {count(counts.data.status.stale)} stale
            </p>
          )}
        </div>

        <div id="runner-filters" role="search" aria-label="Filter runners" className={cn('flex-col gap-3', filtersOpen ? 'flex' : 'hidden sm:flex')}>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <RunnerFilterBar filters={asked} onChange={update} group={group} suggestTags={admin && !group} />
            <SortAndClear
              id="runner-sort"
              value={asked.sort}
              sorts={RUNNER_SORTS}
              onSort={(sort) => update({ sort })}
              onClear={filtered ? () => update(NO_FILTERS) : undefined}
            />
          </div>
          <div className={cn(filtersOpen ? 'block' : 'hidden sm:block')}>
            <StatusStats filters={filters} counts={counts.data} failed={counts.isError} />
          </div>
        </div>

        {/* The wrapper is always there, so the column's spacing is the same before and after the bar loads. */}
        <div>
          {(selected.length > 0 || bulk.state) && (
            <Suspense fallback={null}>
              <RunnerBulkBar
                selectedIds={selected.map((r) => r.id)}
                canPause={selected.length > 0 && selected.every((r) => r._runway_permissions.update_runner)}
                canDelete={selected.length > 0 && selected.every((r) => r._runway_permissions.delete_runner)}
                onClear={selection.clear}
                bulk={bulk}
              />
            </Suspense>
          )}
        </div>

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
            refused ? (
              <EmptyState title="No runners shown">
                {list.error ? errorText(list.error) : null}{' '}
                <Button variant="secondary" size="sm" onClick={() => update(NO_FILTERS)}>
                  Clear filters
                </Button>
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
      crumbs={adminCrumbs([{ label: 'Runners' }])}
      banner={<FiringAlertsBanner />}
      title="Runners"
      description="Every runner on this instance: instance, group and project runners."
      runnerHref={(id) => `/admin/runners/${id}`}
      actions={
        <div className="flex flex-wrap gap-2">
          {/* Not prefetched on sight, as the menu's links (side-nav.tsx): they would compete with the list's data. */}
          <Link href="/admin/runners/dashboard" prefetch={false} className={buttonClass('secondary')}>
            Fleet dashboard
          </Link>
          <Link href="/admin/runners/alerts" prefetch={false} className={buttonClass('secondary')}>
            Fleet alerts
          </Link>
          <Link href="/admin/runners/cleanup" prefetch={false} className={buttonClass('secondary')}>
            Clean up stale runners
          </Link>
          <NewRunnerButton scope={ADMIN_SCOPE} />
        </div>
      }
      emptyDescription="Runners are the agents that run your CI/CD jobs. Create a new runner to get started."
    />
  );
}
