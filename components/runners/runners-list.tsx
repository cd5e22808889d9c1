'use client';
// The Runners page: every runner for admins (/runners/all), the caller's own otherwise (/runners). Type,
// status, paused, tags, version prefix and page live in the URL and make up the query key.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, type FormEvent } from 'react';
import { useCurrentUser } from '../dashboard/session-provider';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { hasFilters, parseRunnerFilters, RUNNER_TYPES, runnerFiltersQuery, STATUS_FILTERS, type RunnerFilters, type StatusFilter } from '@/lib/client/runner-filters';
import { RunnersTable } from './runners-table';
import { inputClass } from './styles';


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

const TYPE_TABS = [{ value: undefined, label: 'All' }, ...RUNNER_TYPES];

export function RunnersList() {
  const { admin } = useCurrentUser();
  const { filters, update } = useRunnerFilters();

  function onSearch(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    update({ tagList: String(form.get('tag_list') ?? ''), versionPrefix: String(form.get('version_prefix') ?? '') });
  }

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Runners</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-500">
          {admin
            ? 'Every runner on this instance: instance, group and project runners.'
            : 'The runners you manage: project runners of projects you maintain and group runners of groups you own.'}
        </p>
      </div>

      <div className="flex flex-col gap-3">
        <div role="tablist" aria-label="Runner type" className="flex gap-1 border-b border-slate-200">
          {TYPE_TABS.map((t) => (
            <button
              key={t.label}
              role="tab"
              type="button"
              aria-selected={filters.type === t.value}
              onClick={() => update({ type: t.value })}
              className={cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
                filters.type === t.value ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-500 hover:text-slate-800',
              )}
            >
              {t.label}
            </button>
          ))}
        </div>

        {/* Keyed by the URL so Back/Forward and "Clear" reset the typed values. */}
        <form
          key={`${filters.tagList ?? ''}|${filters.versionPrefix ?? ''}`}
          role="search"
          aria-label="Filter runners"
          onSubmit={onSearch}
          className="flex flex-wrap items-end gap-3"
        >
          <div className="flex flex-col gap-1">
            <label htmlFor="runner-status" className="text-xs font-medium text-slate-600">
              Status
            </label>
            <select
              id="runner-status"
              value={filters.status ?? ''}
              onChange={(e) => update({ status: (e.target.value || undefined) as StatusFilter | undefined })}
              className={cn(inputClass, 'h-9 w-44')}
            >
              <option value="">Any status</option>
              {STATUS_FILTERS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="runner-paused" className="text-xs font-medium text-slate-600">
              Paused
            </label>
            <select
              id="runner-paused"
              value={filters.paused === undefined ? '' : String(filters.paused)}
              onChange={(e) => update({ paused: e.target.value === '' ? undefined : e.target.value === 'true' })}
              className={cn(inputClass, 'h-9 w-36')}
            >
              <option value="">Any</option>
              <option value="true">Paused</option>
              <option value="false">Not paused</option>
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="runner-tags" className="text-xs font-medium text-slate-600">
              Tags
            </label>
            <input id="runner-tags" name="tag_list" defaultValue={filters.tagList ?? ''} placeholder="docker, linux" className={cn(inputClass, 'h-9 w-48')} />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="runner-version" className="text-xs font-medium text-slate-600">
              Version prefix
            </label>
            <input id="runner-version" name="version_prefix" defaultValue={filters.versionPrefix ?? ''} placeholder="17.5" className={cn(inputClass, 'h-9 w-32')} />
          </div>
          <Button type="submit" variant="secondary">
            Search
          </Button>
          {hasFilters(filters) && (
            <Button
              variant="ghost"
              onClick={() => update({ type: undefined, status: undefined, paused: undefined, tagList: undefined, versionPrefix: undefined })}
            >
              Clear filters
            </Button>
          )}
        </form>

        <RunnersTable filters={filters} onPageChange={(page) => update({ page })} />
      </div>
    </div>
  );
}
