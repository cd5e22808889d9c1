// Issue 24's rule, for any entity: every key the API reports is either settable through GitLab's create or
// update parameters and read back exactly as written, or in an explicit list of read-only keys with the
// reason. Tools such as Ansible and terraform compare what they read with what they want and write the
// difference, so a reported key that a write does not change makes them write it on every run.
import { expect } from 'vitest';
import type { ApiResponse } from './api';

type Json = Record<string, unknown>;

export interface Settable {
  /** The changed value to write, from the current one (it must differ from it). */
  next: (current: unknown) => unknown;
  /** The parameters to send (default `{ [key]: value }`): for keys a differently named parameter sets. */
  params?: (value: unknown) => Json;
  /** What the entity then reports (default: the value written). */
  expected?: (value: unknown) => unknown;
  /** Other keys the write changes by design (derived keys such as description_html). */
  couples?: string[];
  /** Settable on create only: checked through `create` instead of `update`. */
  createOnly?: boolean;
}

export interface RoundTripCase {
  /** The entity's name, for messages. */
  entity: string;
  /** Reads the entity as a client does. */
  read: () => Promise<Json>;
  /** Writes parameters through the update endpoint (none: every settable key is create-only). */
  update?: (params: Json) => Promise<ApiResponse>;
  /** For create-only keys: creates another entity with these parameters and reads it back. */
  create?: (params: Json) => Promise<Json>;
  settable: Record<string, Settable>;
  /** Keys no create or update parameter sets, each with why (GitLab's read-only, derived, other endpoint...). */
  readOnly: Record<string, string>;
  /** Read-only keys that change on any write (updated_at): not compared between writes. */
  volatile?: string[];
}

const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

/** Every key is classified, and every classification names a reported key (no stale entries). */
export async function checkClassification(c: RoundTripCase): Promise<Json> {
  const entity = await c.read();
  const keys = Object.keys(entity);
  const unclassified = keys.filter((k) => !(k in c.settable) && !(k in c.readOnly));
  expect(unclassified, `${c.entity}: keys neither settable nor read-only`).toEqual([]);
  const both = keys.filter((k) => k in c.settable && k in c.readOnly);
  expect(both, `${c.entity}: keys listed twice`).toEqual([]);
  const stale = [...Object.keys(c.settable), ...Object.keys(c.readOnly)].filter((k) => !keys.includes(k));
  expect(stale, `${c.entity}: listed keys the entity does not report`).toEqual([]);
  for (const [k, why] of Object.entries(c.readOnly)) expect(why.trim(), `${c.entity}.${k}: a reason`).not.toBe('');
  return entity;
}

/**
 * Walks the settable keys in the entity's order: writes a changed value for each, reads the entity back,
 * and expects that key (and the keys it couples) changed as written and every other key as it was.
 * Returns the keys walked, so a caller can assert the walk covered what it expects.
 */
export async function walkSettable(c: RoundTripCase): Promise<string[]> {
  let before = await checkClassification(c);
  const walked: string[] = [];
  const volatile = new Set(c.volatile ?? []);
  for (const key of Object.keys(before)) {
    const s = c.settable[key];
    if (!s) continue;
    const value = s.next(before[key]);
    expect(differs(value, before[key]), `${c.entity}.${key}: the test value must differ from ${JSON.stringify(before[key])}`).toBe(true);
    const params = s.params ? s.params(value) : { [key]: value };
    const expected = s.expected ? s.expected(value) : value;
    if (s.createOnly) {
      expect(c.create, `${c.entity}: create-only ${key} needs create`).toBeDefined();
      const made = await c.create!(params);
      expect(made[key], `${c.entity}.${key} created with ${JSON.stringify(params)}`).toEqual(expected);
      walked.push(key);
      continue;
    }
    expect(c.update, `${c.entity}: ${key} needs update`).toBeDefined();
    const res = await c.update!(params);
    expect(res.status, `${c.entity}.${key} <- ${JSON.stringify(params)}: ${res.text}`).toBeLessThan(300);
    const after = await c.read();
    expect(after[key], `${c.entity}.${key} read back after writing ${JSON.stringify(params)}`).toEqual(expected);
    const allowed = new Set([key, ...(s.couples ?? []), ...volatile]);
    const stray = Object.keys(before).filter((k) => !allowed.has(k) && differs(before[k], after[k]));
    expect(
      stray.map((k) => `${k}: ${JSON.stringify(before[k])} -> ${JSON.stringify(after[k])}`),
      `${c.entity}.${key}: other keys changed`,
    ).toEqual([]);
    walked.push(key);
    before = after;
  }
  return walked;
}

/** Flips a boolean (null reads as false, as GitLab's nullable booleans default to off). */
export const flip = (v: unknown) => !v;
/** A fixed value (the walker checks it differs from the current one). */
export const to = (value: unknown) => () => value;
