// The API reference's reading of GET /api/v4/openapi.json (lib/openapi/document.ts writes it): operations
// grouped by tag, the filter over them, schemas resolved ($ref) into field lists, the authentication an
// operation accepts in words, and the URL "Try it" calls. Plain functions, so the page only draws.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  'x-runway-extension'?: boolean;
}

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  'x-runway-extension'?: boolean;
}

interface RawMedia {
  schema?: JsonSchema;
}

interface RawOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, RawMedia> };
  responses?: Record<string, { description?: string; headers?: Record<string, { description?: string }>; content?: Record<string, RawMedia> }>;
  security?: Array<Record<string, string[]>>;
  'x-runway-extension'?: boolean;
  'x-runway-scopes'?: string[];
}

export interface SecurityScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string }[];
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, SecurityScheme> };
  security?: Array<Record<string, string[]>>;
}

/** The document's marker of Runway's additions (lib/openapi/document.ts, EXTENSION_FLAG). */
export const EXTENSION_FLAG = 'x-runway-extension';

export interface ApiParameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
  schema: JsonSchema;
  extension: boolean;
}

export interface ApiResponse {
  status: string;
  description: string;
  mediaType?: string;
  schema?: JsonSchema;
  headers: string[];
}

export interface ApiAuth {
  /** `none`: no credentials; `optional`: anonymous callers too; `required`. */
  need: 'none' | 'optional' | 'required';
  /** What the operation accepts, in words ("PRIVATE-TOKEN header", "the dashboard's session"). */
  accepts: string[];
}

export interface ApiOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  extension: boolean;
  parameters: ApiParameter[];
  requestBody?: { required: boolean; description?: string; schema?: JsonSchema };
  responses: ApiResponse[];
  auth: ApiAuth;
  /** Token scopes that pass (any one of them). */
  scopes: string[];
}

export interface ApiTag {
  name: string;
  /** The section's anchor: `tag-merge-requests`. */
  anchor: string;
  operations: ApiOperation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export const tagAnchor = (name: string) =>
  `tag-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;

/** The operations of the document, grouped by tag in the document's tag order, each tag's in path order. */
export function readReference(doc: OpenApiDocument): ApiTag[] {
  const byTag = new Map<string, ApiOperation[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const op = readOperation(doc, method, path, raw);
      if (!byTag.has(op.tag)) byTag.set(op.tag, []);
      byTag.get(op.tag)!.push(op);
    }
  }
  return [...byTag].filter(([, ops]) => ops.length > 0).map(([name, operations]) => ({ name, anchor: tagAnchor(name), operations }));
}

function readOperation(doc: OpenApiDocument, method: string, path: string, raw: RawOperation): ApiOperation {
  const body = raw.requestBody;
  const bodyMedia = body?.content?.['application/json'] ?? Object.values(body?.content ?? {})[0];
  return {
    id: raw.operationId,
    method: method.toUpperCase(),
    path,
    summary: raw.summary ?? `${method.toUpperCase()} ${path}`,
    description: raw.description,
    tag: raw.tags?.[0] ?? 'Other',
    extension: raw[EXTENSION_FLAG] === true,
    parameters: (raw.parameters ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required === true,
      description: p.description ?? p.schema?.description ?? '',
      schema: p.schema ?? {},
      extension: p[EXTENSION_FLAG] === true,
    })),
    requestBody: body ? { required: body.required === true, description: body.description, schema: bodyMedia?.schema } : undefined,
    responses: Object.entries(raw.responses ?? {}).map(([status, r]) => {
      const [mediaType, media] = Object.entries(r.content ?? {})[0] ?? [];
      return { status, description: r.description ?? '', mediaType, schema: media?.schema, headers: Object.keys(r.headers ?? {}) };
    }),
    auth: authOf(raw.security ?? doc.security ?? [], doc.components?.securitySchemes ?? {}),
    scopes: raw['x-runway-scopes'] ?? [],
  };
}

function schemeWords(name: string, scheme: SecurityScheme | undefined): string {
  if (!scheme) return name;
  if (scheme.type === 'http' && scheme.scheme === 'bearer') return 'Authorization: Bearer header';
  if (scheme.in === 'cookie') return "the dashboard's session";
  if (scheme.in === 'query') return `${scheme.name} query parameter`;
  return `${scheme.name} header`;
}

/** The security requirements in words: each alternative's schemes (`Sudo` only rides on a token). */
export function authOf(security: Array<Record<string, string[]>>, schemes: Record<string, SecurityScheme>): ApiAuth {
  const anonymous = security.some((r) => Object.keys(r).length === 0);
  const named = security.filter((r) => Object.keys(r).length > 0);
  const accepts: string[] = [];
  for (const requirement of named) {
    const names = Object.keys(requirement);
    // A token plus Sudo: said once, as "Sudo header (with a token)".
    const words = names.length > 1 ? `${names.map((n) => schemeWords(n, schemes[n])).join(' with ')}` : schemeWords(names[0], schemes[names[0]]);
    const said = names.includes('sudo') ? `${schemeWords('sudo', schemes.sudo)} (with an admin's token)` : words;
    if (!accepts.includes(said)) accepts.push(said);
  }
  return { need: named.length === 0 ? 'none' : anonymous ? 'optional' : 'required', accepts };
}

