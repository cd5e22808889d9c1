// Parameter declarations with Grape's coercions and Grape's exact messages ("x is missing",
// "x is invalid", "x does not have a valid value", "x is empty", ...), so 400 bodies match GitLab's.
//
// Every integer is bounded here, by its column's range (PostgreSQL `integer` unless declared otherwise),
// so none reaches the database out of range: in a query or body it is invalid (Grape's 400); in the path
// it names no row, so it becomes NO_ROW_ID and the handler's own lookup answers its 404, in GitLab's
// order (the project before the runner, a 403 before either), as GitLab finds nothing for such an id.
import { z } from 'zod';
import { MAX_INT4, MIN_INT4, NO_ROW_ID } from '../db/ids';
import { paramError } from './errors';

const INVALID = Symbol('invalid');
type Coerced<T> = T | typeof INVALID;
type Range = readonly [min: number, max: number];

const INT4: Range = [MIN_INT4, MAX_INT4];
/**
 * For integers no column holds as sent: page numbers (past the end is an empty page, as GitLab's), and
 * values the domain bounds itself with GitLab's validation message before writing (maximum_timeout).
 */
export const ANY_SAFE_INTEGER: Range = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

export class Param<T, Req extends boolean = false> {
  constructor(
    private readonly coerce: (raw: unknown) => Coerced<T>,
    private readonly opts: {
      required?: boolean;
      values?: readonly unknown[];
      exceptValues?: readonly unknown[];
      regexp?: RegExp;
      allowBlank?: boolean;
      default?: T;
      /** Integers only: the values the column (or the domain) takes. */
      range?: Range;
    } = {},
  ) {}

  required(): Param<T, true> {
    return new Param<T, true>(this.coerce, { ...this.opts, required: true });
  }
  values<const V extends T>(values: readonly V[]): Param<V, Req> {
    return new Param<V, Req>(this.coerce as (raw: unknown) => Coerced<V>, { ...this.opts, values } as never);
  }
  exceptValues(values: readonly T[]): Param<T, Req> {
    return new Param<T, Req>(this.coerce, { ...this.opts, exceptValues: values });
  }
  regexp(re: RegExp): Param<T, Req> {
    return new Param<T, Req>(this.coerce, { ...this.opts, regexp: re });
  }
  notBlank(): Param<T, Req> {
    return new Param<T, Req>(this.coerce, { ...this.opts, allowBlank: false });
  }
  default(value: T): Param<T, true> {
    return new Param<T, true>(this.coerce, { ...this.opts, default: value });
  }
  /** An integer outside the int4 column range, see ANY_SAFE_INTEGER. */
  range(range: Range): Param<T, Req> {
    return new Param<T, Req>(this.coerce, { ...this.opts, range });
  }

  /** The declaration as OpenAPI describes it: JSON Schema, whether required, and GitLab's coercion in words. */
  doc(): ParamDoc {
    const kind = KINDS.get(this.coerce as Coercer) ?? { schema: {}, coercion: '' };
    const schema: Record<string, unknown> = { ...kind.schema };
    const { values, regexp, default: dflt, allowBlank, exceptValues, range } = this.opts;
    if (range === INT4) schema.format = 'int32';
    else if (range) Object.assign(schema, { minimum: range[0], maximum: range[1] });
    if (values) {
      if (schema.type === 'array') schema.items = { ...(schema.items as object), enum: [...values] };
      else schema.enum = [...values];
    }
    if (regexp) schema.pattern = regexp.source;
    if (dflt !== undefined) schema.default = dflt;
    if (allowBlank === false) schema.minLength = 1;
    if (exceptValues) schema.not = { enum: [...exceptValues] };
    return { required: !!this.opts.required, schema, coercion: kind.coercion };
  }

