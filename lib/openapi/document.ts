// GET /api/v4/openapi.json: the OpenAPI 3.1 document of /api/v4, built from the endpoint declarations
// (parameters with GitLab's coercions), the entity schemas read off the entity functions, and the
// operations map (summaries, success status, which entity). Built once per process.
import type { DeclaredHandler, EndpointSpec } from '../api/handler';
import type { Param } from '../api/params';
import { acceptedScopes } from '../auth/scopes';
import { GITLAB_COMPAT_VERSION } from '../meta/version';
import entities from './entities.generated.json';
import { operations, type Operation } from './operations';
import { routeModules } from './route-index.generated';

type Json = Record<string, unknown>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const EXTENSION_FLAG = 'x-runway-extension';
/** The personal access token scopes an operation accepts (any one passes), for the reference to show. */
export const SCOPES_FIELD = 'x-runway-scopes';

export type RouteModule = (typeof routeModules)[number];

/**
 * The route index and the document's own route, which the index leaves out (importing it would close a
 * circle: route -> document -> index -> route); the route passes itself in. Sorted as the index is.
 */
function allRoutes(ownRoute: RouteModule | undefined): readonly RouteModule[] {
  return ownRoute ? [...routeModules, ownRoute].sort((a, b) => a.path.localeCompare(b.path)) : routeModules;
}

/** The operations the route files serve: [method, OpenAPI path, declaration]. */
export function declaredOperations(ownRoute?: RouteModule): Array<{ method: string; path: string; spec: EndpointSpec<never> }> {
  const out = [];
  for (const { path, module } of allRoutes(ownRoute)) {
    for (const method of METHODS) {
      const spec = (module[method] as DeclaredHandler | undefined)?.endpointSpec;
      if (spec) out.push({ method, path, spec: spec as EndpointSpec<never> });
    }
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function entitySchema(entity: string): Json {
  const names = entity.split('|');
  return names.length === 1 ? ref(names[0]) : { anyOf: names.map(ref) };
}

function successSchema(op: Operation): Json | undefined {
  if (op.schema) return op.schema as Json;
  if (!op.entity) return undefined;
  const list = Array.isArray(op.entity);
  const name = list ? op.entity[0] : (op.entity as string);
  let item = entitySchema(name);
  // Extension keys join the entity's own closed object (a $ref plus keys cannot reopen it).
  if (op.adds) {
    const base = (entities as Record<string, Json>)[name];
    item = { ...base, properties: { ...(base.properties as Json), ...op.adds } };
  }
  return list ? { type: 'array', items: item } : item;
}

const PAGINATION_PARAMS = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 }, description: 'Page number (offset pagination).' },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'Items per page (at most 100).' },
];
/** What the declared keyset parameters mean (lib/api/pagination.ts). */
const KEYSET_DESCRIPTIONS: Record<string, string> = {
  pagination:
    '`keyset`: GitLab\'s keyset pagination, ordered by id only (`order_by=id`, `sort` asc or desc), `per_page` items, the next page in the `Link` header\'s rel="next" and no counts (no X-Total, X-Total-Pages or page numbers); any other `order_by` answers 405. Absent or `offset`: page-number pagination.',
  id_after: 'Only ids above this one: the cursor of an ascending keyset page (rel="next" links carry it).',
  id_before: 'Only ids below this one: the cursor of a descending keyset page (rel="next" links carry it).',
  cursor: 'The opaque cursor of the next keyset page (with `pagination=keyset`), as the rel="next" link carries it.',
};
/** The `pagination` parameter of a list that reads it without declaring it (GET /runners/:id/jobs, cursor-based). */
const PAGINATION_PARAM = {
  name: 'pagination',
  in: 'query',
  schema: { type: 'string', enum: ['offset', 'keyset'] },
  description: KEYSET_DESCRIPTIONS.pagination,
};
const PAGINATION_HEADERS = Object.fromEntries(
  ['X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Total', 'X-Total-Pages', 'Link'].map((h) => [
    h,
    {
      schema: h === 'Link' ? { type: 'string' } : { type: 'string', pattern: '^[0-9]*$' },
      description:
        h === 'Link'
          ? 'RFC 8288 links: first, previous, next and last pages (offset), or only rel="next" (keyset, absent on the last page).'
          : h === 'X-Total' || h === 'X-Total-Pages'
            ? `GitLab's ${h} header (offset pagination): left out past 10,000 matches, as GitLab does, and always with keyset pagination.`
            : `GitLab's ${h} header (offset pagination).`,
    },
  ]),
);

