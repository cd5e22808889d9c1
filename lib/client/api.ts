// The dashboard's client for /api/v4: same-origin fetches carrying the session cookie, the session's CSRF
// token on writes, GitLab error bodies turned into readable messages, and GitLab's pagination headers read.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  /** Absent when the API skipped counting (GitLab omits X-Total for large lists). */
  total?: number;
  totalPages?: number;
  nextPage?: number;
  prevPage?: number;
}

export type Query = Record<string, string | number | boolean | undefined | null | Array<string | number>>;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function apiPath(path: string, query?: Query): string {
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => qs.append(`${key}[]`, String(v)));
    else qs.append(key, String(value));
  }
  const s = qs.toString();
  return `/api/v4${path}${s ? `?${s}` : ''}`;
}

/** GitLab's error bodies: {message: "..."}, {message: {attr: [msgs]}}, {error: "..."}, {error_description}. */
export function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.message === 'string') return b.message;
    if (b.message && typeof b.message === 'object') {
      const parts = Object.entries(b.message as Record<string, unknown>).map(
        ([attr, msgs]) => `${attr} ${Array.isArray(msgs) ? msgs.join(', ') : String(msgs)}`,
      );
      if (parts.length) return parts.join('; ');
    }
    if (typeof b.error_description === 'string') return b.error_description;
    if (typeof b.error === 'string') return b.error;
  }
  return `Request failed with status ${status}`;
}

const intHeader = (h: Headers, name: string): number | undefined => {
  const v = h.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

export function pageFromHeaders<T>(items: T[], h: Headers): Page<T> {
  return {
    items,
    page: intHeader(h, 'X-Page') ?? 1,
    perPage: intHeader(h, 'X-Per-Page') ?? items.length,
    total: intHeader(h, 'X-Total'),
    totalPages: intHeader(h, 'X-Total-Pages'),
    nextPage: intHeader(h, 'X-Next-Page'),
    prevPage: intHeader(h, 'X-Prev-Page'),
  };
}

export interface ApiClient {
  get<T>(path: string, query?: Query): Promise<T>;
  getPage<T>(path: string, query?: Query): Promise<Page<T>>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  delete(path: string): Promise<void>;
  /** A GET whose body the caller reads itself (a CSV export streamed with progress); errors as the others. */
  stream(path: string, query?: Query, signal?: AbortSignal): Promise<Response>;
  /**
   * Any request as written (the API reference's "Try it"): `url` under /api/v4 with its query, `body` JSON
   * text; the session's CSRF token on writes. Answers whatever status came back; only a network failure throws.
   */
  exchange(method: string, url: string, body?: string): Promise<Response>;
}

export function createApiClient(csrfToken: string): ApiClient {
  async function send(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (WRITE_METHODS.has(method)) headers['X-CSRF-Token'] = csrfToken;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new ApiError(0, 'Could not reach the server. Check your connection and try again.', null);
    }
    if (!res.ok) {
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      throw new ApiError(res.status, errorMessage(res.status, parsed), parsed);
    }
    return res;
  }
  const parse = async <T>(res: Response): Promise<T> => {
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    get: async (path, query) => parse(await send('GET', apiPath(path, query))),
    getPage: async <T>(path: string, query?: Query) => {
      const res = await send('GET', apiPath(path, query));
      return pageFromHeaders(await parse<T[]>(res), res.headers);
    },
    post: async (path, body) => parse(await send('POST', apiPath(path), body)),
    put: async (path, body) => parse(await send('PUT', apiPath(path), body)),
    delete: async (path) => {
      await send('DELETE', apiPath(path));
    },
    stream: (path, query, signal) => send('GET', apiPath(path, query), undefined, signal),
    exchange: (method, url, body) => {
      if (!url.startsWith('/api/v4/')) throw new Error(`not an API path: ${url}`);
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (WRITE_METHODS.has(method)) headers['X-CSRF-Token'] = csrfToken;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      return fetch(url, { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
    },
  };
}
