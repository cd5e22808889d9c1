// The API reference's reading of the OpenAPI document, on the real document (lib/openapi builds it from the
// route declarations) and on small hand-made ones for the edge cases.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/openapi/document';
import * as ownRouteModule from '@/app/api/v4/openapi.json/route';
import {
  authOf,
  fieldsOf,
  filterTags,
  objectShapes,
  parseBody,
  readReference,
  resolve,
  tryItUrl,
  typeLabel,
  type ApiOperation,
  type OpenApiDocument,
} from './openapi-reference';

const real = () => openApiDocument('https://runway.example.com', { path: '/openapi.json', module: ownRouteModule }) as unknown as OpenApiDocument;
const find = (doc: OpenApiDocument, method: string, path: string): ApiOperation =>
  readReference(doc)
    .flatMap((t) => t.operations)
    .find((op) => op.method === method && op.path === path)!;

describe('the API reference reads the OpenAPI document', () => {
  it('groups every operation under its tag, none lost', () => {
    const doc = real();
    const tags = readReference(doc);
    const count = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(tags.flatMap((t) => t.operations)).toHaveLength(count);
    expect(tags.map((t) => t.name)).toEqual(expect.arrayContaining(['Runners', 'Merge requests', 'Users']));
    expect(tags.find((t) => t.name === 'Merge requests')!.anchor).toBe('tag-merge-requests');
  });

  it('reads extensions, parameters, scopes and authentication of an operation', () => {
    const doc = real();
    const assignable = find(doc, 'GET', '/projects/{id}/runners/assignable');
    expect(assignable.extension).toBe(true);
    const list = find(doc, 'GET', '/runners/all');
    expect(list.extension).toBe(false);
    expect(list.scopes).toEqual(['api', 'read_api']);
    expect(list.auth.need).toBe('required');
    expect(list.auth.accepts).toEqual(expect.arrayContaining(['PRIVATE-TOKEN header', 'Authorization: Bearer header', "the dashboard's session"]));
    const search = list.parameters.find((p) => p.name === 'search')!;
    expect(search).toMatchObject({ in: 'query', required: false, extension: true });
    const type = list.parameters.find((p) => p.name === 'type')!;
    expect(type.schema.enum).toEqual(['instance_type', 'group_type', 'project_type']);
    expect(find(doc, 'GET', '/openapi.json').auth.need).toBe('optional');
    expect(find(doc, 'POST', '/runners/verify').auth.accepts).toEqual(['RUNNER-TOKEN header']);
  });

  it('resolves a response entity into its fields, nested objects reachable', () => {
    const doc = real();
    const ok = find(doc, 'GET', '/runners/{id}').responses.find((r) => r.status === '200')!;
    const [runner] = objectShapes(doc, ok.schema!);
    const fields = fieldsOf(doc, runner);
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['id', 'description', 'tag_list', 'upgrade_status']));
    expect(fields.find((f) => f.name === 'id')).toMatchObject({ type: 'integer', required: true });
    expect(fields.find((f) => f.name === 'tag_list')!.type).toBe('array of string');
    // A list's items and a $ref are looked through; the Error schema's alternatives are two shapes.
    const listOk = find(doc, 'GET', '/runners/all').responses.find((r) => r.status === '200')!;
    expect(typeLabel(listOk.schema!)).toMatch(/^array of /);
    expect(objectShapes(doc, listOk.schema!)).toHaveLength(1);
    const notFound = find(doc, 'GET', '/runners/{id}').responses.find((r) => r.status === '404')!;
    expect(objectShapes(doc, notFound.schema!)).toHaveLength(2);
  });

  it('says types in words', () => {
    expect(typeLabel({ type: ['integer', 'null'] })).toBe('integer or null');
    expect(typeLabel({ type: 'string', format: 'date-time' })).toBe('string (date-time)');
    expect(typeLabel({ anyOf: [{ $ref: '#/components/schemas/Runner' }, { type: 'null' }] })).toBe('Runner or null');
    expect(typeLabel({ type: 'array', items: { type: 'string' } })).toBe('array of string');
    expect(typeLabel({ const: 'runner' })).toBe('"runner"');
  });

  it('follows references, keeping the referring description', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: '', version: '' },
      paths: {},
      components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { type: 'object', description: 'b' } } },
    };
    expect(resolve(doc, { $ref: '#/components/schemas/A', description: 'mine' })).toMatchObject({ type: 'object', description: 'mine' });
    // A reference to nothing stays as it is rather than looping.
    expect(resolve(doc, { $ref: '#/components/schemas/Missing' })).toEqual({ $ref: '#/components/schemas/Missing' });
  });

  it('filters by every word over path, summary and method, dropping tags left empty', () => {
    const tags = readReference(real());
    const only = filterTags(tags, 'get  /version').flatMap((t) => t.operations.map((op) => `${op.method} ${op.path}`));
    expect(only).toEqual(['GET /runners/fleet/versions', 'GET /version']);
    expect(filterTags(tags, 'maintainer may assign').flatMap((t) => t.operations.map((op) => op.path))).toEqual(['/projects/{id}/runners/assignable']);
    expect(filterTags(tags, 'no such endpoint anywhere')).toEqual([]);
    expect(filterTags(tags, '  ')).toBe(tags);
  });

  it('puts in path parameters (encoded) and the query parameters given, arrays as name[]', () => {
    const op = find(real(), 'GET', '/projects/{id}/runners');
    expect(tryItUrl(op, {})).toBeNull();
    expect(tryItUrl(op, { id: 'group/project', type: 'project_type', tag_list: 'a, b', page: '' })).toBe(
      '/api/v4/projects/group%2Fproject/runners?type=project_type&tag_list%5B%5D=a&tag_list%5B%5D=b',
    );
  });

  it('reads authentication alternatives in words', () => {
    const schemes = { t: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' }, sudo: { type: 'apiKey', in: 'header', name: 'Sudo' } };
    expect(authOf([{}], schemes)).toEqual({ need: 'none', accepts: [] });
    expect(authOf([{}, { t: [] }, { t: [], sudo: [] }], schemes)).toEqual({
      need: 'optional',
      accepts: ['PRIVATE-TOKEN header', "Sudo header (with an admin's token)"],
    });
  });

  it('checks the JSON body of Try it', () => {
    expect(parseBody('')).toEqual({ ok: true, body: undefined });
    expect(parseBody('{"a": 1}')).toEqual({ ok: true, body: '{"a":1}' });
    expect(parseBody('{a')).toMatchObject({ ok: false, message: expect.stringMatching(/^The body is not JSON/) });
  });
});
