import { describe, expect, it } from 'vitest';
import { parseChange, parseDeletion } from './events';

describe('[RUNNERS] runner event payloads', () => {
  it('turn row changes into runner events; a runner DELETE is left to the deletions channel', () => {
    expect(parseChange('{"id":3,"op":"INSERT","table":"ci_runners"}')).toEqual({ id: 3, action: 'created' });
    expect(parseChange('{"id":3,"op":"UPDATE","table":"ci_runners"}')).toEqual({ id: 3, action: 'updated' });
    expect(parseChange('{"id":3,"op":"DELETE","table":"ci_runners"}')).toBeNull();
    expect(parseChange('{"id":3,"op":"DELETE","table":"ci_runner_projects"}')).toEqual({ id: 3, action: 'updated' });
    expect(parseChange('{"id":0,"op":"UPDATE","table":"ci_runners"}')).toBeNull();
    expect(parseChange('nonsense')).toBeNull();
  });

  it('read the owners captured at deletion, and no more than the trigger sends', () => {
    expect(parseDeletion('{"id":5,"runner_type":"project_type","group_id":null,"project_ids":[1,2]}')).toEqual({
      id: 5,
      runnerType: 'project_type',
      groupId: null,
      projectIds: [1, 2],
    });
    expect(parseDeletion('{"id":5,"runner_type":"group_type","group_id":9,"project_ids":[]}')).toEqual({
      id: 5,
      runnerType: 'group_type',
      groupId: 9,
      projectIds: [],
    });
    // Past the trigger's cap the assignments are unknown.
    expect(parseDeletion('{"id":5,"runner_type":"project_type","group_id":null,"project_ids":null}')?.projectIds).toBeNull();
    expect(parseDeletion('{"id":5,"runner_type":"bogus_type","group_id":null,"project_ids":[]}')).toBeNull();
    expect(parseDeletion('{"id":"5","runner_type":"instance_type"}')).toBeNull();
  });
});
