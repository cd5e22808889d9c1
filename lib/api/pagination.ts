// GitLab's offset pagination: page/per_page (default 20, at most 100), X-* headers as strings, and a Link
// header whose absolute URLs come from the external URL and carry every request parameter, sorted.
import { externalUrl } from '../config/env';
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

function pageUrl(ctx: LinkContext, page: number, perPage: number): string {
  const params: Record<string, unknown> = { page, per_page: perPage };
  for (const [k, v] of Object.entries(ctx.params)) if (!HIDDEN.has(k)) params[k] = v;
  const base = new URL(externalUrl());
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}${ctx.path}?${toQuery(params)}`;
}

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
    totalPages = Math.max(Math.ceil(total / perPage), 1);
    hasNext = page < totalPages;
    headers['X-Total'] = String(total);
    headers['X-Total-Pages'] = String(totalPages);
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
  const links: string[] = [];
  if (prev) links.push(`<${pageUrl(link, prev, perPage)}>; rel="prev"`);
  if (next) links.push(`<${pageUrl(link, next, perPage)}>; rel="next"`);
  links.push(`<${pageUrl(link, 1, perPage)}>; rel="first"`);
  if (totalPages !== undefined) links.push(`<${pageUrl(link, totalPages, perPage)}>; rel="last"`);
  headers.Link = links.join(', ');
  return { items, headers };
}
