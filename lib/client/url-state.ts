'use client';
// A page's table state in the address bar: read with `params`, change with `update`, which pushes a new
// history entry (Back undoes a page turn or a search) or replaces the current one (typing in a search box).
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';

export type QueryChanges = Record<string, string | number | undefined | null>;

type Params = { get(name: string): string | null };

/** A 1-based page number from the URL; anything else is page 1. */
export function pageParam(params: Params, name = 'page'): number {
  return Math.max(1, Number.parseInt(params.get(name) ?? '1', 10) || 1);
}

/** A trimmed text value from the URL, or undefined when blank. */
export function textParam(params: Params, name: string): string | undefined {
  return params.get(name)?.trim() || undefined;
}

/**
 * Applies changes to a query string: empty values, and pages of 1 (`page`, `*_page`), are dropped so the
 * address stays short; `resetPages` lists page keys that go back to 1 because the list they count changed.
 */
export function mergeQuery(current: string, changes: QueryChanges, resetPages: string[] = []): string {
  const next = new URLSearchParams(current);
  for (const key of resetPages) next.delete(key);
  for (const [key, value] of Object.entries(changes)) {
    const isPage = key === 'page' || key.endsWith('_page');
    if (value === undefined || value === null || value === '' || (isPage && Number(value) <= 1)) next.delete(key);
    else next.set(key, String(value));
  }
  return next.toString();
}

/**
 * The query a change asked for while the router still shows `current`: a navigation to a server-rendered
 * page waits for the server, and a control that selects (a tab) must show its choice at once (WAI-ARIA:
 * moving to a tab selects it). Forgotten as soon as the address changes.
 */
function useAskedQuery(current: string) {
  const [asked, setAsked] = useState<{ from: string; query: string } | null>(null);
  // Dropped in the render that sees the address move on (React's "adjust state while rendering"), so Back to
  // the address it was asked from does not bring it back.
  if (asked && asked.from !== current) setAsked(null);
  return [asked && asked.from === current ? asked.query : null, (query: string) => setAsked({ from: current, query })] as const;
}

export function useUrlState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // The query last asked for, until the router shows it: a change made while a navigation is still
  // loading (a debounced search box firing after a sort was picked) builds on it instead of undoing it.
  const pending = useRef<string | null>(null);
  const current = params.toString();
  const [askedQuery, ask] = useAskedQuery(current);
  useEffect(() => {
    pending.current = null;
  }, [current]);
  const update = useCallback(
    (changes: QueryChanges, opts: { resetPages?: string[]; replace?: boolean } = {}) => {
      const qs = mergeQuery(pending.current ?? current, changes, opts.resetPages);
      pending.current = qs;
      ask(qs);
      const href = qs ? `${pathname}?${qs}` : pathname;
      if (opts.replace) router.replace(href, { scroll: false });
      else router.push(href, { scroll: false });
    },
    // `ask` is rebuilt with `current`, which is listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [current, pathname, router],
  );
  /** `params` as the last change asked for them (the address once the router shows it). */
  const asked = askedQuery === null ? params : new URLSearchParams(askedQuery);
  return { params, asked, update };
}

/**
 * A list whose filters are the URL in one normal form (the runner lists, the merge request list): `parse`
 * reads them, `canonical` writes them, and an address not in that form (unknown or bad parameters) is
 * replaced by it. `update` pushes the query `next` builds from the filters and the changes, so Back and
 * Forward step through the filters.
 */
export function useCanonicalFilters<F>(
  parse: (params: { get(name: string): string | null; getAll(name: string): string[] }) => F,
  canonical: (filters: F) => string,
  next: (filters: F, changes: Partial<F>) => string,
) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = parse(params);
  const query = canonical(filters);
  const current = params.toString();
  const [askedQuery, ask] = useAskedQuery(current);
  useEffect(() => {
    if (current !== query) router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }, [current, query, pathname, router]);
  /**
   * The filters as the last change asked for them, for the controls that show a choice (the selected tab,
   * the filter tokens, the sort) while the router fetches the page; the lists read `filters`, so their data
   * comes once, with the page. A change made meanwhile builds on them instead of undoing the last one.
   */
  const asked = askedQuery === null ? filters : parse(new URLSearchParams(askedQuery));
  const update = useCallback(
    (changes: Partial<F>) => {
      const qs = next(asked, changes);
      ask(qs);
      router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    // `asked` is rebuilt from `query` and `askedQuery` on every render; the strings are its identity. `ask` follows `current`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [query, askedQuery, current, pathname, router, next],
  );
  return { filters, asked, update };
}
