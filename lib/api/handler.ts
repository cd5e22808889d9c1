// The one path of every /api/v4 request: authenticate, check scopes, parse parameters, run the domain
// call, and turn the result (or an ApiError) into GitLab's JSON. Route files only declare endpoints.
import { acceptedScopes, registeredScopes } from '../auth/scopes';
import { applySudo, authenticate, requireScope, type Actor } from './authenticate';
import { ApiError, badRequest, routeNotFound, serviceUnavailable, unauthorized } from './errors';
import { containsNul, mergeParams, parseBody, parseQuery, type Params } from './input';
import { keysetPage, pageRequest, paginate, type KeysetRequest, type PageRequest, type PageResult } from './pagination';
import { parseParams, type Parsed, type Rules } from './params';
import { json } from './response';
import { logError } from '../log/log';
import { limitApiRequest } from '../rate-limits/service';
import { redactPath } from '../log/redact';
import { isDatabaseUnavailable } from '../db/unavailable';
import { recordUser } from '../observability/request-context';

export type Shape = Parameters<typeof parseParams>[0];
type RouteCtx = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, ctx: RouteCtx) => Promise<Response>;

export interface RequestContext<S extends Shape = Shape> {
  req: Request;
  method: string;
  /** The request path as sent, without the query string. */
  path: string;
  /** Path parameters as Next.js decoded them (`a%2Fb` arrives as `a/b`). */
  pathParams: Record<string, string>;
  /** Query and body parameters merged with the path parameters, uncoerced. */
  raw: Params;
  /** Query and path parameters: what a Link header must carry. */
  linkParams: Params;
  input: Parsed<S>;
  actor: Actor | null;
  /** The actor, or GitLab's 401 for an anonymous request. */
  user(): Actor;
  page(): PageRequest;
  paginate<T>(source: { fetch: (offset: number, limit: number) => Promise<T[]>; count?: () => Promise<number> }): Promise<PageResult<T>>;
  /** A keyset page of rows fetched as perPage + 1 past the request's cursor (see keysetPage). */
  keysetPage<T extends { id: number }>(req: KeysetRequest, rows: T[]): PageResult<T>;
}

export interface EndpointSpec<S extends Shape> {
  /**
   * `required` (GitLab's authenticate!) answers 401 before anything else; `optional` lets the handler decide;
   * `none` never reads user credentials (the runner-facing API authenticates with runner tokens only).
   */
  auth?: 'required' | 'optional' | 'none';
  /** Scopes accepted besides `api` (and `read_api` on reads). */
  scopes?: ReadonlyArray<string | { scope: string; readOnly: true }>;
  /** Accept every scope (GET /personal_access_tokens/self). */
  anyScope?: boolean;
  /** Runs after authentication and before parameter validation, as Grape's `before` hooks do. */
  before?: (ctx: RequestContext<Shape>) => Promise<void> | void;
  params?: S;
  rules?: Rules;
  handle: (ctx: RequestContext<S>) => Promise<Response | unknown> | Response | unknown;
}

function errorResponse(err: unknown, req: Request): Response {
  if (err instanceof ApiError) return json(err.body, err.status, err.headers);
  const fields = { method: req.method, path: redactPath(new URL(req.url).pathname) };
  if (isDatabaseUnavailable(err)) {
    logError('database unavailable', err, fields);
    return errorResponse(serviceUnavailable(), req);
  }
  logError('unhandled error in API handler', err, fields);
  return json({ message: '500 Internal Server Error' }, 500);
}

/** Bodies larger than this are read only for a caller already known from its headers or query string. */
const EARLY_AUTH_BYTES = 64 * 1024;

/**
 * An anonymous caller of an endpoint that requires authentication gets its 401 before a large (or
 * chunked) body is read. A token inside such a body is not looked for: clients send tokens in headers.
 */
