// Request parameters as Grape sees them: query string, then the body (JSON, urlencoded or multipart),
// then path parameters, merged into one object. Nested keys follow Rack (`a[]=x`, `info[name]=y`).
import { maxBodyBytes } from '../config/env';
import { ApiError, payloadTooLarge, requestTimeout } from './errors';

export type Params = Record<string, unknown>;

/**
 * How deep parameters may nest: Ruby's JSON parser (max_nesting) and Rack's query parser
 * (param_depth_limit) both stop at 100, so GitLab refuses deeper input too. It also keeps every
 * recursive walk over parameters far from the stack's limit.
 */
export const MAX_PARAM_DEPTH = 100;
const tooDeep = () => new ApiError(400, { error: `The parameters are nested more than ${MAX_PARAM_DEPTH} levels deep` });

function assignNested(target: Params, key: string, value: unknown): void {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) {
    if (key !== '__proto__') target[key] = value;
    return;
  }
  const parts = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
  if (parts.length > MAX_PARAM_DEPTH) throw tooDeep();
  // `__proto__[x]=1` would otherwise write into Object.prototype; no GitLab parameter has that name.
  if (parts.includes('__proto__')) return;
  let node: Record<string, unknown> = target;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const last = i === parts.length - 1;
    const nextIsArray = parts[i + 1] === '';
    if (part === '') return; // "a[][b]" forms are beyond what any client sends
    if (last) {
      node[part] = value;
    } else if (nextIsArray && i + 1 === parts.length - 1) {
      const existing = node[part];
      node[part] = Array.isArray(existing) ? [...existing, value] : [value];
      return;
    } else {
      const existing = node[part];
      node = (node[part] = existing && typeof existing === 'object' && !Array.isArray(existing) ? existing : {}) as Params;
    }
  }
}

export function parseQuery(search: URLSearchParams): Params {
  const out: Params = {};
  for (const [key, value] of search) assignNested(out, key, value);
  return out;
}

const isPlainObject = (v: unknown): v is Params => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether objects and arrays nest deeper than `max` (the top level is 1); iterative, so any depth is safe. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The body's bytes, refused with 413 past `limit` without reading further: a declared Content-Length is
 * checked first, a chunked body is counted as it arrives. The unread rest is left to the server, which
 * discards it after the answer (cancelling the stream would reset the connection before the 413 is sent).
 */
export async function readBody(req: Request, limit = maxBodyBytes()): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(req.headers.get('content-length')) > limit) throw payloadTooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A failed read is the client's doing (gone, or too slow and cut off with a 408 by Node), not the server's.
    const { done, value } = await reader.read().catch(() => {
      throw requestTimeout();
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const bodyText = async (req: Request) => new TextDecoder().decode(await readBody(req));

export async function parseBody(req: Request): Promise<Params> {
  if (req.method === 'GET' || req.method === 'HEAD') return {};
  const contentType = req.headers.get('content-type') ?? '';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    const text = await bodyText(req);
    if (!text.trim()) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError(400, { error: 'The request body is not valid JSON' });
    }
    if (nestedDeeperThan(parsed, MAX_PARAM_DEPTH)) throw tooDeep();
    // gitlab-runner's `reset-token --pat` posts the literal `null`: a non-object body means "no params".
    return isPlainObject(parsed) ? parsed : {};
  }
  if (type === 'application/x-www-form-urlencoded') {
    return parseQuery(new URLSearchParams(await bodyText(req)));
  }
  if (type === 'multipart/form-data') {
    const out: Params = {};
    const bytes = await readBody(req);
    const form = await new Response(bytes, { headers: { 'Content-Type': contentType } }).formData().catch(() => {
      throw new ApiError(400, { error: 'The multipart body could not be read' });
    });
    for (const [key, value] of form) assignNested(out, key, typeof value === 'string' ? value : value.name);
    return out;
  }
  return {};
}

/** True when a string anywhere in the value (keys included) holds a NUL byte, which PostgreSQL cannot store. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  return false;
}

export function mergeParams(query: Params, body: Params, path: Params): Params {
  return { ...query, ...body, ...path };
}
