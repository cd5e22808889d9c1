// The words the fleet alerts page puts on rules and alerts, and the parameters its form sends.
import { describe, expect, it } from 'vitest';
import { alertDuration, describeAlert, describeCondition, draftOf, firingSummary, formatValue, ruleParams, type FleetAlert } from './fleet-alerts';

const rule = { threshold: null, window_minutes: null, runner_type: null, tag: null } as const;
const alert = (over: Partial<FleetAlert> = {}): FleetAlert => ({
  id: 1,
  rule: { id: 2, name: 'Instance share', kind: 'online_share_below' },
  state: 'firing',
  value: 62.4,
  threshold: 80,
  message: null,
  fired_at: '2026-12-01T10:00:00Z',
  resolved_at: null,
  ...over,
});

describe('describeCondition', () => {
  it('says each kind in words, with its runner type, threshold and window', () => {
    expect(describeCondition({ ...rule, kind: 'online_share_below', threshold: 80, runner_type: 'instance_type' })).toBe(
      'Online share of instance runners below 80 %',
    );
    expect(describeCondition({ ...rule, kind: 'online_share_below', threshold: 50 })).toBe('Online share of runners below 50 %');
    expect(describeCondition({ ...rule, kind: 'went_offline', threshold: 3, window_minutes: 10 })).toBe('More than 3 runners went offline in 10 minutes');
    expect(describeCondition({ ...rule, kind: 'went_offline', threshold: 1, window_minutes: 1, runner_type: 'group_type' })).toBe(
      'More than 1 group runner went offline in 1 minute',
    );
    expect(describeCondition({ ...rule, kind: 'online_share_below', threshold: 50, tag: 'docker' })).toBe('Online share of runners tagged docker below 50 %');
    expect(describeCondition({ ...rule, kind: 'tag_without_online_runner', tag: 'gpu' })).toBe('No online runner with the tag gpu');
    expect(describeCondition({ ...rule, kind: 'tag_without_online_runner', tag: 'gpu', runner_type: 'project_type' })).toBe(
      'No online project runner with the tag gpu',
    );
    expect(describeCondition({ ...rule, kind: 'queue_wait_p95_above', threshold: 300, window_minutes: 60 })).toBe(
      'Job queue wait p95 above 5 min over the last 60 minutes',
    );
  });
});

describe('formatValue and describeAlert', () => {
  it('writes a value in the kind’s unit', () => {
    expect(formatValue('online_share_below', 62.44)).toBe('62.4 %');
    expect(formatValue('went_offline', 1)).toBe('1 runner');
    expect(formatValue('tag_without_online_runner', 0)).toBe('0 online runners');
    expect(formatValue('queue_wait_p95_above', 400)).toBe('6 min 40 s');
    expect(formatValue('went_offline', null)).toBe('–');
  });

  it('prefers the API’s message, and makes one when there is none', () => {
    expect(describeAlert(alert({ message: 'Online share of instance runners is 62 %, below 80 %' }))).toBe(
      'Online share of instance runners is 62 %, below 80 %',
    );
    expect(describeAlert(alert())).toBe('Online share is 62.4 %, below 80 %');
    expect(describeAlert(alert({ rule: { id: 2, name: 'q', kind: 'queue_wait_p95_above' }, value: 900, threshold: 300 }))).toBe(
      'Job queue wait p95 is 15 min, above 5 min',
    );
  });

  it('counts the banner’s alerts in a sentence', () => {
    expect(firingSummary(1, alert({ message: 'm' }))).toBe('1 fleet alert is firing: m');
    expect(firingSummary(2, alert({ message: 'm' }))).toBe('2 fleet alerts are firing: m');
  });

  it('measures an alert until it resolved, or until now', () => {
    expect(alertDuration(alert({ resolved_at: '2026-12-01T10:05:30Z' }))).toBe('5 min 30 s');
    expect(alertDuration(alert(), Date.parse('2026-12-01T12:00:00Z'))).toBe('2 h');
  });
});

describe('ruleParams', () => {
  it('sends only the fields of the kind, leaving blank ones to the API’s defaults', () => {
    const d = { ...draftOf(null), name: ' Share ', threshold: '80' };
    expect(ruleParams(d, null)).toEqual({ name: 'Share', kind: 'online_share_below', enabled: true, threshold: '80', runner_type: 'instance_type', tag: '' });
    const tag = { ...draftOf(null), kind: 'tag_without_online_runner' as const, name: 'GPU', tag: 'gpu', threshold: '5', webhook_url: 'http://127.0.0.1:9/h' };
    expect(ruleParams(tag, null)).toEqual({
      name: 'GPU',
      kind: 'tag_without_online_runner',
      enabled: true,
      runner_type: 'instance_type',
      tag: 'gpu',
      webhook_url: 'http://127.0.0.1:9/h',
    });
  });

  it('sends the webhook URL of an edit only when it changed (the API masks its credentials), and a secret only when typed', () => {
    const stored = { webhook_url: 'https://*****:*****@hooks.example.com/h' };
    const d = { ...draftOf(null), kind: 'queue_wait_p95_above' as const, name: 'Q', threshold: '300', window_minutes: '30', webhook_url: stored.webhook_url };
    // The queue rule counts every job: a type or tag left from another kind is cleared.
    expect(ruleParams({ ...d, tag: 'old' }, stored)).toEqual({
      name: 'Q',
      kind: 'queue_wait_p95_above',
      enabled: true,
      threshold: '300',
      window_minutes: '30',
      runner_type: null,
      tag: '',
    });
    expect(ruleParams({ ...d, webhook_url: '' }, stored).webhook_url).toBe('');
    expect(ruleParams({ ...d, webhook_url: 'https://new.example.com' }, stored).webhook_url).toBe('https://new.example.com');
    expect(ruleParams({ ...d, webhook_secret: 's3cret' }, stored).webhook_secret).toBe('s3cret');
  });
});