  /** Returns the coerced value (or undefined when absent) and Grape's messages for this name. */
  check(name: string, present: boolean, raw: unknown, inPath = false): { value: T | undefined; errors: string[] } {
    const { required, values, exceptValues, regexp, allowBlank, range } = this.opts;
    if (!present) {
      if (this.opts.default !== undefined) return { value: this.opts.default, errors: [] };
      if (!required) return { value: undefined, errors: [] };
      const errors = [`${name} is missing`];
      if (values) errors.push(`${name} does not have a valid value`);
      return { value: undefined, errors };
    }
    const value = this.coerce(raw);
    if (value === INVALID) return { value: undefined, errors: [`${name} is invalid`] };
    if (allowBlank === false && isBlank(value)) return { value: undefined, errors: [`${name} is empty`] };
    if (value === null || value === undefined) return { value: value as T, errors: [] };
    // A declared list of values says more (Grape's "does not have a valid value") and lies within the range.
    if (range && !values && typeof value === 'number' && (value < range[0] || value > range[1])) {
      return inPath ? { value: NO_ROW_ID as T, errors: [] } : { value: undefined, errors: [`${name} is invalid`] };
    }
    if (regexp && (typeof value !== 'string' || !regexp.test(value))) return { value: undefined, errors: [`${name} is invalid`] };
    if (values && !(Array.isArray(value) ? value.every((v) => values.includes(v)) : values.includes(value))) {
      return { value: undefined, errors: [`${name} does not have a valid value`] };
    }
    if (exceptValues && exceptValues.includes(value)) return { value: undefined, errors: [`${name} has a value not allowed`] };
    return { value, errors: [] };
  }
}

function isBlank(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

const TRUE = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const FALSE = new Set(['false', 'f', '0', 'no', 'n', 'off']);

/** Any integer, however large (Grape's Integer is a bignum): `Param.check` compares it with the range. */
const integerCoerce = (raw: unknown): Coerced<number | null> => {
  if (raw === null) return null;
  if (typeof raw === 'number') return Number.isInteger(raw) ? raw : INVALID;
  // Past 308 digits the number is Infinity: still an integer out of every range.
  if (typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw)) return Number(raw.trim());
  return INVALID;
};

/** Grape's Float: a finite JSON number or a decimal string ("62.5"). */
const numberCoerce = (raw: unknown): Coerced<number | null> => {
  if (raw === null) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : INVALID;
  if (typeof raw === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw)) {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : INVALID;
  }
  return INVALID;
};

const booleanCoerce = (raw: unknown): Coerced<boolean | null> => {
  if (raw === null) return null;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw === 1 ? true : raw === 0 ? false : INVALID;
  if (typeof raw === 'string') {
    const v = raw.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
  }
  return INVALID;
};

const stringCoerce = (raw: unknown): Coerced<string | null> => {
  if (raw === null) return null;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return INVALID;
};

/** GitLab's CommaSeparatedToArray: "a, b" and ["a,b", "c"] both become trimmed lists; null becomes []. */
export function commaSeparatedToArray(raw: unknown): string[] {
  if (typeof raw === 'string') return rubySplit(raw).map((s) => s.trim());
  if (Array.isArray(raw)) return raw.flat(Infinity).flatMap((v) => (v === null || v === undefined ? [] : rubySplit(String(v)).map((s) => s.trim())));
  return [];
}

