// Status rules of GitLab 18 (reference §3) for one row: the order stale > never_contacted > online/offline > paused.
import { describe, expect, it } from 'vitest';
import { isOnline, isStale, managerStatus, runnerStatus } from './status';

const now = new Date('2026-01-10T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const H = 3_600_000;
const D = 24 * H;

describe('[RUNNERS] status of a runner row', () => {
  it.each([
    ['online', { contactedAt: ago(H), createdAt: ago(30 * D), active: true }, 'online', true],
    ['just inside 2h', { contactedAt: ago(2 * H - 1000), createdAt: ago(D), active: true }, 'online', true],
    ['exactly 2h is offline', { contactedAt: ago(2 * H), createdAt: ago(D), active: true }, 'offline', false],
    ['offline', { contactedAt: ago(3 * H), createdAt: ago(D), active: true }, 'offline', false],
    ['stale', { contactedAt: ago(8 * D), createdAt: ago(30 * D), active: true }, 'stale', false],
    ['stale and paused', { contactedAt: ago(8 * D), createdAt: ago(30 * D), active: false }, 'stale', false],
    ['never contacted', { contactedAt: null, createdAt: ago(D), active: true }, 'never_contacted', null],
    ['never contacted, old', { contactedAt: null, createdAt: ago(7 * D), active: true }, 'stale', null],
    ['never contacted, paused', { contactedAt: null, createdAt: ago(D), active: false }, 'never_contacted', null],
    ['paused, contacted', { contactedAt: ago(5 * H), createdAt: ago(D), active: false }, 'paused', false],
    ['new runner, old contact impossible but created recently', { contactedAt: ago(10 * D), createdAt: ago(D), active: true }, 'offline', false],
  ])('%s', (_name, row, status, online) => {
    expect(runnerStatus(row, now)).toBe(status);
    expect(isOnline(row, now)).toBe(online);
  });

  it('stale needs both created_at and contacted_at older than 7 days', () => {
    expect(isStale({ contactedAt: null, createdAt: ago(7 * D + 1) }, now)).toBe(true);
    expect(isStale({ contactedAt: ago(D), createdAt: ago(70 * D) }, now)).toBe(false);
  });

  it('a manager has no paused state and is never_contacted until creation finished', () => {
    expect(managerStatus({ contactedAt: ago(H), createdAt: ago(D), creationState: 'started' }, now)).toBe('never_contacted');
    expect(managerStatus({ contactedAt: ago(H), createdAt: ago(D), creationState: 'finished' }, now)).toBe('online');
    expect(managerStatus({ contactedAt: ago(3 * H), createdAt: ago(D), creationState: 'finished' }, now)).toBe('offline');
    expect(managerStatus({ contactedAt: ago(9 * D), createdAt: ago(20 * D), creationState: 'finished' }, now)).toBe('stale');
  });
});
