'use client';
// /help/api: the reference of /api/v4, drawn by the dashboard from its OpenAPI document (GET
// /api/v4/openapi.json, read with TanStack Query as every page reads the API). GitLab's API docs are the
// model: endpoint groups in a side menu, a filter over paths and summaries, a link per endpoint
// (/help/api#<operationId>, or ?op=<operationId>), and per endpoint its attributes, body and responses.
// The document is large, so only the rows are drawn at first; an endpoint's details and a field's nested
// fields are drawn when opened.
import { useQuery } from '@tanstack/react-query';
import { ListTree } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { filterTags, matchesFilter, readReference, type ApiTag, type OpenApiDocument } from '@/lib/client/openapi-reference';
import { queryKeys } from '@/lib/client/query-keys';
import { OperationRow } from './api-operation';
import { useApi } from '@/components/dashboard/session-provider';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { InlineCode } from '@/components/ui/inline-code';
import { PageHeader } from '@/components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/components/ui/states';

const SPEC_URL = '/api/v4/openapi.json';

export function ApiReference() {
  const api = useApi();
  // The document changes only with a new version of Runway: read once per visit.
  const spec = useQuery({ queryKey: queryKeys.openApi, queryFn: () => api.get<OpenApiDocument>('/openapi.json'), staleTime: Infinity });
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <Breadcrumbs items={[{ label: 'Help' }, { label: 'API reference' }]} />
      <PageHeader
        title="API reference"
        description={
          <>
            Every <code className="font-mono text-[0.8125rem]">/api/v4</code> endpoint, generated from the same declarations the API validates with. GitLab
            clients work unchanged; Runway&apos;s additions are marked &quot;Runway extension&quot;. Raw document:{' '}
            <a className="rounded-sm text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" href={SPEC_URL}>
              openapi.json
            </a>
            .
          </>
        }
      />
      {spec.isPending && <LoadingState label="Loading the API reference…" />}
      {spec.isError && <ErrorState title="The API reference could not be loaded" error={spec.error} onRetry={() => void spec.refetch()} />}
      {spec.data && <Reference doc={spec.data} />}
    </div>
  );
}

const subscribeHash = (notify: () => void) => {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
};
/** The endpoint the address names: `#<operationId>`, or `?op=<operationId>`. */
const linkedOperation = () => decodeURIComponent(window.location.hash.slice(1)) || new URLSearchParams(window.location.search).get('op') || '';

function Reference({ doc }: { doc: OpenApiDocument }) {
  const tags = useMemo(() => readReference(doc), [doc]);
  const operations = useMemo(() => tags.flatMap((t) => t.operations), [tags]);
  const [filter, setFilter] = useState('');
  // Typing stays responsive: the list follows the box a render later.
  const shownFilter = useDeferredValue(filter);
  const shown = useMemo(() => filterTags(tags, shownFilter), [tags, shownFilter]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [navOpen, setNavOpen] = useState(false);
  const filterBox = useRef<HTMLInputElement>(null);

  // A link to an endpoint opens it (and clears a filter that hides it), once per link followed.
  const linked = useSyncExternalStore(subscribeHash, linkedOperation, () => '');
  const [followed, setFollowed] = useState('');
  const target = operations.find((op) => op.id === linked);
  if (target && linked !== followed) {
    setFollowed(linked);
    setOpen((s) => new Set(s).add(linked));
    if (!matchesFilter(target, filter)) setFilter('');
  }
  useEffect(() => {
    if (!followed) return;
    const row = document.getElementById(followed);
    row?.scrollIntoView({ block: 'start' });
    row?.querySelector<HTMLButtonElement>('button[aria-expanded]')?.focus({ preventScroll: true });
  }, [followed]);

  const count = shown.reduce((n, t) => n + t.operations.length, 0);
  const toggle = (id: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="flex min-w-0 flex-col gap-4 xl:flex-row xl:items-start xl:gap-8">
      <div className="flex flex-col gap-3 xl:sticky xl:top-20 xl:max-h-[calc(100dvh-6rem)] xl:w-56 xl:shrink-0 xl:overflow-y-auto xl:pb-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="api-filter" className="text-sm font-medium text-slate-900">
            Filter endpoints
          </label>
          <input
            ref={filterBox}
            id="api-filter"
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && filter) {
                e.preventDefault();
                setFilter('');
              }
            }}
            placeholder="Path or summary"
            autoComplete="off"
            aria-describedby="api-filter-count"
            className="block h-9 w-full rounded-md border-0 px-3 text-sm text-slate-900 shadow-sm outline-none ring-1 ring-inset ring-slate-300 placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:ring-indigo-600"
          />
          <p id="api-filter-count" role="status" className="text-xs text-slate-600">
            {shownFilter.trim() ? `${count} of ${operations.length} endpoints` : `${operations.length} endpoints in ${tags.length} groups`}
          </p>
        </div>
        <button
          type="button"
          aria-expanded={navOpen}
          aria-controls="api-groups"
          onClick={() => setNavOpen(!navOpen)}
          className="inline-flex items-center gap-2 self-start rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-100 xl:hidden"
        >
          <ListTree aria-hidden className="size-4 text-slate-500" />
          {navOpen ? 'Hide endpoint groups' : 'Show endpoint groups'}
        </button>
        <nav id="api-groups" aria-label="Endpoint groups" className={cn(navOpen ? 'block' : 'hidden', 'xl:block')}>
          <ul className="flex flex-col gap-0.5">
            {shown.map((t) => (
              <li key={t.name}>
                <a
                  href={`#${t.anchor}`}
                  onClick={() => setNavOpen(false)}
                  className="flex items-center justify-between gap-2 rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                >
                  <span className="truncate">{t.name}</span>
                  <span className="text-xs tabular-nums text-slate-500">{t.operations.length}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <div className="flex min-w-0 flex-1 flex-col gap-8">
        {shown.length === 0 && (
          <EmptyState
            title="No endpoint matches the filter"
            action={
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  setFilter('');
                  filterBox.current?.focus();
                }}
              >
                Clear filter
              </Button>
            }
          >
            Nothing in a path or a summary has all of <InlineCode>{shownFilter.trim()}</InlineCode>.
          </EmptyState>
        )}
        {shown.map((t) => (
          <TagSection key={t.name} doc={doc} tag={t} open={open} onToggle={toggle} />
        ))}
      </div>
    </div>
  );
}

function TagSection({ doc, tag, open, onToggle }: { doc: OpenApiDocument; tag: ApiTag; open: ReadonlySet<string>; onToggle: (id: string) => void }) {
  return (
    <section aria-labelledby={tag.anchor} className="flex flex-col gap-2">
      <h2 id={tag.anchor} className="scroll-mt-20 border-b border-slate-200 pb-1 text-lg font-semibold text-slate-900">
        {tag.name}
      </h2>
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-md border border-slate-200 bg-white">
        {tag.operations.map((op) => (
          <OperationRow key={op.id} doc={doc} op={op} open={open.has(op.id)} onToggle={() => onToggle(op.id)} />
        ))}
      </ul>
    </section>
  );
}