const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });

const STATUS_DESCRIPTIONS: Record<number, string> = {
  405: 'Keyset pagination is not available for the requested order: `{"error": "Keyset pagination is not yet available for this type of request"}`.',
  409: 'A conflict with existing data (taken email or username, an existing member or merge request, a sole group owner): `{"message": ...}`.',
  412: 'The resource changed after `If-Unmodified-Since`: `{"message": "412 Precondition Failed"}`.',
  422: 'The request is well formed but cannot be processed (`{"message": ...}`, a string, a list or field -> messages).',
};

function errorResponses(method: string, spec: EndpointSpec<never>, op: Operation, hasParams: boolean): Json {
  const out: Json = {};
  if (hasParams) out['400'] = error('A parameter is missing or invalid: `{"error": "x is missing, y is invalid"}` (Grape) or `{"message": ...}`.');
  if ((spec.auth ?? 'required') === 'required') out['401'] = error('`{"message": "401 Unauthorized"}`.');
  out['403'] = error('`{"message": "403 Forbidden"}` or a reason.');
  out['404'] = error('`{"message": "404 <Thing> Not Found"}`.');
  for (const status of op.errors ?? []) out[String(status)] = error(STATUS_DESCRIPTIONS[status]);
  // Every method but GET reads a body (JSON, form or multipart), refused past RUNWAY_MAX_BODY_BYTES.
  if (method !== 'GET') out['413'] = error('The body exceeds the size limit: `{"message": "413 Request Entity Too Large"}`.');
  out['429'] = {
    description: "Throttled (GitLab's Rack::Attack answer, or too many open event streams): plain text, retry after `Retry-After` seconds.",
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } },
    content: { 'text/plain': { schema: { type: 'string', const: 'Retry later\n' } } },
  };
  out['503'] = error('The database cannot be reached (down, out of connections): `{"message": "503 Service Unavailable"}`; retry later.');
  return out;
}

/** The schema of a path parameter: declared ones from their declaration, ids as integers, paths and names as strings. */
function pathParameter(path: string, name: string, spec: EndpointSpec<never>): Json {
  const declared = (spec.params as Record<string, Param<unknown, boolean>> | undefined)?.[name];
  if (declared) return { schema: declared.doc().schema };
  if (name === 'id' && /^\/(projects|groups|namespaces)\//.test(path)) {
    return {
      description: 'The ID or URL-encoded full path (`group%2Fsubgroup%2Fproject`).',
      schema: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: FULL_PATH_PATTERN, description: 'A full path (sent URL-encoded).' }] },
    };
  }
  if (name === 'id' && path.startsWith('/users/{id}/projects')) {
    return { description: 'The ID or username of the user.', schema: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^(?![0-9]+$)[^/]+$' }] } };
  }
  // Session ids are digests; branches and commits are names.
  if (path.startsWith('/user/sessions/') || name === 'branch' || name === 'sha') return { schema: { type: 'string' } };
  return { schema: { type: 'integer' } };
}

/** A full path: segments separated by `/`, not all digits (an all-digit value is an ID). */
const FULL_PATH_PATTERN = '^(?![0-9]+$)[^/]+(/[^/]+)*$';