async function refuseAnonymousLargeBody(req: Request, params: Params): Promise<void> {
  if (req.method === 'GET' || req.method === 'HEAD' || !req.body) return;
  const length = req.headers.get('content-length');
  if (length !== null && Number(length) <= EARLY_AUTH_BYTES) return;
  if (!(await authenticate(req, params))) throw unauthorized();
}

/** A route handler made by `endpoint`, carrying its declaration for the OpenAPI document. */
export type DeclaredHandler = RouteHandler & { endpointSpec?: EndpointSpec<Shape> };

export function endpoint<S extends Shape = Record<string, never>>(spec: EndpointSpec<S>): RouteHandler {
  const handler: RouteHandler = async (req, routeCtx) => {
    try {
      const url = new URL(req.url);
      const rawPath = await routeCtx.params;
      const pathParams: Record<string, string> = {};
      for (const [k, v] of Object.entries(rawPath ?? {})) if (typeof v === 'string') pathParams[k] = v;
      const query = parseQuery(url.searchParams);
      if ((spec.auth ?? 'required') === 'required') await refuseAnonymousLargeBody(req, { ...query, ...pathParams });
      const body = await parseBody(req);
      const raw = mergeParams(query, body, pathParams);
      // GitLab's HandleMalformedStrings middleware: a NUL byte anywhere is a 400 before anything else
      // (GitLab's is plain text; Runway answers every /api/v4 error in JSON, see docs/api.md).
      if (containsNul(raw)) throw badRequest();
      const linkParams = { ...query, ...pathParams };

      let actor: Actor | null = null;
      if (spec.auth !== 'none') {
        actor = await authenticate(req, raw);
        if (!spec.anyScope) requireScope(actor, acceptedScopes(req.method, spec.scopes), registeredScopes(spec.scopes));
        actor = await applySudo(actor, req, raw);
        // The request log names the user the endpoint acts as (after Sudo), as GitLab's api_json.log does.
        if (actor) recordUser(actor.user);
        const throttled = await limitApiRequest(req, actor);
        if (throttled) return throttled;
        if ((spec.auth ?? 'required') === 'required' && !actor) throw unauthorized();
      }

      let pageReq: PageRequest | undefined;
      const ctx: RequestContext<S> = {
        req,
        method: req.method,
        path: url.pathname,
        pathParams,
        raw,
        linkParams,
        input: {} as Parsed<S>,
        actor,
        user() {
          if (!actor) throw unauthorized();
          return actor;
        },
        page() {
          return (pageReq ??= pageRequest(raw));
        },
        paginate(source) {
          return paginate({ path: url.pathname, params: linkParams }, ctx.page(), source);
        },
        keysetPage(keyset, rows) {
          return keysetPage({ path: url.pathname, params: linkParams }, keyset, rows);
        },
      };
      if (spec.before) await spec.before(ctx as unknown as RequestContext<Shape>);
      if (spec.params) ctx.input = parseParams(spec.params, raw, spec.rules, Object.keys(pathParams));
      const result = await spec.handle(ctx);
      if (result instanceof Response) return result;
      return json(result ?? null);
    } catch (err) {
      return errorResponse(err, req);
    }
  };
  return Object.assign(handler, { endpointSpec: spec as unknown as EndpointSpec<Shape> });
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

export const notFoundHandler: RouteHandler = async () => errorResponse(routeNotFound(), new Request('http://x'));

/**
 * A route file's exports: the methods it serves, and GitLab's catch-all 404 for every other method
 * (Next.js alone would answer 405 with no body).
 */
export function routes(handlers: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const out = {} as Record<Method, RouteHandler>;
  for (const m of METHODS) out[m] = handlers[m] ?? notFoundHandler;
  // Grape answers HEAD on every GET route (Node sends the headers without the body).
  out.HEAD = handlers.HEAD ?? handlers.GET ?? notFoundHandler;
  return out;
}

/** JSON list response with pagination headers. */
export function paginated<T>(page: PageResult<T>, map: (item: T) => unknown = (x) => x): Response {
  return json(page.items.map(map), 200, page.headers);
}
