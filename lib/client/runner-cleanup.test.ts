// The cleanup page's rule in the URL: defaults, what passes through to the API, and what is dropped.
import { describe, expect, it } from 'vitest';
import { cleanupRuleParams, parseCleanupRule } from './runner-cleanup';

const parse = (qs: string) => parseCleanupRule(new URLSearchParams(qs));

describe('[RUNNERS] stale cleanup rule in the URL', () => {
  it('defaults to 90 days, any type and owner, page 1', () => {
    expect(parse('')).toEqual({ staleDays: '90', type: undefined, ownerGroupId: undefined, ownerProjectId: undefined, page: 1 });
  });

  it('passes typed values through for the API to judge, and drops an unknown type', () => {
    const rule = parse('stale_days=%203%20&type=group_type&owner_group_id=12&page=4');
    expect(rule).toEqual({ staleDays: '3', type: 'group_type', ownerGroupId: '12', ownerProjectId: undefined, page: 4 });
    expect(cleanupRuleParams(rule)).toEqual({ stale_days: '3', type: 'group_type', owner_group_id: '12', owner_project_id: undefined });
    expect(parse('type=runner&page=-2')).toMatchObject({ type: undefined, page: 1 });
  });
});
