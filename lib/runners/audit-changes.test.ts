import { describe, expect, it } from 'vitest';
import { runnerChanges, type RunnerSettings } from './audit-changes';

const base: RunnerSettings = {
  description: 'a',
  active: true,
  tagList: ['x', 'y'],
  runUntagged: true,
  locked: false,
  accessLevel: 'not_protected',
  maximumTimeout: null,
  maintenanceNote: null,
};

describe('runnerChanges', () => {
  it('is empty when nothing changed (tag order does not count)', () => {
    expect(runnerChanges(base, { ...base, tagList: ['y', 'x'] })).toEqual({});
  });

  it('names fields as the API does, paused instead of active', () => {
    expect(runnerChanges(base, { ...base, active: false, description: 'b', maximumTimeout: 600 })).toEqual({
      description: { from: 'a', to: 'b' },
      paused: { from: false, to: true },
      maximum_timeout: { from: null, to: 600 },
    });
  });

  it('lists tags before and after', () => {
    expect(runnerChanges(base, { ...base, tagList: ['z'] })).toEqual({ tag_list: { from: ['x', 'y'], to: ['z'] } });
  });
});
