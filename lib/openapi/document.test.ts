// The OpenAPI document: complete (every route file, every method), current (the generated inputs match
// the sources), valid OpenAPI 3.1, and built from the declarations (a parameter's rules show in it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { declaredOperations, openApiDocument } from './document';
import { entitySchemas } from './entity-schemas';
import { operations } from './operations';
import { routeFiles, routeIndexSource } from './route-files';
import * as ownRouteModule from '@/app/api/v4/openapi.json/route';

const root = path.resolve(import.meta.dirname, '..', '..');
// The document's own route hands itself in, as it does when served (the route index leaves it out).
const ownRoute = { path: '/openapi.json', module: ownRouteModule };
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: Array<{ name: string; schema: Record<string, unknown>; description?: string }>;
        requestBody?: unknown;
        responses: Record<string, unknown>;
        'x-runway-extension'?: boolean;
      }
    >
  >;
};
const doc = () => openApiDocument('https://runway.example.com', ownRoute) as unknown as Doc;
// The document is JSON walked in every direction by these checks: typing each level would say nothing more.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;

/** Every [property name, schema] of the entity schemas, nested objects and list items included. */
function properties(schema: Schema, out: Array<[string, Schema]> = []): Array<[string, Schema]> {
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    out.push([name, prop]);
    properties(prop, out);
  }
  for (const key of ['items', 'additionalProperties']) if (schema[key] && typeof schema[key] === 'object') properties(schema[key], out);
  for (const sub of schema.anyOf ?? []) properties(sub, out);
  return out;
}
const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

