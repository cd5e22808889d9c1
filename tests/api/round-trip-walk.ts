// Issue 24's rule, as a walk over one entity: every key it reports is either written through the API (with a
// value other than the current one) and read back exactly, or in a read-only list that says why. A key in
// neither fails the walk, so a key added to an entity later must be classified. (A small walker for the
// groups, users and members tests; the projects/runners one lives in tests/support/round-trip.ts.)
import { expect } from 'vitest';
import type { ApiResponse } from '../support/api';

export interface RoundTrip {
  /** Reads the entity. */
  read: () => Promise<Record<string, unknown>>;
  /** Writes parameters (PUT); must answer 200. */
  write: (params: Record<string, unknown>) => Promise<ApiResponse>;
  /** Settable keys: the parameters that set each to a value other than today's (default: `{[key]: value}`). */
  settable: Record<string, { value: unknown; params?: Record<string, unknown>; expected?: unknown }>;
  /** Keys no create/update parameter writes, each with the reason. */
  readOnly: Record<string, string>;
}

export async function walkRoundTrip(spec: RoundTrip): Promise<string[]> {
  const before = await spec.read();
  const unclassified = Object.keys(before).filter((k) => !(k in spec.settable) && !(k in spec.readOnly));
  expect(unclassified, 'entity keys neither settable nor read-only').toEqual([]);
  const walked: string[] = [];
  for (const [key, change] of Object.entries(spec.settable)) {
    if (!(key in before)) continue;
    const current = (await spec.read())[key];
    expect(change.value, `${key}: the test must write a value other than the current one`).not.toEqual(current);
    const res = await spec.write(change.params ?? { [key]: change.value });
    expect(res.status, `${key}: ${res.text}`).toBe(200);
    expect(res.body[key], `${key} in the update's answer`).toEqual(change.expected ?? change.value);
    expect((await spec.read())[key], `${key} read back`).toEqual(change.expected ?? change.value);
    walked.push(key);
  }
  return walked;
}
