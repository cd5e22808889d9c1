// Request parameters as Grape sees them: query string, then the body (JSON, urlencoded or multipart),
// then path parameters, merged into one object. Nested keys follow Rack (`a[]=x`, `info[name]=y`).
import { ApiError } from './errors';

export type Params = Record<string, unknown>;

function assignNested(target: Params, key: string, value: unknown): void {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) {
    target[key] = value;
    return;
  }
  const parts = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
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

export async function parseBody(req: Request): Promise<Params> {
  if (req.method === 'GET' || req.method === 'HEAD') return {};
  const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    const text = await req.text();
    if (!text.trim()) return {};
    try {
      const parsed: unknown = JSON.parse(text);
      // gitlab-runner's `reset-token --pat` posts the literal `null`: a non-object body means "no params".
      return isPlainObject(parsed) ? parsed : {};
    } catch {
      throw new ApiError(400, { error: 'The request body is not valid JSON' });
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return parseQuery(new URLSearchParams(await req.text()));
  }
  if (type === 'multipart/form-data') {
    const out: Params = {};
    const form = await req.formData().catch(() => {
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
