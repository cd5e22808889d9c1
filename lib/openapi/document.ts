// GET /api/v4/openapi.json: the OpenAPI 3.1 document of /api/v4, built from the endpoint declarations
// (parameters with GitLab's coercions), the entity schemas read off the entity functions, and the
// operations map (summaries, success status, which entity). Built once per process.
import type { DeclaredHandler, EndpointSpec } from '../api/handler';
import type { Param } from '../api/params';
import { GITLAB_COMPAT_VERSION } from '../meta/version';
import entities from './entities.generated.json';
import { operations, type Operation } from './operations';
import { routeModules } from './route-index.generated';

type Json = Record<string, unknown>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const EXTENSION_FLAG = 'x-runway-extension';

/** The operations the route files serve: [method, OpenAPI path, declaration]. */
export function declaredOperations(): Array<{ method: string; path: string; spec: EndpointSpec<never> }> {
  const out = [];
  for (const { path, module } of routeModules) {
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
const PAGINATION_HEADERS = Object.fromEntries(
  ['X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Total', 'X-Total-Pages', 'Link'].map((h) => [
    h,
    { schema: { type: 'string' }, description: h === 'Link' ? 'RFC 8288 links to the first, previous, next and last pages.' : `GitLab's ${h} header.` },
  ]),
);

function errorResponses(spec: EndpointSpec<never>, hasParams: boolean): Json {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
  const out: Json = {};
  if (hasParams) out['400'] = error('A parameter is missing or invalid: `{"error": "x is missing, y is invalid"}` (Grape) or `{"message": ...}`.');
  if ((spec.auth ?? 'required') === 'required') out['401'] = error('`{"message": "401 Unauthorized"}`.');
  out['403'] = error('`{"message": "403 Forbidden"}` or a reason.');
  out['404'] = error('`{"message": "404 <Thing> Not Found"}`.');
  return out;
}

function parameterObjects(path: string, method: string, spec: EndpointSpec<never>, op: Operation) {
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const parameters: Json[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: name === 'id' && /^\/(projects|groups|namespaces)\//.test(path) ? 'The ID or URL-encoded full path.' : undefined,
  }));
  const bodyProps: Json = {};
  const bodyRequired: string[] = [];
  const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  for (const [name, p] of Object.entries((spec.params ?? {}) as Record<string, Param<unknown, boolean>>)) {
    if (pathNames.includes(name)) continue;
    const doc = p.doc();
    const extension = op.extensionParams?.includes(name);
    const description = [doc.coercion, extension ? 'Runway extension.' : ''].filter(Boolean).join(' ');
    if (inBody) {
      bodyProps[name] = { ...doc.schema, description, ...(extension ? { [EXTENSION_FLAG]: true } : {}) };
      if (doc.required) bodyRequired.push(name);
    } else {
      parameters.push({ name, in: 'query', required: doc.required, schema: doc.schema, description, ...(extension ? { [EXTENSION_FLAG]: true } : {}) });
    }
  }
  const list = Array.isArray(op.entity);
  if (list && !parameters.some((p) => p.name === 'page')) parameters.push(...PAGINATION_PARAMS);
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

function buildDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const { method, path, spec } of declaredOperations()) {
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
    const security = op.runner ? [{}] : spec.auth === 'none' ? [{}] : spec.auth === 'optional' ? [{}, ...USER_SECURITY] : USER_SECURITY;
    (paths[path] ??= {})[method.toLowerCase()] = {
      operationId: `${method.toLowerCase()}${path.replace(/\{([^}]+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: op.summary,
      tags: [op.tag],
      ...(op.extension ? { [EXTENSION_FLAG]: true, description: 'A Runway extension: GitLab has no such endpoint.' } : {}),
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: { [status]: success, ...errorResponses(spec, hasParams) },
      security,
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
      },
      securitySchemes: {
        privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal access token.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token as an OAuth bearer token.' },
        session: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token', description: "The dashboard's session (browser)." },
      },
    },
    security: USER_SECURITY,
  };
}

const USER_SECURITY = [{ privateToken: [] }, { bearer: [] }, { session: [] }];

const holder = globalThis as typeof globalThis & { __runwayOpenApi?: Map<string, Json> };

export function openApiDocument(serverUrl: string): Json {
  const cache = (holder.__runwayOpenApi ??= new Map());
  let doc = cache.get(serverUrl);
  if (!doc) cache.set(serverUrl, (doc = buildDocument(serverUrl)));
  return doc;
}