describe('OpenAPI document', () => {
  it('lists every route file under app/api/v4 (the generated index is current)', () => {
    expect(readFileSync(path.join(root, 'lib/openapi/route-index.generated.ts'), 'utf8'), 'run `npm run openapi:generate`').toBe(routeIndexSource(root));
    const documented = new Set(Object.keys(doc().paths));
    for (const file of routeFiles(root)) expect(documented, `${file.folder}/route.ts`).toContain(file.path);
  });

  it('describes the entities as the entity functions return them (the generated schemas are current)', { timeout: 60_000 }, () => {
    const stored = JSON.parse(readFileSync(path.join(root, 'lib/openapi/entities.generated.json'), 'utf8'));
    expect(stored, 'run `npm run openapi:generate`').toEqual(entitySchemas(root));
  });

  it('has an operations entry for every method a route serves, and none for a method no route serves', () => {
    const declared = declaredOperations(ownRoute).map((o) => `${o.method} ${o.path}`);
    expect(declared.length).toBeGreaterThan(80);
    expect(Object.keys(operations).sort()).toEqual([...declared].sort());
  });

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc()) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('takes parameters from the endpoint declarations, with their coercions and values', () => {
    const list = doc().paths['/runners/all'].get;
    const byName = Object.fromEntries(list.parameters.map((p) => [p.name, p]));
    expect(byName.type.schema).toEqual({ type: 'string', enum: ['instance_type', 'group_type', 'project_type'] });
    expect(byName.tag_list.schema).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(byName.tag_list.description).toMatch(/comma-separated/);
    expect(byName.paused.schema).toEqual({ type: 'boolean' });
    expect(byName.search['x-runway-extension' as never]).toBe(true);
    expect(byName.page).toBeDefined();
    const update = doc().paths['/runners/{id}'].put;
    expect(update.requestBody).toBeDefined();
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
  });

  it('marks Runway extensions', () => {
    expect(doc().paths['/projects/{id}/runners/assignable'].get['x-runway-extension']).toBe(true);
    expect(doc().paths['/user/sessions'].get['x-runway-extension']).toBe(true);
    expect(doc().paths['/runners/all'].get['x-runway-extension']).toBeUndefined();
  });

  it('names the token scopes each user operation accepts, as the endpoint wrapper checks them', () => {
    const scopes = (path: string, method: string) => (doc().paths[path][method] as Record<string, unknown>)['x-runway-scopes'];
    expect(scopes('/runners/all', 'get')).toEqual(['api', 'read_api']);
    expect(scopes('/runners/{id}', 'put')).toEqual(['manage_runner', 'api']);
    expect(scopes('/user', 'get')).toEqual(['read_user', 'api', 'read_api']);
    // Runner tokens carry no scopes.
    expect(scopes('/runners/verify', 'post')).toBeUndefined();
  });

  it('types ids as integers and timestamps as date-times (dates where the entity cuts to the day)', () => {
    const all = Object.values((openApiDocument('https://runway.example.com', ownRoute) as Schema).components.schemas as Record<string, Schema>).flatMap((s) =>
      properties(s),
    );
    const ids = all.filter(([name]) => /^(id|iid)$|_id$/.test(name));
    expect(ids.length).toBeGreaterThan(100);
    for (const [name, schema] of ids) expect(types(schema), name).not.toContain('number');
    const stamps = all.filter(([name, schema]) => /_(at|date)$/.test(name) && types(schema).includes('string'));
    expect(stamps.length).toBeGreaterThan(50);
    for (const [name, schema] of stamps) expect(['date-time', 'date'], name).toContain(schema.format);
    const tokenSchema = (openApiDocument('https://runway.example.com', ownRoute) as Schema).components.schemas.PersonalAccessToken;
    expect(tokenSchema.properties.expires_at.format).toBe('date');
    expect(tokenSchema.properties.created_at.format).toBe('date-time');
  });

  it('types path ids: integers, or an integer or URL-encoded path for projects, groups and namespaces', () => {
    const param = (path: string, method: string, name: string) => doc().paths[path][method].parameters.find((p) => p.name === name)!;
    expect(param('/runners/{id}', 'get', 'id').schema).toMatchObject({ type: 'integer' });
    expect(param('/users/{id}', 'get', 'id').schema).toEqual({ type: 'integer' });
    expect((param('/users/{id}/projects', 'get', 'id').schema as Schema).oneOf).toHaveLength(2);
    expect(param('/projects/{id}/runners/{runner_id}', 'delete', 'runner_id').schema).toMatchObject({ type: 'integer' });
    expect(param('/projects/{id}/merge_requests/{merge_request_iid}', 'get', 'merge_request_iid').schema).toMatchObject({ type: 'integer' });
    for (const path of ['/projects/{id}', '/groups/{id}', '/namespaces/{id}']) {
      const schema = param(path, 'get', 'id').schema as Schema;
      expect(schema.oneOf.map((s: Schema) => s.type)).toEqual(['integer', 'string']);
      const pattern = new RegExp(schema.oneOf[1].pattern);
      expect(pattern.test('group/sub/project')).toBe(true);
      expect(pattern.test('42')).toBe(false);
    }
    expect(param('/projects/{id}/repository/branches/{branch}', 'get', 'branch').schema).toEqual({ type: 'string' });
    expect(param('/user/sessions/{id}', 'delete', 'id').schema).toEqual({ type: 'string' });
  });

  it('lists the statuses operations answer: 429 and 503 everywhere, 413 with a body, 405/409/412/422 where thrown', () => {
    for (const [path, methods] of Object.entries(doc().paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['429', '503']));
        if (method !== 'get') expect(Object.keys(op.responses), `${method} ${path}`).toContain('413');
      }
    }
    expect(Object.keys(doc().paths['/users'].post.responses)).toContain('409');
    expect(Object.keys(doc().paths['/projects/{id}/merge_requests'].post.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(Object.keys(doc().paths['/runners/{id}'].delete.responses)).toContain('412');
    expect(Object.keys(doc().paths['/runners/all'].get.responses)).toContain('405');
    expect(doc().paths['/runners/all'].get.responses['429']).toMatchObject({ headers: { 'Retry-After': {} }, content: { 'text/plain': {} } });
  });

  it("documents keyset pagination on the runner lists and the cursor of a runner's jobs", () => {
    for (const path of ['/runners', '/runners/all', '/projects/{id}/runners', '/groups/{id}/runners']) {
      const byName = Object.fromEntries(doc().paths[path].get.parameters.map((p) => [p.name, p]));
      expect(byName.pagination.schema, path).toEqual({ type: 'string', enum: ['offset', 'keyset'] });
      expect(byName.pagination.description).toMatch(/rel="next"/);
      expect(byName.id_after.schema).toMatchObject({ type: 'integer', format: 'int32' });
      expect(byName.id_before.schema).toMatchObject({ type: 'integer', format: 'int32' });
      expect(byName.id_after['x-runway-extension' as never]).toBe(true);
    }
    const jobs = Object.fromEntries(doc().paths['/runners/{id}/jobs'].get.parameters.map((p) => [p.name, p]));
    expect(jobs.pagination.schema).toEqual({ type: 'string', enum: ['offset', 'keyset'] });
    expect(jobs.cursor).toBeDefined();
  });

  it("declares every credential the code accepts, and the event stream's events", () => {
    const full = openApiDocument('https://runway.example.com', ownRoute) as Schema;
    const schemes = full.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['accessTokenQuery', 'bearer', 'privateToken', 'privateTokenQuery', 'runnerToken', 'session', 'sudo']);
    expect(schemes.privateTokenQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'private_token' });
    expect(schemes.sudo).toMatchObject({ in: 'header', name: 'Sudo' });
    expect(schemes.runnerToken).toMatchObject({ in: 'header', name: 'RUNNER-TOKEN' });
    expect(full.paths['/runners/all'].get.security).toContainEqual({ privateToken: [], sudo: [] });
    expect(full.paths['/runners/verify'].post.security).toEqual([{ runnerToken: [] }, {}]);
    const stream = full.paths['/runners/events'].get.responses['200'].content['text/event-stream'].schema;
    expect(stream).toEqual({ type: 'array', items: { $ref: '#/components/schemas/RunnerStreamEvent' } });
    expect(full.components.schemas.RunnerEvent.properties.action.enum).toEqual(['created', 'updated', 'deleted']);
  });
});