function parameterObjects(path: string, method: string, spec: EndpointSpec<never>, op: Operation) {
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const parameters: Json[] = pathNames.map((name) => ({ name, in: 'path', required: true, ...pathParameter(path, name, spec) }));
  const bodyProps: Json = {};
  const bodyRequired: string[] = [];
  const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  for (const [name, p] of Object.entries((spec.params ?? {}) as Record<string, Param<unknown, boolean>>)) {
    if (pathNames.includes(name)) continue;
    const doc = p.doc();
    const extension = op.extensionParams?.includes(name);
    const description = [KEYSET_DESCRIPTIONS[name], doc.coercion, extension ? 'Runway extension.' : ''].filter(Boolean).join(' ');
    if (inBody) {
      bodyProps[name] = { ...doc.schema, description, ...(extension ? { [EXTENSION_FLAG]: true } : {}) };
      if (doc.required) bodyRequired.push(name);
    } else {
      parameters.push({ name, in: 'query', required: doc.required, schema: doc.schema, description, ...(extension ? { [EXTENSION_FLAG]: true } : {}) });
    }
  }
  const list = Array.isArray(op.entity);
  if (list && !parameters.some((p) => p.name === 'page')) parameters.push(...PAGINATION_PARAMS);
  if (parameters.some((p) => p.name === 'cursor') && !parameters.some((p) => p.name === 'pagination')) parameters.push(PAGINATION_PARAM);
  const requestBody =
    inBody && Object.keys(bodyProps).length
      ? {
          required: bodyRequired.length > 0,
          description: 'Parameters may also be sent in the query string or as a form (application/x-www-form-urlencoded), as GitLab accepts.',
          content: {
            'application/json': { schema: { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: bodyRequired } : {}) } },
            'application/x-www-form-urlencoded': { schema: { type: 'object', properties: bodyProps } },
          },
        }
      : undefined;
  return { parameters, requestBody, hasParams: parameters.length > pathNames.length || !!requestBody };
}