/** Ruby's String#split(','): trailing empty fields are dropped, so "a,b," is ["a", "b"] and "" is []. */
function rubySplit(s: string): string[] {
  const parts = s.split(',');
  while (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const arrayCoerce = (raw: unknown): Coerced<string[]> => {
  // GitLab's coercer turns anything that is neither a string nor an array into [].
  return commaSeparatedToArray(raw);
};

const isoDate = z.iso.date();
const dateCoerce = (raw: unknown): Coerced<string | null> => {
  if (raw === null || raw === '') return null;
  return typeof raw === 'string' && isoDate.safeParse(raw.trim()).success ? raw.trim() : INVALID;
};

const dateTimeCoerce = (raw: unknown): Coerced<Date | null> => {
  if (raw === null) return null;
  if (typeof raw !== 'string' || !raw.trim()) return INVALID;
  const d = new Date(raw.trim());
  return Number.isNaN(d.getTime()) ? INVALID : d;
};

const hashCoerce = (raw: unknown): Coerced<Record<string, unknown> | null> => {
  if (raw === null) return null;
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : INVALID;
};

type Coercer = (raw: unknown) => unknown;
export interface ParamDoc {
  required: boolean;
  schema: Record<string, unknown>;
  /** How a value is read, as Grape coerces it (shown in the API reference). */
  coercion: string;
}
const KINDS = new Map<Coercer, { schema: Record<string, unknown>; coercion: string }>([
  [integerCoerce, { schema: { type: 'integer' }, coercion: 'A JSON number or a decimal string ("42").' }],
  [numberCoerce, { schema: { type: 'number' }, coercion: 'A JSON number or a decimal string ("62.5").' }],
  [
    booleanCoerce,
    { schema: { type: 'boolean' }, coercion: 'true/false, or one of the strings true, t, 1, yes, y, on / false, f, 0, no, n, off (any case), or 1/0.' },
  ],
  [stringCoerce, { schema: { type: 'string' }, coercion: 'A string; numbers and booleans are read as their text.' }],
  [
    arrayCoerce,
    {
      schema: { type: 'array', items: { type: 'string' } },
      coercion: 'A comma-separated string ("a,b") or an array (`x[]=a&x[]=b`); items are split on commas and trimmed.',
    },
  ],
  [dateCoerce, { schema: { type: 'string', format: 'date' }, coercion: 'An ISO 8601 date (YYYY-MM-DD).' }],
  [dateTimeCoerce, { schema: { type: 'string', format: 'date-time' }, coercion: 'An ISO 8601 date and time.' }],
  [hashCoerce, { schema: { type: 'object' }, coercion: 'A JSON object (or `x[key]=value` in a query or form).' }],
]);

export const param = {
  /** An integer in a PostgreSQL `integer` column's range; `.range(ANY_SAFE_INTEGER)` for the exceptions. */
  integer: () => new Param(integerCoerce, { range: INT4 }),
  /** Grape's Float. */
  number: () => new Param(numberCoerce),
  boolean: () => new Param(booleanCoerce),
  string: () => new Param(stringCoerce),
  /** Array[String] with GitLab's comma-separated coercion. */
  array: () => new Param(arrayCoerce),
  /** A Date (YYYY-MM-DD), kept as that string. */
  date: () => new Param(dateCoerce),
  dateTime: () => new Param(dateTimeCoerce),
  hash: () => new Param(hashCoerce),
};

type Shape = Record<string, Param<unknown, boolean>>;
type ValueOf<P> = P extends Param<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
export type Parsed<S extends Shape> = { [K in keyof S]: ValueOf<S[K]> };

export interface Rules {
  mutuallyExclusive?: string[][];
  atLeastOneOf?: string[][];
  allOrNoneOf?: string[][];
}

/**
 * Validates `input` against `shape` in declaration order, joining every message as Grape does.
 * Undeclared keys are ignored (clients send read-only attributes back on save). `pathNames` are the
 * parameters taken from the path (an out-of-range id there names no row instead of being invalid).
 */
export function parseParams<S extends Shape>(shape: S, input: Record<string, unknown>, rules: Rules = {}, pathNames: readonly string[] = []): Parsed<S> {
  const errors: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(shape)) {
    const present = Object.prototype.hasOwnProperty.call(input, name) && input[name] !== undefined;
    const { value, errors: e } = def.check(name, present, input[name], pathNames.includes(name));
    errors.push(...e);
    if (value !== undefined) out[name] = value;
  }
  for (const group of rules.mutuallyExclusive ?? []) {
    if (group.filter((k) => input[k] !== undefined).length > 1) errors.push(`${group.join(', ')} are mutually exclusive`);
  }
  for (const group of rules.atLeastOneOf ?? []) {
    if (!group.some((k) => input[k] !== undefined)) errors.push(`${group.join(', ')} are missing, at least one parameter must be provided`);
  }
  for (const group of rules.allOrNoneOf ?? []) {
    const given = group.filter((k) => input[k] !== undefined).length;
    if (given > 0 && given < group.length) errors.push(`${group.join(', ')} provide all or none of parameters`);
  }
  if (errors.length) throw paramError(errors);
  return out as Parsed<S>;
}
