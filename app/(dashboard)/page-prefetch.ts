// A dashboard page's first reads, made on the server for the first HTML (TanStack Query's server-rendering
// path: prefetch, dehydrate, HydrationBoundary). Each read goes through the API's own route handler, in
// process, with the page request's headers (its session cookie and client address): the same services, the
// same permission checks and the same JSON as the browser's fetch would get, stored under the key the
// browser's hook reads (the `*Read` descriptors in lib/client), so the browser's cache starts with them.
// A read that fails is left out: the browser makes it and shows its error (or not-found) as before.
import { dehydrate, QueryClient, type DehydratedState } from '@tanstack/react-query';
import { headers } from 'next/headers';
import type { RouteHandler } from '@/lib/api/handler';
import { apiPath, pageFromHeaders, type Query } from '@/lib/client/api';
import { log } from '@/lib/log/log';

export type SearchParams = Record<string, string | string[] | undefined>;

export function urlParams(sp: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(sp)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(key, v);
  return out;
}

/** What a hook reads: its cache key, the /api/v4 path (without the prefix) and the query. */
export interface Read {
  key: readonly unknown[];
  path: string;
  params: object;
}

/** GET through a route handler in process, as the page's viewer. `params`: the route's path parameters, decoded as Next.js passes them. */
async function get(handler: RouteHandler, read: Read, params: Record<string, string>): Promise<Response> {
  const forwarded = new Headers(await headers());
  forwarded.set('accept', 'application/json');
  forwarded.delete('content-length');
  const url = new URL(apiPath(read.path, read.params as Query), 'http://runway.internal');
  const res = await handler(new Request(url, { headers: forwarded }), { params: Promise.resolve(params) });
  // A page the server could not fill is still served (the browser reads what is missing), so say which
  // read failed: a 5xx here is one the handler logged too; a 4xx is a permission the page did not expect.
  if (!res.ok && res.status !== 404) log('warn', 'page prefetch read failed', { path: url.pathname, status: res.status });
  return res;
}

/** One page's prefetched reads: add them, then hand `state()` to a HydrationBoundary. */
export class PagePrefetch {
  readonly client = new QueryClient();

  /** A JSON body as the hook's `api.get` returns it; null (and nothing cached) unless the API answered 2xx. */
  async json<T>(handler: RouteHandler, read: Read, params: Record<string, string> = {}): Promise<T | null> {
    const res = await get(handler, read, params);
    if (!res.ok) return null;
    const data = (await res.json()) as T;
    this.client.setQueryData(read.key, data);
    return data;
  }

  /** A list page as the hook's `api.getPage` returns it (rows and GitLab's pagination headers). */
  async page(handler: RouteHandler, read: Read, params: Record<string, string> = {}): Promise<void> {
    const res = await get(handler, read, params);
    if (res.ok) this.client.setQueryData(read.key, pageFromHeaders(await res.json(), res.headers));
  }

  /** A tab's count as the hooks keep it: X-Total of a per_page=1 read. */
  async total(handler: RouteHandler, read: Read, params: Record<string, string> = {}): Promise<void> {
    const res = await get(handler, read, params);
    if (res.ok) this.client.setQueryData(read.key, pageFromHeaders(await res.json(), res.headers).total ?? 0);
  }

  /** The viewer's level from GET .../members/all/:user_id, as the hooks keep it: 404 (not a member) is 0. */
  async memberLevel(handler: RouteHandler, read: Read, params: Record<string, string>): Promise<number | null> {
    const res = await get(handler, read, params);
    const level = res.ok ? ((await res.json()) as { access_level: number }).access_level : res.status === 404 ? 0 : null;
    if (level !== null) this.client.setQueryData(read.key, level);
    return level;
  }

  state(): DehydratedState {
    return dehydrate(this.client);
  }
}