function buildDocument(serverUrl: string, ownRoute: RouteModule): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const { method, path, spec } of declaredOperations(ownRoute)) {
    const key = `${method} ${path}`;
    const op = operations[key];
    if (!op) throw new Error(`no entry in lib/openapi/operations.ts for ${key}`);
    tags.add(op.tag);
    const { parameters, requestBody, hasParams } = parameterObjects(path, method, spec, op);
    const status = String(op.status ?? (method === 'POST' ? 201 : 200));
    const schema = successSchema(op);
    const success: Json = { description: status === '204' ? 'No content.' : 'Success.' };
    if (schema && status !== '204') success.content = { [op.contentType ?? 'application/json']: { schema } };
    if (Array.isArray(op.entity)) success.headers = PAGINATION_HEADERS;
    const security = op.runner ? RUNNER_SECURITY : spec.auth === 'none' ? [{}] : spec.auth === 'optional' ? [{}, ...USER_SECURITY] : USER_SECURITY;
    (paths[path] ??= {})[method.toLowerCase()] = {
      operationId: `${method.toLowerCase()}${path.replace(/\{([^}]+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: op.summary,
      tags: [op.tag],
      ...(op.extension ? { [EXTENSION_FLAG]: true, description: 'A Runway extension: GitLab has no such endpoint.' } : {}),
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: { [status]: success, ...errorResponses(method, spec, op, hasParams) },
      security,
      // A token's scopes as lib/api/handler.ts checks them; runner tokens and anonymous routes have none.
      ...(!op.runner && spec.auth !== 'none' && !spec.anyScope ? { [SCOPES_FIELD]: acceptedScopes(method, spec.scopes) } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Runway API (GitLab-compatible /api/v4)',
      version: GITLAB_COMPAT_VERSION,
      description:
        "Runway serves GitLab's REST API for runners, merge-request context commits and what they rely on. Paths, parameters, status codes and JSON fields follow GitLab's; Runway's additions are marked `x-runway-extension`.",
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: `${serverUrl}/api/v4` }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: {
        ...(entities as Record<string, Json>),
        Error: {
          description: "GitLab's error bodies: `message` (a string, or field -> messages for validation errors) or Grape's `error`.",
          anyOf: [
            { type: 'object', properties: { message: { anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'array' }] } }, required: ['message'] },
            { type: 'object', properties: { error: { type: 'string' }, error_description: { type: 'string' } }, required: ['error'] },
          ],
        },
        ...STREAM_SCHEMAS,
      },
      securitySchemes: SECURITY_SCHEMES,
    },
    security: USER_SECURITY,
  };
}

/**
 * The events of GET /runners/events (lib/runners/events.ts), each one SSE frame: `id:` (a sequence number),
 * `event:` and `data:` (JSON). Between events the stream sends `retry:` hints and comment lines (`: heartbeat`
 * every 15 s), which carry no event. EventSource clients resume with Last-Event-ID; nothing is replayed.
 */
const STREAM_SCHEMAS = {
  RunnerEvent: {
    description: 'A runner the caller may read changed: refetch it (`deleted`: drop it).',
    type: 'object',
    properties: { id: { type: 'integer' }, action: { type: 'string', enum: ['created', 'updated', 'deleted'] } },
    required: ['id', 'action'],
    additionalProperties: false,
  },
  RunnerStreamEvent: {
    description: 'One Server-Sent Event of the runner event stream.',
    oneOf: [
      {
        type: 'object',
        properties: { id: { type: 'string' }, event: { const: 'runner' }, data: ref('RunnerEvent') },
        required: ['id', 'event', 'data'],
        additionalProperties: false,
      },
      {
        description: 'Too many changes to list (or the stream resumed): refetch everything.',
        type: 'object',
        properties: { id: { type: 'string' }, event: { const: 'resync' }, data: { type: 'object', additionalProperties: false } },
        required: ['id', 'event', 'data'],
        additionalProperties: false,
      },
    ],
  },
};

/**
 * The credentials lib/api/authenticate.ts and the agent API accept. A personal access token in one of four
 * places; `Sudo` (header or `sudo` parameter) on top of an admin's token with the `sudo` scope; the
 * dashboard's session cookie; a runner's token in RUNNER-TOKEN or the `token` parameter. GitLab's JOB-TOKEN
 * is not accepted: Runway runs no CI jobs.
 */
const SECURITY_SCHEMES = {
  privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal access token.' },
  privateTokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'private_token',
    description: 'A personal access token in the query string (GitLab accepts it; prefer a header).',
  },
  accessTokenQuery: { type: 'apiKey', in: 'query', name: 'access_token', description: 'A personal access token as an OAuth `access_token` query parameter.' },
  bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token as an OAuth bearer token (`Authorization: Bearer`).' },
  sudo: {
    type: 'apiKey',
    in: 'header',
    name: 'Sudo',
    description: "Act as another user (ID or username): only with an admin's token holding the `sudo` scope. Also accepted as the `sudo` parameter.",
  },
  session: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token', description: "The dashboard's session (browser); writes also need X-CSRF-Token." },
  runnerToken: {
    type: 'apiKey',
    in: 'header',
    name: 'RUNNER-TOKEN',
    description:
      "A runner's authentication token (gitlab-runner 17.11+); older runners send it as the `token` body parameter, which is documented on each operation.",
  },
};

const TOKENS = ['privateToken', 'privateTokenQuery', 'accessTokenQuery', 'bearer'];
const USER_SECURITY = [...TOKENS.map((t) => ({ [t]: [] })), ...TOKENS.map((t) => ({ [t]: [], sudo: [] })), { session: [] }];
// `{}`: the token is the `token` body parameter instead (registration tokens always are).
const RUNNER_SECURITY = [{ runnerToken: [] }, {}];

const holder = globalThis as typeof globalThis & { __runwayOpenApi?: Map<string, Json> };

export function openApiDocument(serverUrl: string, ownRoute: RouteModule): Json {
  const cache = (holder.__runwayOpenApi ??= new Map());
  let doc = cache.get(serverUrl);
  if (!doc) cache.set(serverUrl, (doc = buildDocument(serverUrl, ownRoute)));
  return doc;
}
