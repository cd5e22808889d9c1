import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { containsNul, MAX_PARAM_DEPTH, mergeParams, nestedDeeperThan, parseBody, parseQuery, readBody } from './input';

const post = (body: BodyInit | null, contentType?: string) =>
  new Request('http://runway.test/api/v4/x', { method: 'POST', body, headers: contentType ? { 'Content-Type': contentType } : {} });

describe('[PLATFORM] input: query strings and bodies as Rack reads them', () => {
  it('parses flat, bracketed-array and nested query keys', () => {
    expect(parseQuery(new URLSearchParams('a=1&b[]=x&b[]=y&info[name]=n&info[size]=2'))).toEqual({
      a: '1',
      b: ['x', 'y'],
      info: { name: 'n', size: '2' },
    });
    expect(parseQuery(new URLSearchParams('a=1&a=2'))).toEqual({ a: '2' });
  });

  it('reads JSON objects; null, arrays and empty bodies mean no params', async () => {
    expect(await parseBody(post('{"a":1,"b":[1,2]}', 'application/json'))).toEqual({ a: 1, b: [1, 2] });
    expect(await parseBody(post('{"a":1}', 'application/vnd.api+json; charset=utf-8'))).toEqual({ a: 1 });
    expect(await parseBody(post('null', 'application/json'))).toEqual({});
    expect(await parseBody(post('[1,2]', 'application/json'))).toEqual({});
    expect(await parseBody(post('   ', 'application/json'))).toEqual({});
  });

  it('answers 400 for malformed JSON', async () => {
    const err = await parseBody(post('{"a":', 'application/json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
  });

  it('reads urlencoded and multipart bodies, with bracketed keys', async () => {
    expect(await parseBody(post('a=1&s[]=x&s[]=y', 'application/x-www-form-urlencoded'))).toEqual({ a: '1', s: ['x', 'y'] });
    const form = new FormData();
    form.append('name', 'n');
    form.append('tag_list[]', 'a');
    form.append('tag_list[]', 'b');
    form.append('file', new Blob(['data']), 'upload.txt');
    expect(await parseBody(new Request('http://runway.test/x', { method: 'POST', body: form }))).toEqual({
      name: 'n',
      tag_list: ['a', 'b'],
      file: 'upload.txt',
    });
  });

  it('ignores bodies of GET and unknown content types', async () => {
    expect(await parseBody(new Request('http://runway.test/x?a=1'))).toEqual({});
    expect(await parseBody(post('a=1', 'text/plain'))).toEqual({});
  });

  it('merges query, then body, then path parameters (path wins)', () => {
    expect(mergeParams({ a: 'q', b: 'q', id: 'q' }, { b: 'body', id: 'body' }, { id: '7' })).toEqual({ a: 'q', b: 'body', id: '7' });
  });
});

describe('[PLATFORM] input: hostile shapes', () => {
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof ApiError ? e.status : e),
    );

  it('refuses JSON nested past the depth limit with 400, and accepts it at the limit', async () => {
    const deep = (n: number) => '['.repeat(n - 1) + '{"a":1}' + ']'.repeat(n - 1);
    expect(await status(parseBody(post(`{"a":${deep(10_000)}}`, 'application/json')))).toBe(400);
    expect(await status(parseBody(post(`{"a":${deep(MAX_PARAM_DEPTH - 1)}}`, 'application/json')))).toBe('ok');
    expect(await status(parseBody(post(`{"a":${deep(MAX_PARAM_DEPTH)}}`, 'application/json')))).toBe(400);
    // The accepted depth is safe for every recursive walker.
    const body = await parseBody(post(`{"a":${deep(MAX_PARAM_DEPTH - 1)}}`, 'application/json'));
    expect(containsNul(body)).toBe(false);
    expect(nestedDeeperThan(body, MAX_PARAM_DEPTH)).toBe(false);
  });

  it('refuses bracketed keys nested past the depth limit', () => {
    const key = 'a' + '[b]'.repeat(MAX_PARAM_DEPTH);
    expect(() => parseQuery(new URLSearchParams(`${key}=1`))).toThrow(ApiError);
    expect(parseQuery(new URLSearchParams(`a${'[b]'.repeat(MAX_PARAM_DEPTH - 1)}=1`))).toHaveProperty('a.b.b');
  });

  it('never writes through __proto__', () => {
    const parsed = parseQuery(new URLSearchParams('__proto__[polluted]=1&a[__proto__][polluted]=1&__proto__=x'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('reads a body up to the limit and answers 413 past it, declared or streamed', async () => {
    expect((await readBody(post('x'.repeat(1024)), 1024)).byteLength).toBe(1024);
    expect(await status(readBody(post('x'.repeat(1025)), 1024))).toBe(413);
    const chunked = new ReadableStream({
      pull(controller) {
        controller.enqueue(new Uint8Array(600));
      },
    });
    const streamed = new Request('http://runway.test/x', { method: 'POST', body: chunked, duplex: 'half' } as RequestInit);
    expect(streamed.headers.get('content-length')).toBeNull();
    expect(await status(readBody(streamed, 1024))).toBe(413);
  });
});
