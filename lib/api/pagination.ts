// GitLab's offset pagination: page/per_page (default 20, at most 100), X-* headers as strings, and a Link
// header whose absolute URLs come from the external URL and carry every request parameter, sorted.
import { externalUrl } from '../config/env';
import { ApiError } from './errors';
import { ANY_SAFE_INTEGER, param, parseParams } from './params';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** Page numbers are no column's values: a page past the end is empty and per_page is capped, as GitLab's. */
export const pageNumber = () => param.integer().range(ANY_SAFE_INTEGER);

export const paginationShape = {
  page: pageNumber(),
  per_page: pageNumber().exceptValues([0]),
};

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function pageRequest(input: Record<string, unknown>): PageRequest {
  const { page, per_page } = parseParams(paginationShape, input);
  const p = page && page > 0 ? page : 1;
  const perPage = per_page && per_page > 0 ? Math.min(per_page, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  return { page: p, perPage, offset: (p - 1) * perPage };
}

// Never echo credentials into a header.
const HIDDEN = new Set(['page', 'per_page', 'private_token', 'access_token']);

function toQuery(params: Record<string, unknown>): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  // Rails' Hash#to_query: each top-level key renders to one string (an array keeps its order), and those
  // strings are sorted.
  const render = (key: string, value: unknown): string[] => {
    if (value === undefined) return [];
    if (Array.isArray(value)) return value.flatMap((v) => render(`${key}[]`, v));
    if (value && typeof value === 'object') {
      return Object.entries(value)
        .map(([k, v]) => render(`${key}[${k}]`, v).join('&'))
        .filter(Boolean)
        .sort();
    }
    return [`${enc(key)}=${enc(value === null ? '' : String(value))}`];
  };
  return Object.entries(params)
    .map(([k, v]) => render(k, v).join('&'))
    .filter(Boolean)
    .sort()
    .join('&');
}

export interface LinkContext {
  /** The request path as sent (encoded ids stay encoded). */
  path: string;
  /** Query and path parameters of the request. */
  params: Record<string, unknown>;
}

