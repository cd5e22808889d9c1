// Issue 8's fuzz test: thousands of generated malformed requests over every /api/v4 route file (every
// method, hostile path segments and %-escapes, NUL bytes, huge/negative/float ids, wrong types in
// queries and bodies, bad JSON, wrong content types, deep nesting, long strings, unicode), with a fixed
// seed, as root and anonymously; then the same for next-auth's endpoints (/api/auth/*) and /oauth/*. Asserts: no 5xx,
// and every error answer is JSON.
// Issue 20's integer bounds: every path segment and every declared integer parameter of every operation
// (read off the OpenAPI document, which is built from the declarations) gets the values around the
// database's integer columns' limits.
// Its own Runway on its own database (with the demo data, so ids resolve to real rows): its writes and
// deletes disturb no other test.
import http from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/database';
import { cli, freePort, ROOT, runwayEnv, startServer, stopServer } from '../support/server';

const SEED = 0x5eed8;
const REQUESTS = 2400;
const AUTH_REQUESTS = 600;
const OAUTH_REQUESTS = 400;
const CONCURRENCY = 4;

interface Route {
  segments: string[];
  methods: string[];
}

/** Every route file under app/api/v4: its path template and the methods it declares. */
function routeFiles(dir = path.join(ROOT, 'app', 'api', 'v4'), prefix: string[] = []): Route[] {
  const out: Route[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routeFiles(full, [...prefix, name]));
    else if (name === 'route.ts') {
      const source = readFileSync(full, 'utf8');
      const declared = /routes\(\{([\s\S]*?)\}\)/.exec(source)?.[1] ?? '';
      const methods = [...declared.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s*:/g)].map((m) => m[1]);
      out.push({ segments: prefix, methods: methods.length ? methods : ['GET'] });
    }
  }
  return out;
}

/** mulberry32: small, seedable, good enough to spread choices. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

// Path segment values, already in their on-the-wire form.
const SEGMENTS = [
  '1',
  '2',
  '3',
  '5',
  '0',
  '-1',
  '1.5',
  '1e3',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999999',
  'abc',
  'self',
  'all',
  'demo%2Fnothing',
  'a%2Fb%2Fc',
  '%252F',
  '..',
  '%2e%2e',
  '.',
  '%20',
  '%0a',
  '%09',
  '%ff',
  '%',
  '%c0%af',
  '%e0%a4',
  '%00',
  'a%00b',
  '%5C',
  'x%5Cy',
  '%E2%9C%93',
  '%F0%9F%98%80',
  '%ED%A0%80',
  "'%3B%20DROP%20TABLE%20users%3B--",
  '%3Cscript%3E',
  'null',
  'true',
  '%5B%5D',
  '%7B%7D',
  'é',
  'a'.repeat(3000),
  '0x10',
  '+1',
  '%2B1',
  '1%20',
  '00001',
  '1,2',
  'main',
  'feature%2Fx',
  '%2F',
];
const REAL_SEGMENTS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];

const PARAM_NAMES = [
  'page',
  'per_page',
  'sort',
  'order_by',
  'scope',
  'type',
  'status',
  'tag_list',
  'paused',
  'search',
  'id',
  'runner_type',
  'access_level',
  'user_id',
  'ref_name',
  'since',
  'until',
  'with_stats',
  'visibility',
  'owned',
  'membership',
  'state',
  'description',
  'name',
  'path',
  'namespace_id',
  'commits',
  'sha',
  'expires_at',
  'scopes',
  'username',
  'email',
  'password',
  'admin',
  'maximum_timeout',
  'info',
  'token',
  'run_untagged',
  'locked',
  'version_prefix',
  'active',
  'cursor',
  'pagination',
  'min_access_level',
  'all_available',
  'top_level_only',
  'skip_groups',
  'parent_id',
  'iids',
  'source_branch',
  'target_branch',
  'title',
  'project_id',
  'system_id',
  'last_update',
  'maintenance_note',
  'created_after',
  'revoked',
];
const QUERY_VALUES = [
  '1',
  '-1',
  '0',
  '1.5',
  '2147483648',
  '1e400',
  '99999999999999999999',
  'abc',
  '',
  '%ff',
  '%',
  '%00',
  'a%00b',
  '%c0%af',
  'true',
  'false',
  'null',
  '%5B%5D',
  'desc',
  'asc',
  'zzz',
  '2024-13-45',
  '2024-01-01',
  '2024-01-01T00:00:00Z',
  'x'.repeat(5000),
  '%E2%9C%93',
  '%F0%9F%98%80',
  'a,b,,c',
  '%2C%2C',
  '%20%20',
  'instance_type',
  'online',
  'api',
  '%27%22%3C%3E',
];
const BAD_JSON = ['{', '{"a":', 'nul', '{"a":1,}', "{'a':1}", '[', '"unterminated', '\u0000', '{"a":"\\ud800"}', '{"a":1}{"b":2}', '\u00ff\u00fe'];

function jsonValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 10 : 14)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1, 1.5, 2147483648, 9007199254740993, -1e308, 1e308, Number.MAX_SAFE_INTEGER]);
    case 3:
      return r.pick(['', ' ', 'abc', 'x'.repeat(r.pick([100, 70_000])), 'a\u0000b', '\ud800', '😀✓é', '%ff', '../../etc/passwd']);
    case 4:
      return r.pick(['instance_type', 'project_type', 'group_type', 'api', 'read_api', 'online', 'paused', 'desc', 'id']);
    case 5:
      return r.pick(['2024-01-01', '2024-02-30', 'yesterday', '2024-01-01T00:00:00Z']);
    case 6:
      return r.pick(['true', 'false', 'yes', '1', '0']);
    case 7:
      return String(r.int(20));
    case 8:
      return r.int(20);
    case 9:
      return 'a,b';
    case 10:
      return Array.from({ length: r.int(4) }, () => jsonValue(r, depth + 1));
    case 11:
      return Object.fromEntries(Array.from({ length: r.int(4) }, () => [r.pick(PARAM_NAMES), jsonValue(r, depth + 1)]));
    case 12:
      return [[['nested']]];
    default:
      return JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}') as unknown;
  }
}

/** Form-encodes a string (lone surrogates become U+FFFD, where encodeURIComponent would throw). */
const formEncode = (s: string) => new URLSearchParams([['', s]]).toString().slice(1);

