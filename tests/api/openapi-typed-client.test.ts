// Typed clients compile: TypeScript types generated with openapi-typescript from the document the server
// serves, and a small client written against them, type-checked strictly. The client leans on what code
// generators need from the document: integer ids, a project id as integer or path, date-time fields, the
// keyset parameters, every error status, the event stream's events. A second client that misuses the types
// must not compile, so the check can fail.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api';

let dir: string;

const CLIENT = `
import type { components, paths } from './schema';

type Json<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'delete', S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

type Runners = Json<'/runners/all', 'get', 200>;
type RunnerQuery = NonNullable<paths['/runners/all']['get']['parameters']['query']>;

export async function allRunnerIds(base: string, token: string): Promise<number[]> {
  const ids: number[] = [];
  const query: RunnerQuery = { pagination: 'keyset', order_by: 'id', sort: 'desc', per_page: 100, id_before: 2147483647 };
  let next: string | undefined = base + '/runners/all?' + new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  while (next) {
    const res = await fetch(next, { headers: { 'PRIVATE-TOKEN': token } });
    if (res.status === 429) await new Promise((r) => setTimeout(r, Number(res.headers.get('Retry-After')) * 1000));
    const page = (await res.json()) as Runners;
    for (const runner of page) ids.push(runner.id);
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get('Link') ?? '')?.[1];
  }
  return ids;
}

type ProjectId = paths['/projects/{id}/runners']['get']['parameters']['path']['id'];
export const byId: ProjectId = 42;
export const byPath: ProjectId = 'group/project';

export function created(r: Runners[number]): Date | null {
  return r.created_at === null ? null : new Date(r.created_at);
}

export const conflict: Json<'/users', 'post', 409> = { message: 'Email has already been taken' };
export const unavailable: Json<'/runners/all', 'get', 503> = { message: '503 Service Unavailable' };
export const tooLarge: Json<'/users', 'post', 413> = { message: '413 Request Entity Too Large' };
export const keysetOnly: Json<'/runners/all', 'get', 405> = { error: 'Keyset pagination is not yet available for this type of request' };
export type Throttled = paths['/runners/all']['get']['responses'][429]['content']['text/plain'];

export function onEvent(e: components['schemas']['RunnerStreamEvent']): number | 'all' {
  if (e.event === 'resync') return 'all';
  const action: 'created' | 'updated' | 'deleted' = e.data.action;
  return action === 'deleted' ? -e.data.id : e.data.id;
}

export const jobsKeyset: NonNullable<paths['/runners/{id}/jobs']['get']['parameters']['query']>['pagination'] = 'keyset';
export const runnerId: paths['/runners/{id}']['get']['parameters']['path']['id'] = 7;
`;

// Each line must be refused by the compiler.
const MISUSES = [
  `export const a: paths['/runners/{id}']['get']['parameters']['path']['id'] = '7';`,
  `export const b: NonNullable<paths['/runners/all']['get']['parameters']['query']>['pagination'] = 'cursor';`,
  `export const c: NonNullable<paths['/runners/all']['get']['parameters']['query']>['id_after'] = 'x';`,
  `export const d: paths['/projects/{id}/runners']['get']['parameters']['path']['id'] = true;`,
  `export const e: components['schemas']['RunnerEvent']['action'] = 'renamed';`,
  `export const f: paths['/runners/all']['get']['responses'][200]['content']['application/json'][number]['id'] = 'x';`,
];

function typeCheck(files: Record<string, string>): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((f) => path.join(dir, f)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      skipLibCheck: true,
      types: [],
    },
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('[OPENAPI] typed clients from the served document', () => {
  let schema: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'runway-openapi-client-'));
    const res = await fetch(`${baseUrl()}/api/v4/openapi.json`);
    expect(res.status).toBe(200);
    schema = astToString(await openapiTS((await res.json()) as never));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates types in which ids are numbers and a project id is a number or a path', () => {
    expect(schema).toContain('export interface paths');
    expect(schema).toMatch(/RunnerStreamEvent:/);
    expect(schema).toMatch(/id: number \| string;/);
  });

  it('compiles a client written against them, strictly', { timeout: 60_000 }, () => {
    expect(typeCheck({ 'schema.ts': schema, 'client.ts': CLIENT })).toEqual([]);
  });

  it('refuses a client that misuses them (the check can fail)', { timeout: 60_000 }, () => {
    for (const misuse of MISUSES) {
      const errors = typeCheck({ 'schema.ts': schema, 'misuse.ts': `import type { components, paths } from './schema';\n${misuse}\n` });
      expect(errors.length, misuse).toBeGreaterThan(0);
      expect(
        errors.every((e) => e.startsWith('misuse.ts: ')),
        errors.join('\n'),
      ).toBe(true);
    }
  });
});
