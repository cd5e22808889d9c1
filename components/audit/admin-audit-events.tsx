'use client';
// /admin/audit_logs: the instance's audit events (GET /audit_events), newest first, with GitLab's filters
// (entity type and id, a date range) kept in the URL, so a filtered view can be shared and Back undoes it.
// The URL keeps only what the API accepts (as the runner list does): an unknown entity type or a non-numeric
// id is dropped from the address instead of reaching the API and its parameter error. "Runner" is Runway's
// entry: runner events are scoped to the instance, group or project in GitLab's API, so a runner's own trail
// (GET /runners/:id/audit_events, its page's Activity tab) is read for it, and it needs the runner's ID.
import { ScrollText, SearchX } from 'lucide-react';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { inputClass } from '../ui/input';
import { adminCrumbs, Breadcrumbs } from '../ui/breadcrumbs';
import { PageHeader } from '../ui/page-header';
import { ErrorState } from '../ui/states';
import { pageParam, textParam, useUrlState } from '@/lib/client/url-state';
import { AuditEventsTable } from './audit-events-table';
import { AUDIT_PER_PAGE, useAuditEvents, type AuditFilters } from './use-audit-events';

const RUNNER = 'Ci::Runner';

const ENTITY_TYPES = [
  { value: 'Gitlab::Audit::InstanceScope', label: 'Instance' },
  { value: 'Group', label: 'Group' },
  { value: 'Project', label: 'Project' },
  { value: 'User', label: 'User' },
  { value: RUNNER, label: 'Runner' },
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

type Current = { page: number; type?: string; id?: string; from?: string; to?: string };

/** The URL's filters the API accepts: a known entity type, a numeric id (a runner's is required). */
function validFilters(f: Current): Current {
  const type = ENTITY_TYPES.some((t) => t.value === f.type) ? f.type : undefined;
  const id = f.id && /^\d{1,10}$/.test(f.id) ? f.id : undefined;
  return { ...f, type: type === RUNNER && !id ? undefined : type, id };
}

/** Where the events are read: a runner's own trail, or the instance's list. */
const sourceOf = (f: Current) => (f.type === RUNNER ? `/runners/${f.id}/audit_events` : '/audit_events');

/** The URL's dates (YYYY-MM-DD) as the API's bounds: from the start of the first day to the end of the last. */
function apiFilters(f: Current): AuditFilters {
  return {
    page: f.page,
    entity_type: f.type === RUNNER ? undefined : f.type,
    entity_id: f.type === RUNNER ? undefined : f.id,
    created_after: f.from && DAY.test(f.from) ? `${f.from}T00:00:00Z` : f.from,
    created_before: f.to && DAY.test(f.to) ? `${f.to}T23:59:59.999Z` : f.to,
  };
}

export function AdminAuditEvents() {
  const { params, update } = useUrlState();
  const router = useRouter();
  const pathname = usePathname();
  const asked = {
    page: pageParam(params),
    type: textParam(params, 'entity_type'),
    id: textParam(params, 'entity_id'),
    from: textParam(params, 'created_after'),
    to: textParam(params, 'created_before'),
  };
  const current = validFilters(asked);
  const invalid = asked.type !== current.type || asked.id !== current.id;
  useEffect(() => {
    if (!invalid) return;
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of [
      ['entity_type', current.type],
      ['entity_id', current.id],
    ] as const) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }, [invalid, params, current.type, current.id, pathname, router]);
  const filtered = !!(current.type || current.id || current.from || current.to);
  const events = useAuditEvents(sourceOf(current), apiFilters(current));
  const [draft, setDraft] = useState({ type: current.type ?? '', id: current.id ?? '', from: current.from ?? '', to: current.to ?? '' });
  const [formError, setFormError] = useState<string | null>(null);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (draft.id && !draft.type) return setFormError('Choose an entity type for the entity ID.');
    if (draft.type === RUNNER && !draft.id) return setFormError("Enter the runner's ID.");
    if (draft.id && !/^\d{1,10}$/.test(draft.id)) return setFormError('The entity ID is a number.');
    if (draft.from && draft.to && draft.from > draft.to) return setFormError('The start date is after the end date.');
    setFormError(null);
    update({ entity_type: draft.type, entity_id: draft.id, created_after: draft.from, created_before: draft.to }, { resetPages: ['page'] });
  };
  const clear = () => {
    setDraft({ type: '', id: '', from: '', to: '' });
    setFormError(null);
    update({ entity_type: null, entity_id: null, created_after: null, created_before: null }, { resetPages: ['page'] });
  };

  const d = events.data;
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={adminCrumbs([{ label: 'Audit events' }])} />
      <PageHeader title="Audit events" description="Changes to runners and registration tokens: who made them, from where and when." />
      <form onSubmit={apply} aria-label="Filter audit events" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            Entity type
            <select className={inputClass} value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
              <option value="">All</option>
              {ENTITY_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            Entity ID
            <input
              className={inputClass}
              inputMode="numeric"
              pattern="[0-9]*"
              value={draft.id}
              onChange={(e) => setDraft({ ...draft, id: e.target.value.trim() })}
              aria-invalid={!!formError && ((!!draft.id && !draft.type) || (draft.type === RUNNER && !draft.id))}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            From
            <input type="date" className={inputClass} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            To
            <input type="date" className={inputClass} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </label>
        </div>
        {formError && (
          <p role="alert" className="text-sm text-red-700">
            {formError}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit">Apply filters</Button>
          {filtered && (
            <Button variant="secondary" onClick={clear}>
              Clear filters
            </Button>
          )}
        </div>
      </form>
      <AuditEventsTable
        cards
        label="Audit events"
        withTarget
        data={d?.items}
        pagination={{
          page: current.page,
          perPage: d?.perPage ?? AUDIT_PER_PAGE,
          total: d?.total,
          totalPages: d?.totalPages,
          hasNext: d?.nextPage !== undefined,
        }}
        onPageChange={(page) => update({ page })}
        isLoading={events.isPending}
        isFetching={events.isFetching && !events.isPending}
        error={events.error}
        onRetry={() => events.refetch()}
        // A filter the API refused: its message, and "Clear filters" in the form above as the way out.
        errorState={filtered ? <ErrorState title="Could not load audit events with these filters" error={events.error} /> : undefined}
        empty={
          filtered
            ? { title: 'No audit events match these filters', description: 'Change the entity or widen the date range, or clear the filters.', icon: SearchX }
            : {
                title: 'No audit events yet',
                description: 'Creating, registering, editing, pausing or deleting a runner records an event here.',
                icon: ScrollText,
              }
        }
      />
    </div>
  );
}