/** Whether an operation matches every word of the filter, in its path, summary, method, tag or id. */
export function matchesFilter(op: ApiOperation, phrase: string): boolean {
  const words = phrase.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = `${op.method} ${op.path} ${op.summary} ${op.tag} ${op.id}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

/** The tags with only their matching operations (tags left empty are dropped). */
export function filterTags(tags: ApiTag[], phrase: string): ApiTag[] {
  if (!phrase.trim()) return tags;
  return tags.map((t) => ({ ...t, operations: t.operations.filter((op) => matchesFilter(op, phrase)) })).filter((t) => t.operations.length > 0);
}

export const refName = (ref: string) => ref.replace(/^#\/components\/schemas\//, '');

/** The schema a `$ref` points to (followed until it is not one), or the schema itself. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    const target = doc.components?.schemas?.[refName(current.$ref)];
    if (!target) break;
    // The referring schema's description wins (a field says what it holds).
    current = { ...target, description: current.description ?? target.description };
  }
  return current;
}

const isNull = (s: JsonSchema) => s.type === 'null';

/** A short type in words: `integer`, `string (date-time)`, `array of Runner`, `Runner or null`, `"runner"`. */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map(typeLabel))].join(' or ');
  if (schema.allOf) return schema.allOf.map(typeLabel).join(' and ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  return types
    .map((t) => (t === 'array' ? `array of ${schema.items ? typeLabel(schema.items) : 'any'}` : schema.format && t !== 'null' ? `${t} (${schema.format})` : t))
    .join(' or ');
}

/**
 * The objects a schema describes once references, `null` alternatives and arrays are looked through: one
 * for a plain object, several for `anyOf`/`oneOf` of objects (each drawn as a variant), none for a scalar.
 */
export function objectShapes(doc: OpenApiDocument, schema: JsonSchema, depth = 0): JsonSchema[] {
  if (depth > 8) return [];
  const s = resolve(doc, schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return variants.filter((v) => !isNull(v)).flatMap((v) => objectShapes(doc, v, depth + 1));
  if (s.allOf) {
    const parts = s.allOf.flatMap((v) => objectShapes(doc, v, depth + 1));
    return parts.length
      ? [{ type: 'object', properties: Object.assign({}, ...parts.map((p) => p.properties)), required: parts.flatMap((p) => p.required ?? []) }]
      : [];
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('array') && s.items) return objectShapes(doc, s.items, depth + 1);
  if (s.properties && Object.keys(s.properties).length > 0) return [s];
  return [];
}

export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description: string;
  enum?: unknown[];
  default?: unknown;
  extension: boolean;
  schema: JsonSchema;
}

/** The fields of an object schema, in the document's order. */
export function fieldsOf(doc: OpenApiDocument, shape: JsonSchema): SchemaField[] {
  return Object.entries(shape.properties ?? {}).map(([name, raw]) => {
    const resolved = resolve(doc, raw);
    return {
      name,
      type: typeLabel(raw),
      required: shape.required?.includes(name) ?? false,
      description: raw.description ?? resolved.description ?? '',
      enum: enumOf(resolved),
      default: raw.default,
      extension: raw[EXTENSION_FLAG] === true || /^_runway/.test(name),
      schema: raw,
    };
  });
}

/** The allowed values of a schema, looking through an array's items (`tag_list[]` of fixed words). */
export function enumOf(schema: JsonSchema): unknown[] | undefined {
  return schema.enum ?? (schema.items?.enum as unknown[] | undefined);
}

/**
 * The URL "Try it" calls: path parameters put in (URL-encoded, as GitLab wants a full path's slashes), then
 * the query parameters that were given a value; an array parameter takes comma- or line-separated values
 * as `name[]=` pairs, as GitLab reads them. Null when a path parameter is missing.
 */
export function tryItUrl(op: ApiOperation, values: Record<string, string>): string | null {
  let missing = false;
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name]?.trim() ?? '';
    if (!value) missing = true;
    return encodeURIComponent(value);
  });
  if (missing) return null;
  const qs = new URLSearchParams();
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const value = values[p.name]?.trim();
    if (!value) continue;
    const isArray = p.schema.type === 'array' || (Array.isArray(p.schema.type) && p.schema.type.includes('array'));
    if (isArray)
      value
        .split(/[,\n]/)
        .map((v) => v.trim())
        .filter(Boolean)
        .forEach((v) => qs.append(p.name.endsWith('[]') ? p.name : `${p.name}[]`, v));
    else qs.append(p.name, value);
  }
  const query = qs.toString();
  return `/api/v4${path}${query ? `?${query}` : ''}`;
}

/** A JSON body in the text box: the parsed value, or why it is not JSON. Empty text sends no body. */
export function parseBody(text: string): { ok: true; body: string | undefined } | { ok: false; message: string } {
  if (!text.trim()) return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.stringify(JSON.parse(text)) };
  } catch (err) {
    return { ok: false, message: `The body is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}
