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

const root = path.resolve(import.meta.dirname, '..', '..');
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
const doc = () => openApiDocument('https://runway.example.com') as unknown as Doc;

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
    const declared = declaredOperations().map((o) => `${o.method} ${o.path}`);
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
});