/** The request's own URL under the external URL (never req.url's host), its parameters overridden by `set`. */
function linkUrl(ctx: LinkContext, set: Record<string, unknown>, hidden: ReadonlySet<string> = HIDDEN): string {
  const params: Record<string, unknown> = { ...set };
  for (const [k, v] of Object.entries(ctx.params)) if (!hidden.has(k) && !(k in set)) params[k] = v;
  const base = new URL(externalUrl());
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}${ctx.path}?${toQuery(params)}`;
}

const pageUrl = (ctx: LinkContext, page: number, perPage: number) => linkUrl(ctx, { page, per_page: perPage });

/**
 * Kaminari's MAX_COUNT_LIMIT: past this many rows GitLab's offset pagination stops counting and answers
 * without X-Total, X-Total-Pages and rel="last" (OffsetPagination#exceeeds_count?).
 */
export const MAX_COUNT_LIMIT = 10_000;

export interface PageResult<T> {
  items: T[];
  headers: Record<string, string>;
}

/**
 * Runs one page of a query. With `count`, sets X-Total/X-Total-Pages and rel="last"; without it
 * (GitLab's without_count), fetches one extra row to know whether a next page exists.
 */
export async function paginate<T>(
  link: LinkContext,
  req: PageRequest,
  source: { fetch: (offset: number, limit: number) => Promise<T[]>; count?: () => Promise<number> },
): Promise<PageResult<T>> {
  const { page, perPage, offset } = req;
  const headers: Record<string, string> = { 'X-Page': String(page), 'X-Per-Page': String(perPage) };
  let items: T[];
  let hasNext: boolean;
  let totalPages: number | undefined;
  if (source.count) {
    const [rows, total] = await Promise.all([source.fetch(offset, perPage), source.count()]);
    items = rows;
    const pages = Math.max(Math.ceil(total / perPage), 1);
    hasNext = page < pages;
    if (total <= MAX_COUNT_LIMIT) {
      totalPages = pages;
      headers['X-Total'] = String(total);
      headers['X-Total-Pages'] = String(totalPages);
    }
  } else {
    const rows = await source.fetch(offset, perPage + 1);
    hasNext = rows.length > perPage;
    items = rows.slice(0, perPage);
  }
  // Kaminari: a page beyond the last has neither next nor prev.
  const outOfRange = totalPages !== undefined && page > totalPages;
  const prev = page > 1 && !outOfRange ? page - 1 : undefined;
  const next = hasNext && !outOfRange ? page + 1 : undefined;
  headers['X-Next-Page'] = next ? String(next) : '';
  headers['X-Prev-Page'] = prev ? String(prev) : '';
  const links = fitLinks([
    prev && `<${pageUrl(link, prev, perPage)}>; rel="prev"`,
    next && `<${pageUrl(link, next, perPage)}>; rel="next"`,
    `<${pageUrl(link, 1, perPage)}>; rel="first"`,
    totalPages !== undefined && `<${pageUrl(link, totalPages, perPage)}>; rel="last"`,
  ]);
  if (links) headers.Link = links;
  return { items, headers };
}

/**
 * Each link repeats the request's query, so a long query (a few KiB of filters) makes a Link header larger
 * than HTTP clients read (Node's parser stops at 16 KiB of headers and drops the whole answer). Past
 * LINK_BUDGET the links a client needs least go first: last, then first, then prev; rel="next" goes only
 * when it alone is over the budget (X-Next-Page still says it). The order of those kept is GitLab's.
 */
const LINK_BUDGET = 8 * 1024;
const DROP_ORDER = [3, 2, 0, 1]; // last, first, prev, next (indexes into prev, next, first, last)

function fitLinks(candidates: (string | false | undefined | 0)[]): string {
  const kept = candidates.map((l) => (l ? l : null));
  const length = () => kept.reduce((n, l) => n + (l ? l.length + 2 : 0), 0);
  for (const i of DROP_ORDER) if (length() > LINK_BUDGET) kept[i] = null;
  return kept.filter((l): l is string => l !== null).join(', ');
}

// ------------------------------------------------------------------ keyset pagination

/**
 * GitLab's keyset pagination (`pagination=keyset`): ordered by id only, `per_page` as offset pagination's,
 * and the next page named by `id_after` (ascending) or `id_before` (descending) in a rel="next" Link. It
 * counts nothing: no X-Total, X-Total-Pages or page numbers. Lists add these to their parameters; the
 * cursors are int4 ids, so an out-of-range one is Grape's 400 `id_after is invalid`.
 */
export const keysetShape = {
  pagination: param.string().values(['offset', 'keyset'] as const),
  id_after: param.integer(),
  id_before: param.integer(),
};

/** GitLab's answer to keyset pagination of a list or order it cannot page by key (Grape's error! string). */
export const keysetUnavailable = () => new ApiError(405, { error: 'Keyset pagination is not yet available for this type of request' });

export interface KeysetRequest {
  perPage: number;
  dir: 'asc' | 'desc';
}

/**
 * The keyset request, or null for offset pagination. An order other than id is GitLab's 405 (its
 * Keyset.available? accepts an order by the primary key alone).
 */
export function keysetRequest(
  input: { pagination?: string | null; order_by?: string | null; sort?: string | null },
  raw: Record<string, unknown>,
): KeysetRequest | null {
  if (input.pagination !== 'keyset') return null;
  if ((input.order_by ?? 'id') !== 'id') throw keysetUnavailable();
  return { perPage: pageRequest(raw).perPage, dir: input.sort === 'desc' ? 'desc' : 'asc' };
}

// Page numbers mean nothing to a keyset link, and credentials are never echoed.
const KEYSET_HIDDEN = new Set([...HIDDEN, 'id_after', 'id_before']);

/**
 * One keyset page from `rows`, fetched as perPage + 1 rows in the request's id order past its cursor: the
 * extra row says whether a next page exists, so the last page carries no Link (GitLab's pager links every
 * non-empty page and ends on an empty one; either way a script stops when rel="next" is absent).
 */
export function keysetPage<T extends { id: number }>(link: LinkContext, req: KeysetRequest, rows: T[]): PageResult<T> {
  const items = rows.slice(0, req.perPage);
  const headers: Record<string, string> = {};
  if (rows.length > req.perPage) {
    const cursor = req.dir === 'desc' ? 'id_before' : 'id_after';
    const bound = Object.fromEntries(['id_after', 'id_before'].filter((k) => k !== cursor && link.params[k] !== undefined).map((k) => [k, link.params[k]]));
    const next = linkUrl(link, { ...bound, [cursor]: items[items.length - 1].id, per_page: req.perPage }, KEYSET_HIDDEN);
    headers.Link = `<${next}>; rel="next"`;
  }
  return { items, headers };
}
