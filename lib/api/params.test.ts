import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { NO_ROW_ID } from '../db/ids';
import { ANY_SAFE_INTEGER, commaSeparatedToArray, param, parseParams } from './params';

/** The 400 body parseParams throws, or null when the input is valid. */
function errorOf(fn: () => unknown): unknown {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, body: err.body };
    throw err;
  }
}

describe('[PLATFORM] params: coercions', () => {
  it('coerces booleans as Grape does', () => {
    const shape = { b: param.boolean() };
    for (const v of ['true', 'True', 'TRUE', 't', '1', 'yes', 'on', true, 1]) expect(parseParams(shape, { b: v }).b, String(v)).toBe(true);
    for (const v of ['false', 'False', 'f', '0', 'no', 'off', false, 0]) expect(parseParams(shape, { b: v }).b, String(v)).toBe(false);
    for (const v of ['maybe', '', 2, [], {}]) {
      expect(
        errorOf(() => parseParams(shape, { b: v })),
        JSON.stringify(v),
      ).toEqual({ status: 400, body: { error: 'b is invalid' } });
    }
    expect(parseParams(shape, { b: null }).b).toBeNull();
  });

  it('coerces integers from numbers and numeric strings only', () => {
    const shape = { n: param.integer() };
    expect(parseParams(shape, { n: '42' }).n).toBe(42);
    expect(parseParams(shape, { n: ' -7 ' }).n).toBe(-7);
    expect(parseParams(shape, { n: 5 }).n).toBe(5);
    for (const v of ['abc', '1.5', 1.5, '', '9007199254740993', true]) {
      expect(
        errorOf(() => parseParams(shape, { n: v })),
        String(v),
      ).toEqual({ status: 400, body: { error: 'n is invalid' } });
    }
  });

  it("coerces numbers (Grape's Float) from finite numbers and decimal strings only", () => {
    const shape = { x: param.number() };
    expect(parseParams(shape, { x: '62.5' }).x).toBe(62.5);
    expect(parseParams(shape, { x: ' 80 ' }).x).toBe(80);
    expect(parseParams(shape, { x: '.5' }).x).toBe(0.5);
    expect(parseParams(shape, { x: '1e3' }).x).toBe(1000);
    expect(parseParams(shape, { x: 1.25 }).x).toBe(1.25);
    expect(parseParams(shape, { x: null }).x).toBeNull();
    for (const v of ['abc', '', '1.2.3', 'Infinity', 'NaN', '1e999', true, [], {}]) {
      expect(
        errorOf(() => parseParams(shape, { x: v })),
        String(v),
      ).toEqual({ status: 400, body: { error: 'x is invalid' } });
    }
  });

  it('bounds integers by the int4 column: invalid in a query or body, no row in the path (issue 20)', () => {
    const shape = { n: param.integer() };
    expect(parseParams(shape, { n: '2147483647' }).n).toBe(2147483647);
    expect(parseParams(shape, { n: -2147483648 }).n).toBe(-2147483648);
    for (const v of ['2147483648', 2147483648, '-2147483649', '9223372036854775808', 9223372036854775808, '9'.repeat(400)]) {
      expect(
        errorOf(() => parseParams(shape, { n: v })),
        String(v),
      ).toEqual({ status: 400, body: { error: 'n is invalid' } });
      expect(parseParams(shape, { n: v }, {}, ['n']).n, String(v)).toBe(NO_ROW_ID);
    }
    // Not integers at all stay invalid in the path too (Grape's coercion fails before any lookup).
    for (const v of ['1e3', '1.0', 1.5, 1e400])
      expect(
        errorOf(() => parseParams(shape, { n: v }, {}, ['n'])),
        String(v),
      ).toEqual({ status: 400, body: { error: 'n is invalid' } });
    expect(parseParams(shape, { n: 1e3 }).n).toBe(1000);
    // A declared range replaces the column's; a list of values says "does not have a valid value" instead.
    expect(parseParams({ n: param.integer().range(ANY_SAFE_INTEGER) }, { n: '2147483648' }).n).toBe(2147483648);
    expect(errorOf(() => parseParams({ n: param.integer().range(ANY_SAFE_INTEGER) }, { n: '9007199254740992' }))).toEqual({
      status: 400,
      body: { error: 'n is invalid' },
    });
    expect(errorOf(() => parseParams({ n: param.integer().values([10, 20]) }, { n: '2147483648' }))).toEqual({
      status: 400,
      body: { error: 'n does not have a valid value' },
    });
  });

  it('keeps strings, stringifies scalars, rejects objects', () => {
    const shape = { s: param.string() };
    expect(parseParams(shape, { s: 'x' }).s).toBe('x');
    expect(parseParams(shape, { s: 12 }).s).toBe('12');
    expect(parseParams(shape, { s: false }).s).toBe('false');
    expect(errorOf(() => parseParams(shape, { s: { a: 1 } }))).toEqual({ status: 400, body: { error: 's is invalid' } });
  });

  it('splits arrays on commas, from strings and from lists (CommaSeparatedToArray)', () => {
    expect(commaSeparatedToArray('a, b,c')).toEqual(['a', 'b', 'c']);
    expect(commaSeparatedToArray(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(commaSeparatedToArray(null)).toEqual([]);
    // Ruby's split drops trailing empty fields only.
    expect(commaSeparatedToArray('a,b,')).toEqual(['a', 'b']);
    expect(commaSeparatedToArray('')).toEqual([]);
    expect(commaSeparatedToArray(['a', ''])).toEqual(['a']);
    expect(commaSeparatedToArray('a,,b')).toEqual(['a', '', 'b']);
    const shape = { a: param.array() };
    expect(parseParams(shape, { a: 'x,y' }).a).toEqual(['x', 'y']);
    expect(parseParams(shape, { a: ['x', 'y'] }).a).toEqual(['x', 'y']);
    // Anything else becomes an empty list, as GitLab's coercer makes it.
    expect(parseParams(shape, { a: 3 }).a).toEqual([]);
    expect(parseParams(shape, { a: { k: 'v' } }).a).toEqual([]);
    expect(errorOf(() => parseParams({ a: param.array().notBlank() }, { a: { k: 'v' } }))).toEqual({ status: 400, body: { error: 'a is empty' } });
  });

  it('accepts ISO dates and date-times', () => {
    expect(parseParams({ d: param.date() }, { d: '2026-02-28' }).d).toBe('2026-02-28');
    expect(errorOf(() => parseParams({ d: param.date() }, { d: '2026-02-30' }))).toEqual({ status: 400, body: { error: 'd is invalid' } });
    expect(errorOf(() => parseParams({ d: param.date() }, { d: '28/02/2026' }))).toEqual({ status: 400, body: { error: 'd is invalid' } });
    const t = parseParams({ t: param.dateTime() }, { t: '2026-01-02T03:04:05Z' }).t;
    expect(t?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(errorOf(() => parseParams({ t: param.dateTime() }, { t: 'not a time' }))).toEqual({ status: 400, body: { error: 't is invalid' } });
  });
});

describe('[PLATFORM] params: validations and messages', () => {
  it('reports missing, values, except_values, regexp and blank in declaration order, joined', () => {
    const shape = {
      name: param.string().required(),
      kind: param.string().values(['a', 'b']),
      per_page: param.integer().exceptValues([0]),
      ref: param.string().regexp(/^[a-z]+$/),
      title: param.string().notBlank(),
    };
    expect(errorOf(() => parseParams(shape, { kind: 'c', per_page: '0', ref: 'A1', title: '  ' }))).toEqual({
      status: 400,
      body: { error: 'name is missing, kind does not have a valid value, per_page has a value not allowed, ref is invalid, title is empty' },
    });
  });

  it('says both "is missing" and "does not have a valid value" for a required param with values', () => {
    const shape = {
      scopes: param
        .array()
        .required()
        .values(['api', 'read_api'] as never as string[][]),
    };
    expect(errorOf(() => parseParams(shape, {}))).toEqual({ status: 400, body: { error: 'scopes is missing, scopes does not have a valid value' } });
    expect(errorOf(() => parseParams(shape, { scopes: 'api,nope' }))).toEqual({ status: 400, body: { error: 'scopes does not have a valid value' } });
    expect(parseParams(shape, { scopes: 'api,read_api' }).scopes).toEqual(['api', 'read_api']);
  });

  it('applies defaults only when a param is absent', () => {
    const shape = { sort: param.string().values(['asc', 'desc']).default('desc') };
    expect(parseParams(shape, {}).sort).toBe('desc');
    expect(parseParams(shape, { sort: 'asc' }).sort).toBe('asc');
  });

  it('ignores unknown params and leaves absent optional ones out', () => {
    const out = parseParams({ a: param.string(), b: param.integer() }, { a: 'x', extra: 'ignored' });
    expect(out).toEqual({ a: 'x' });
  });

  it('checks mutually exclusive, at-least-one-of and all-or-none-of rules', () => {
    const shape = { a: param.string(), b: param.string(), c: param.string() };
    expect(errorOf(() => parseParams(shape, { a: '1', b: '2' }, { mutuallyExclusive: [['a', 'b']] }))).toEqual({
      status: 400,
      body: { error: 'a, b are mutually exclusive' },
    });
    expect(errorOf(() => parseParams(shape, {}, { atLeastOneOf: [['a', 'c']] }))).toEqual({
      status: 400,
      body: { error: 'a, c are missing, at least one parameter must be provided' },
    });
    expect(errorOf(() => parseParams(shape, { a: '1' }, { allOrNoneOf: [['a', 'b']] }))).toEqual({
      status: 400,
      body: { error: 'a, b provide all or none of parameters' },
    });
    expect(parseParams(shape, { a: '1', b: '2' }, { allOrNoneOf: [['a', 'b']] })).toEqual({ a: '1', b: '2' });
  });
});
