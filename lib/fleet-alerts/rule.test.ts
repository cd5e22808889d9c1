import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertMessage, figure, isFiring, ruleErrors, type RuleSettings } from './rule';
import { backoffMinutes, signature } from './webhook';

const base: RuleSettings = { name: 'r', kind: 'went_offline', threshold: 1, windowMinutes: 10, runnerType: null, tag: null, enabled: true, webhookUrl: null };

describe('[FLEET] fleet alert rules', () => {
  it('fire on the side of the threshold their kind says; no value never fires', () => {
    expect(isFiring('online_share_below', 80, 79.9)).toBe(true);
    expect(isFiring('online_share_below', 80, 80)).toBe(false);
    expect(isFiring('went_offline', 3, 3)).toBe(false);
    expect(isFiring('went_offline', 3, 4)).toBe(true);
    expect(isFiring('tag_without_online_runner', null, 0)).toBe(true);
    expect(isFiring('tag_without_online_runner', null, 1)).toBe(false);
    expect(isFiring('queue_wait_p95_above', 120, 120.5)).toBe(true);
    for (const kind of ['online_share_below', 'went_offline', 'tag_without_online_runner', 'queue_wait_p95_above'] as const) {
      expect(isFiring(kind, 1, null)).toBe(false);
    }
  });

  it('say what fired in a sentence', () => {
    expect(alertMessage({ ...base, kind: 'online_share_below', threshold: 80, runnerType: 'instance_type' }, 62)).toBe(
      'Online share of instance runners is 62 %, below 80 %',
    );
    expect(alertMessage({ ...base, kind: 'went_offline', threshold: 3, runnerType: 'group_type', tag: 'docker' }, 5)).toBe(
      '5 group runners tagged docker went offline in the last 10 minutes, more than 3',
    );
    expect(alertMessage({ ...base, kind: 'tag_without_online_runner', tag: 'gpu', runnerType: 'project_type' }, 0)).toBe(
      'No online project runner has the tag gpu',
    );
    expect(alertMessage({ ...base, kind: 'queue_wait_p95_above', threshold: 120, windowMinutes: null }, 312.26)).toBe(
      'Job queue wait p95 is 312.3 s over the last 60 minutes, above 120 s',
    );
    expect(figure(61.999)).toBe('62');
  });

  it('name each field a rule cannot use', () => {
    expect(ruleErrors(base, undefined)).toEqual({});
    expect(ruleErrors({ ...base, kind: 'online_share_below', threshold: 101 }, undefined)).toEqual({ threshold: ['must be between 0 and 100'] });
    expect(ruleErrors({ ...base, kind: 'tag_without_online_runner', threshold: null, tag: ' ' }, undefined)).toEqual({ tag: ["can't be blank"] });
    expect(ruleErrors({ ...base, windowMinutes: 1441, name: '' }, 'x'.repeat(256))).toEqual({
      name: ["can't be blank"],
      window_minutes: ['must be between 1 and 1440'],
      webhook_secret: ['is too long (maximum is 255 characters)'],
    });
  });

  it('sign "<t>.<body>" with HMAC-SHA256 and back off 1, 2, 4, 8, 16 minutes', () => {
    const body = '{"event":"fired"}';
    const expected = createHmac('sha256', 'k').update(`1700000000.${body}`).digest('hex');
    expect(signature('k', body, 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
    expect([1, 2, 3, 4, 5].map(backoffMinutes)).toEqual([1, 2, 4, 8, 16]);
  });
});