function deepJson(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

interface Generated {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  label: string;
}

function generate(r: Rng, routes: Route[], rootToken: string): Generated {
  const route = r.pick(routes);
  const method = r.chance(0.75) ? r.pick(route.methods) : r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);
  let auth: 'root' | 'anonymous' | 'bad' = r.chance(0.55) ? 'root' : r.chance(0.85) ? 'anonymous' : 'bad';
  // Keep root able to act: never revoke its token, nor block, delete or demote user 1 (root).
  const touchesRoot = route.segments[0] === 'users' || route.segments.includes('personal_access_tokens');
  const segments = route.segments.map((s) => {
    if (s.startsWith('[...')) return Array.from({ length: 1 + r.int(3) }, () => r.pick(SEGMENTS)).join('/');
    if (s.startsWith('[')) {
      const value = r.chance(0.35) ? r.pick(REAL_SEGMENTS) : r.pick(SEGMENTS);
      return touchesRoot && /^(0*1|1\.5|1e3|self|\+1|%2B1|1%20|00001|1,2)$/.test(value) ? '99' : value;
    }
    return s;
  });
  if (touchesRoot && method !== 'GET' && auth === 'root' && route.segments.includes('personal_access_tokens')) auth = 'anonymous';
  let p = `/api/v4/${segments.join('/')}`.replace(/\/$/, '');
  if (r.chance(0.1)) p += r.pick(['/', '//', '/..', '/%2e%2e/version', '.json', '%20', '/extra']);

  const query: string[] = [];
  for (let i = r.int(5); i > 0; i--) {
    const name = r.pick(PARAM_NAMES);
    const shape = r.int(6);
    const value = r.pick(QUERY_VALUES);
    if (shape === 0) query.push(`${name}[]=${value}`, `${name}[]=${r.pick(QUERY_VALUES)}`);
    else if (shape === 1) query.push(`${name}[x][y]=${value}`);
    else if (shape === 2) query.push(`${name}${'[a]'.repeat(r.pick([3, 120]))}=1`);
    else query.push(`${name}=${value}`);
  }
  if (query.length) p += `?${query.join('&')}`;

  const headers: Record<string, string> = {};
  if (auth === 'root') headers['PRIVATE-TOKEN'] = rootToken;
  if (auth === 'bad')
    headers[r.pick(['PRIVATE-TOKEN', 'Authorization', 'JOB-TOKEN'])] = r.pick([
      'glpat-invalid',
      'Bearer ',
      'Bearer x%ffy',
      'Basic Zm9vOmJhcg==',
      'x'.repeat(2000),
    ]);
  if (auth === 'root' && r.chance(0.05)) headers.Sudo = r.pick(['nobody', '99999', '-1', '1.5', 'root']);
  if (r.chance(0.1))
    headers.Cookie = r.pick(['_ga=%E0%A4%A', 'next-auth.session-token=%ff', 'next-auth.session-token=abc', 'next-auth.session-token.0=%', 'a=b; =; ;;']);

  let body: Buffer | undefined;
  let kind = 'none';
  if (method !== 'GET' && method !== 'HEAD' && r.chance(0.8)) {
    kind = r.pick(['json', 'json', 'json', 'badjson', 'deep', 'array', 'form', 'multipart', 'badmultipart', 'text', 'xml', 'notype']);
    const obj = () => Object.fromEntries(Array.from({ length: 1 + r.int(6) }, () => [r.pick(PARAM_NAMES), jsonValue(r)]));
    switch (kind) {
      case 'json':
        headers['Content-Type'] = r.pick(['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']);
        body = Buffer.from(JSON.stringify(obj()));
        break;
      case 'badjson':
        headers['Content-Type'] = 'application/json';
        body = Buffer.from(r.pick(BAD_JSON), 'latin1');
        break;
      case 'deep':
        headers['Content-Type'] = 'application/json';
        body = Buffer.from(r.chance(0.5) ? deepJson(10_000) : `[${'['.repeat(5000)}${']'.repeat(5000)}]`);
        break;
      case 'array':
        headers['Content-Type'] = 'application/json';
        body = Buffer.from(JSON.stringify(r.pick([[1, 2], 'string', 42, true, [obj()]])));
        break;
      case 'form': {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        const pairs = Object.entries(obj()).map(([k, v]) => `${k}${r.chance(0.3) ? '[]' : ''}=${r.chance(0.3) ? r.pick(QUERY_VALUES) : formEncode(String(v))}`);
        body = Buffer.from(pairs.join('&'));
        break;
      }
      case 'multipart': {
        const boundary = 'fuzzboundary';
        headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
        const parts = Object.entries(obj()).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`);
        body = Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
        break;
      }
      case 'badmultipart':
        headers['Content-Type'] = r.pick(['multipart/form-data', 'multipart/form-data; boundary=x', 'multipart/form-data; boundary=']);
        body = Buffer.from('--y\r\ngarbage\r\n');
        break;
      case 'text':
        headers['Content-Type'] = 'text/plain';
        body = Buffer.from('runner_type=instance_type');
        break;
      case 'xml':
        headers['Content-Type'] = 'application/xml';
        body = Buffer.from('<?xml version="1.0"?><a>1</a>');
        break;
      default:
        body = Buffer.from(JSON.stringify(obj()));
    }
  }
  return { method, path: p, headers, body, label: `${method} ${p.slice(0, 200)} [${auth}, ${kind}]` };
}

interface Answer {
  status: number;
  contentType?: string;
  text: string;
}

function send(base: URL, agent: http.Agent, g: Generated): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method: g.method, path: g.path, headers: g.headers, agent });
    req.setTimeout(20_000, () => req.destroy(new Error('timed out')));
    req.on('response', (res) => {
      // An event stream (GET /runners/events) never ends by itself: its status and type are the answer.
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        resolve({ status: res.statusCode!, contentType: res.headers['content-type'], text: '' });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(g.body);
  });
}

/** Sends every request, CONCURRENCY at a time on kept-alive sockets, handing each answer (or failure) to `check`. */
async function sendAll<G extends Generated>(requests: G[], check: (g: G, answer: Answer | Error) => void): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < requests.length) {
      const g = requests[nextIndex++];
      check(g, await send(base, agent, g).catch((err: Error) => err));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
}

function isJsonAnswer(answer: Answer): boolean {
  try {
    JSON.parse(answer.text);
    return answer.contentType === 'application/json';
  } catch {
    return false;
  }
}

/**
 * Sends the requests; a failure is a request with no answer, a 5xx, or an error answer (but HEAD's and those
 * with a status in `textAllowed`) that is not JSON.
 */
/** `jsonOnly`: successes in JSON too, and no redirect (paths that never answer a browser with a page). */
async function fire(requests: Generated[], textAllowed: number[] = [], opts: { jsonOnly?: boolean } = {}) {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  await sendAll(requests, (g, answer) => {
    if (answer instanceof Error) return void failures.push(`${g.label}: no answer (${answer.message})`);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 500) failures.push(`${g.label}: ${answer.status} ${answer.text.slice(0, 200)}`);
    else if (opts.jsonOnly && answer.status < 400 && (answer.status >= 300 || (g.method !== 'HEAD' && answer.status !== 204 && !isJsonAnswer(answer)))) {
      failures.push(`${g.label}: ${answer.status} ${answer.contentType} ${answer.text.slice(0, 120)}`);
    } else if (answer.status >= 400 && g.method !== 'HEAD' && !textAllowed.includes(answer.status) && !isJsonAnswer(answer)) {
      failures.push(`${g.label}: ${answer.status} not JSON (${answer.contentType}) ${answer.text.slice(0, 120)}`);
    }
  });
  return { failures, statuses };
}

let database: TestDatabase;
let server: ChildProcess;
let base: URL;
let token: string;

beforeAll(async () => {
  const [port, dbPort] = [await freePort(), await freePort()];
  database = await freshDatabase(`runway_test_fuzz_${process.pid}`, dbPort);
  base = new URL(`http://127.0.0.1:${port}`);
  const env = runwayEnv({ ...database.env, RUNWAY_EXTERNAL_URL: base.origin, RUNWAY_DEMO: 'true' });
  const made = cli(['create-token', '--username', 'root', '--scopes', 'api,sudo', '--name', 'fuzz'], env);
  expect(made.status).toBe(0);
  token = made.stdout.trim();
  server = await startServer(port, env);
}, 420_000);

afterAll(async () => {
  if (server) await stopServer(server);
  await database?.drop();
});

describe('[FUZZ] /api/v4 under malformed requests', () => {
  it(`answers ${REQUESTS} generated hostile requests without a 5xx, every error in JSON`, async () => {
    const routes = routeFiles();
    expect(routes.length).toBeGreaterThan(40);
    const r = prng(SEED);
    const requests = Array.from({ length: REQUESTS }, () => generate(r, routes, token));
    const { failures, statuses } = await fire(requests);
    expect(failures.slice(0, 25), `${failures.length} failures`).toEqual([]);
    // The run reached the handlers, not only the edge: successes and many kinds of refusal.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect([400, 401, 403, 404].every((s) => (statuses.get(s) ?? 0) > 0)).toBe(true);
    // Root still works afterwards: the fuzzer did not lock itself out.
    const after = await fetch(`${base.origin}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token } });
    expect(after.status).toBe(200);
    expect(server.exitCode).toBeNull();
  }, 150_000);
});

/** Values around the int4/int8 limits and integer look-alikes, as JSON literals (a query sends their text). */
const INTEGER_EDGES = ['2147483648', '2147483647', '9223372036854775808', '-1', '1e3', '"1.0"'];
const OUT_OF_RANGE = new Set(['2147483648', '9223372036854775808']);
/** The largest id an integer column holds: no demo row has it, so it is the answer of "no such row". */
const NO_SUCH_ROW = '2147483647';

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; format?: string; enum?: unknown[]; items?: { enum?: unknown[] } };
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, OpenApiParameter['schema']>; required?: string[] } }> };
}

/** A value the declaration accepts, so an operation's required parameters do not stop it before the one tried. */
function plausible(schema: OpenApiParameter['schema'] = {}): unknown {
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return schema.items?.enum?.length ? [schema.items.enum[0]] : ['x'];
  if (schema.type === 'object') return {};
  return 'fuzz';
}

interface Probe extends Generated {
  /** The operation and the segment or parameter tried: its edge values are compared with each other. */
  key: string;
  where: 'path' | 'int32' | 'param';
  edge: string;
}

/** One request per edge value for every path segment and every integer parameter of every operation. */
function integerProbes(doc: { paths: Record<string, Record<string, OpenApiOperation>> }, groupId: string): Probe[] {
  const out: Probe[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [lower, op] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      const required: Record<string, unknown> = {};
      for (const p of query) if (p.required) required[p.name] = plausible(p.schema);
      for (const name of bodySchema?.required ?? []) required[name] = plausible(bodySchema?.properties?.[name]);
      const pathNames = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const integers = [...query.map((p) => [p.name, p.schema] as const), ...Object.entries(bodySchema?.properties ?? {})].filter(
        ([, schema]) => schema?.type === 'integer',
      );
      const request = (segments: Record<string, string>, params: Record<string, string>, where: Probe['where'], edge: string) => {
        // Other segments name real demo rows (1 is root and a project; a group's id is looked up, namespace 1
        // being root's own), so the request reaches the lookup tried.
        const real = (name: string) => (name === 'id' && template.startsWith('/groups/') ? groupId : '1');
        const path = `/api/v4${template.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? real(name))}`;
        const headers: Record<string, string> = { 'PRIVATE-TOKEN': token };
        let body: Buffer | undefined;
        let search = '';
        if (inBody) {
          headers['Content-Type'] = 'application/json';
          // Written by hand: JSON.stringify cannot write 9223372036854775808 as a number.
          const fields = [...Object.entries(required).map(([k, v]) => [k, JSON.stringify(v)]), ...Object.entries(params)].filter(
            ([k], i, all) => all.findLastIndex(([other]) => other === k) === i,
          );
          body = Buffer.from(`{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
        } else {
          const qs = new URLSearchParams(Object.entries(required).map(([k, v]) => [k, String(v)]));
          for (const [k, v] of Object.entries(params)) qs.set(k, v.replace(/^"|"$/g, ''));
          search = qs.size ? `?${qs}` : '';
        }
        const key = `${method} ${template} ${Object.keys({ ...segments, ...params }).join()}`;
        out.push({ method, path: path + search, headers, body, key, where, edge, label: `${method} ${path}${search} ${body?.toString() ?? ''}` });
      };
      for (const edge of INTEGER_EDGES) {
        const segment = edge.replace(/^"|"$/g, '');
        for (const name of pathNames) request({ [name]: segment }, {}, 'path', edge);
        // int32: a column's value (page numbers and values the domain bounds with its own message are not).
        for (const [name, schema] of integers) request({}, { [name]: edge }, schema?.format === 'int32' ? 'int32' : 'param', edge);
      }
    }
  }
  return out;
}

describe('[FUZZ] integer bounds on every route', () => {
  it('answers 2^31, 2^31-1, 2^63, -1, 1e3 and "1.0" in every path segment and integer parameter without a 5xx', async () => {
    const doc = (await (await fetch(`${base.origin}/api/v4/openapi.json`)).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
    const groups = await fetch(`${base.origin}/api/v4/groups?per_page=1&all_available=true`, { headers: { 'PRIVATE-TOKEN': token } });
    const [group] = (await groups.json()) as Array<{ id: number }>;
    const probes = integerProbes(doc, String(group.id));
    expect(probes.length).toBeGreaterThan(500);
    const failures: string[] = [];
    const statusOf = new Map<string, number>();
    await sendAll(probes, (g, answer) => {
      if (answer instanceof Error) return void failures.push(`${g.label}: no answer (${answer.message})`);
      statusOf.set(`${g.key} ${g.edge}`, answer.status);
      if (answer.status >= 500) failures.push(`${g.label}: ${answer.status} ${answer.text.slice(0, 200)}`);
      // A column's value out of its range in a query or body is refused as Grape refuses a bad parameter.
      else if (OUT_OF_RANGE.has(g.edge) && g.where === 'int32' && answer.status !== 400)
        failures.push(`${g.label}: ${answer.status} ${answer.text.slice(0, 200)}`);
    });
    // In the path, an id past the column is an id no row has: the same answer as the largest id that none has.
    for (const g of probes.filter((p) => p.where === 'path' && OUT_OF_RANGE.has(p.edge))) {
      const expected = statusOf.get(`${g.key} ${NO_SUCH_ROW}`);
      if (statusOf.get(`${g.key} ${g.edge}`) !== expected)
        failures.push(`${g.label}: ${statusOf.get(`${g.key} ${g.edge}`)}, where ${NO_SUCH_ROW} answers ${expected}`);
    }
    expect(failures.slice(0, 40), `${failures.length} failures of ${probes.length}`).toEqual([]);
    expect(server.exitCode).toBeNull();
  }, 240_000);
});

// next-auth's endpoints: every action and a few that do not exist, every method, hostile callbackUrl,
// error and cookie values, and bodies of every kind (sometimes with a real CSRF token, so credentials reach
// the password check). The same assertions: no 5xx, every refusal in JSON (the throttle's 429 is GitLab's
// text/plain and is allowed).
const AUTH_PATHS = [
  'csrf',
  'session',
  'providers',
  'signin',
  'signin/credentials',
  'callback/credentials',
  'callback/other',
  'callback',
  'signout',
  'error',
  'error/CredentialsSignin',
  'error/%0d%0a',
  'verify-request',
  '_log',
  'nothing',
  'signin/%ff',
  'signin/%E2%9C%93',
  '%2e%2e',
  'a'.repeat(300),
];
const CALLBACK_URLS = [
  '/admin/runners',
  'abc',
  '::',
  '/.//evil.example',
  '//evil.example',
  '/%2F/evil.example',
  'javascript:alert(1)',
  'http://[',
  'http://127.0.0.1:1/x',
  '%ff',
  '\u0000',
  '\r\nSet-Cookie: a=1',
  'x'.repeat(5000),
];
const AUTH_COOKIES = [
  'next-auth.callback-url=abc',
  'next-auth.callback-url=%2F.%2F%2Fevil.example',
  'next-auth.callback-url=%ff',
  'next-auth.csrf-token=%ff',
  'next-auth.csrf-token=a%7Cb',
  'next-auth.session-token=abc',
  'next-auth.session-token=%',
  '__Secure-next-auth.callback-url=::',
  'a=b; =; ;;',
];

/** `fields` as a body of a random kind (form, JSON, bad JSON, deep, not an object, multipart, text); sets its content type. */
function hostileBody(r: Rng, fields: Record<string, unknown>, headers: Record<string, string>): { kind: string; body: Buffer } {
  const formBody = Object.entries(fields)
    .map(([k, v]) => `${k}=${formEncode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
    .join('&');
  const bodies: Record<string, () => [string, string | Buffer]> = {
    form: () => ['application/x-www-form-urlencoded', formBody],
    json: () => [r.pick(['application/json', 'application/json; charset=utf-8']), JSON.stringify(fields)],
    badjson: () => ['application/json', Buffer.from(r.pick(BAD_JSON), 'latin1')],
    deep: () => ['application/json', deepJson(5000)],
    array: () => ['application/json', JSON.stringify(r.pick([[fields], 'string', 42, null]))],
    multipart: () => ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nroot\r\n--x--\r\n'],
    text: () => ['text/plain', 'username=root'],
  };
  const kind = r.pick(['form', 'form', 'json', 'json', 'badjson', 'deep', 'array', 'multipart', 'text']);
  const [type, content] = bodies[kind]();
  headers['Content-Type'] = type;
  return { kind, body: Buffer.from(content) };
}

function generateAuth(r: Rng, csrf: { token: string; cookie: string }): Generated {
  const method = r.pick(['GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
  let p = `/api/auth/${r.pick(AUTH_PATHS)}`;
  const query: string[] = [];
  if (r.chance(0.4)) query.push(`callbackUrl=${formEncode(r.pick(CALLBACK_URLS))}`);
  if (r.chance(0.15)) query.push(`error=${r.pick(['CredentialsSignin', 'x%0d%0ay', '%ff', 'e'.repeat(200), '%C3%A9'])}`);
  if (r.chance(0.1)) query.push(`${r.pick(PARAM_NAMES)}[]=${r.pick(QUERY_VALUES)}`);
  if (query.length) p += `?${query.join('&')}`;
  const headers: Record<string, string> = {};
  const cookies = r.chance(0.5) ? [csrf.cookie] : [];
  if (r.chance(0.3)) cookies.push(r.pick(AUTH_COOKIES));
  if (cookies.length) headers.Cookie = cookies.join('; ');
  let body: Buffer | undefined;
  let kind = 'none';
  if (method === 'POST' && r.chance(0.9)) {
    const fields: Record<string, unknown> = {
      csrfToken: r.chance(0.6) ? csrf.token : jsonValue(r),
      username: r.pick(['root', 'nobody-here', '', ' ', 'a'.repeat(3000), jsonValue(r)]),
      password: r.pick(['wrong-password', '', jsonValue(r)]),
    };
    if (r.chance(0.5)) fields.callbackUrl = r.chance(0.7) ? r.pick(CALLBACK_URLS) : jsonValue(r);
    if (r.chance(0.6)) fields.json = r.pick(['true', true, 1, null]);
    ({ kind, body } = hostileBody(r, fields, headers));
  }
  return { method, path: p, headers, body, label: `${method} ${p.slice(0, 200)} [${kind}]` };
}

describe('[FUZZ] /api/auth/* under malformed requests', () => {
  it(`answers ${AUTH_REQUESTS} generated hostile requests to next-auth without a 5xx, every refusal in JSON`, async () => {
    const csrfRes = await fetch(`${base.origin}/api/auth/csrf`);
    const csrf = {
      token: ((await csrfRes.json()) as { csrfToken: string }).csrfToken,
      cookie: csrfRes.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    };
    const r = prng(SEED + 1);
    const requests = Array.from({ length: AUTH_REQUESTS }, () => generateAuth(r, csrf));
    // The sign-in throttle's 429 is GitLab's text/plain "Retry later".
    const { failures, statuses } = await fire(requests, [429]);
    expect(failures.slice(0, 25), `${failures.length} failures`).toEqual([]);
    // The run reached next-auth, not only the checks before it: answers, redirects and refusals.
    expect(
      [200, 302, 400, 405].every((s) => (statuses.get(s) ?? 0) > 0),
      JSON.stringify([...statuses]),
    ).toBe(true);
    expect(server.exitCode).toBeNull();
  }, 150_000);
});

// /oauth/* (no OAuth provider: Doorkeeper's JSON errors): every path Runway answers and some it does not,
// every method, hostile parameters, credentials and bodies. Never a 5xx, a redirect or anything but JSON.
const OAUTH_PATHS = [
  'token',
  'token/info',
  'revoke',
  'authorize',
  'userinfo',
  'introspect',
  'applications',
  'authorize_device',
  '',
  'token/%ff',
  '%2e%2e',
  'a'.repeat(300),
];

function generateOauth(r: Rng): Generated {
  const method = r.pick(['GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
  let p = `/oauth/${r.pick(OAUTH_PATHS)}`;
  if (r.chance(0.3)) p += `?${r.pick(['client_id', 'grant_type', 'redirect_uri', 'response_type', ...PARAM_NAMES])}=${r.pick(QUERY_VALUES)}`;
  const headers: Record<string, string> = {};
  if (r.chance(0.4))
    headers.Authorization = r.pick([
      'Bearer abc',
      `Bearer ${'x'.repeat(5000)}`,
      'Basic %%%',
      `Basic ${Buffer.from('id:secret').toString('base64')}`,
      'Basic',
      'Bearer',
    ]);
  let body: Buffer | undefined;
  let kind = 'none';
  if (method !== 'GET' && method !== 'HEAD' && r.chance(0.9)) {
    const fields: Record<string, unknown> = {
      grant_type: r.pick(['password', 'authorization_code', 'refresh_token', 'client_credentials', '', jsonValue(r)]),
      username: r.pick(['root', '', jsonValue(r)]),
      password: r.pick(['wrong-password', jsonValue(r)]),
    };
    if (r.chance(0.5)) fields.client_id = r.chance(0.7) ? r.pick(['abc', '', '%00']) : jsonValue(r);
    if (r.chance(0.5)) fields.token = r.chance(0.7) ? r.pick(['abc', '', 'glpat-xxxxxxxxxxxxxxxxxxxx']) : jsonValue(r);
    if (r.chance(0.3)) fields.redirect_uri = r.pick(CALLBACK_URLS);
    ({ kind, body } = hostileBody(r, fields, headers));
  }
  return { method, path: p, headers, body, label: `${method} ${p.slice(0, 200)} [${kind}]` };
}

describe('[FUZZ] /oauth/* under malformed requests', () => {
  it(`answers ${OAUTH_REQUESTS} generated hostile requests in JSON, never a 5xx or a redirect`, async () => {
    const r = prng(SEED + 2);
    const requests = Array.from({ length: OAUTH_REQUESTS }, () => generateOauth(r));
    const { failures, statuses } = await fire(requests, [], { jsonOnly: true });
    expect(failures.slice(0, 25), `${failures.length} failures`).toEqual([]);
    // The run reached the handlers: success (revoke), each kind of refusal.
    expect(
      [200, 400, 401, 404].every((s) => (statuses.get(s) ?? 0) > 0),
      JSON.stringify([...statuses]),
    ).toBe(true);
    expect(server.exitCode).toBeNull();
  }, 150_000);
});
