'use client';
// The Runners page: every runner for admins (/runners/all), the caller's own otherwise (/runners). Type,
// status, paused, tags, version prefix and page live in the URL and make up the query key.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, type FormEvent } from 'react';
import { useCurrentUser } from '../dashboard/session-provider';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { FieldError } from '../ui/field-error';
import { EmptyState } from '../ui/states';
import { hasFilters, parseRunnerFilters, RUNNER_TYPES, runnerFiltersQuery, STATUS_FILTERS, type RunnerFilters, type StatusFilter } from '@/lib/client/runner-filters';
import { parameterErrors } from '@/lib/client/validation';
import { RunnersTable } from './runners-table';
import { inputClass } from '../ui/input';
import { useRunnerList } from './use-runners';

// The typed filters the API validates, with their labels: its refusal is shown beside the field.
const TYPED_FILTERS = {
  tag_list: { label: 'Tags', key: 'tagList', id: 'runner-tags', placeholder: 'docker, linux', width: 'w-48' },
  version_prefix: { label: 'Version prefix', key: 'versionPrefix', id: 'runner-version', placeholder: '17.5', width: 'w-32' },
} as const;
type TypedFilter = keyof typeof TYPED_FILTERS;


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
  // The same query the table runs (one request): its 400 names the filter at fault.
  const list = useRunnerList(filters);
  const refused = parameterErrors(list.error, Object.keys(TYPED_FILTERS)).byAttribute;
  const badFilters = (Object.keys(TYPED_FILTERS) as TypedFilter[]).filter((f) => refused[f]);
  const filterError = (f: TypedFilter) => (refused[f] ? [`${TYPED_FILTERS[f].label} ${refused[f].join(', ')}.`] : null);
  const invalid = (f: TypedFilter) => ({ 'aria-invalid': !!refused[f], 'aria-describedby': refused[f] ? `runner-${f}-error` : undefined });
  const clear = (f: TypedFilter) => update({ [TYPED_FILTERS[f].key]: undefined });

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
          {(Object.keys(TYPED_FILTERS) as TypedFilter[]).map((f) => {
            const { label, key, id, placeholder, width } = TYPED_FILTERS[f];
            return (
              <div key={f} className="flex flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-slate-600">
                  {label}
                </label>
                <input
                  id={id}
                  name={f}
                  defaultValue={filters[key] ?? ''}
                  placeholder={placeholder}
                  className={cn(inputClass, 'h-9', width)}
                  {...invalid(f)}
                />
              </div>
            );
          })}
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

        {badFilters.map((f) => (
          <div key={f} role="alert" className="-mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
            <FieldError id={`runner-${f}-error`} messages={filterError(f)} />
            <Button variant="secondary" size="sm" onClick={() => clear(f)}>
              Clear {TYPED_FILTERS[f].label.toLowerCase()}
            </Button>
          </div>
        ))}

        <RunnersTable
          filters={filters}
          onPageChange={(page) => update({ page })}
          errorState={
            badFilters.length ? (
              <EmptyState title="No runners shown">
                Correct or clear the {badFilters.map((f) => TYPED_FILTERS[f].label.toLowerCase()).join(' and ')} filter above.
              </EmptyState>
            ) : undefined
          }
        />
      </div>
    </div>
  );
}
