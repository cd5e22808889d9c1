import { describe, expect, it } from 'vitest';
import { parseEventNotification } from './event-log';
import { parseLastEventId, resumePlan } from './events';

describe('[RUNNERS] runner event log announcements', () => {
  it('parse into the event, the runner and its owners at the time', () => {
    expect(parseEventNotification('{"event":12,"id":3,"action":"updated","runner_type":"project_type","group_id":null,"project_ids":[1,2]}')).toEqual({
      eventId: 12,
      id: 3,
      action: 'updated',
      facts: { runnerType: 'project_type', groupId: null, projectIds: [1, 2] },
    });
    expect(parseEventNotification('{"event":12,"id":5,"action":"deleted","runner_type":"group_type","group_id":9,"project_ids":[]}')?.facts).toEqual({
      runnerType: 'group_type',
      groupId: 9,
      projectIds: [],
    });
    // Too many assignments to capture: unknown, never "none".
    expect(
      parseEventNotification('{"event":12,"id":5,"action":"deleted","runner_type":"project_type","group_id":null,"project_ids":null}')?.facts.projectIds,
    ).toBeNull();
  });

  it('refuse what is not one', () => {
    expect(parseEventNotification('{"event":0,"id":3,"action":"updated","runner_type":"instance_type"}')).toBeNull();
    expect(parseEventNotification('{"event":1,"id":"3","action":"updated","runner_type":"instance_type"}')).toBeNull();
    expect(parseEventNotification('{"event":1,"id":3,"action":"paused","runner_type":"instance_type"}')).toBeNull();
    expect(parseEventNotification('{"event":1,"id":3,"action":"updated","runner_type":"bogus_type"}')).toBeNull();
    expect(parseEventNotification('nonsense')).toBeNull();
  });
});

describe('[RUNNERS] resuming a runner event stream', () => {
  it('reads Last-Event-ID as a log id, or nothing', () => {
    expect(parseLastEventId('42')).toBe(42);
    expect(parseLastEventId(' 0 ')).toBe(0);
    expect(parseLastEventId('-1')).toBeNull();
    expect(parseLastEventId('4e3')).toBeNull();
    expect(parseLastEventId('9999999999999999')).toBeNull();
    expect(parseLastEventId('')).toBeNull();
  });

  it('replays from an id the log still covers, and resyncs otherwise', () => {
    const bounds = { oldest: 100, newest: 150 };
    expect(resumePlan(120, bounds)).toEqual({ kind: 'replay', from: 120 });
    expect(resumePlan(150, bounds)).toEqual({ kind: 'replay', from: 150 });
    // The event before the oldest kept: nothing between was pruned.
    expect(resumePlan(99, bounds)).toEqual({ kind: 'replay', from: 99 });
    expect(resumePlan(98, bounds)).toEqual({ kind: 'resync', at: 150 });
    expect(resumePlan(151, bounds)).toEqual({ kind: 'resync', at: 150 });
    expect(resumePlan(null, bounds)).toEqual({ kind: 'resync', at: 150 });
    // An empty log: only "nothing yet" is known.
    expect(resumePlan(0, { oldest: null, newest: null })).toEqual({ kind: 'replay', from: 0 });
    expect(resumePlan(7, { oldest: null, newest: null })).toEqual({ kind: 'resync', at: 0 });
  });
});
