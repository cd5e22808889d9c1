import { describe, expect, it } from 'vitest';
import { durationAxis, formatCount, formatDay, formatDuration } from './fleet-format';

describe('[FLEET] formatting', () => {
  it.each([
    [null, '–'],
    [0.25, '250 ms'],
    [2.5, '2.5 s'],
    [59.94, '59.9 s'],
    [200, '3 min 20 s'],
    [120, '2 min'],
    [3900, '1 h 5 min'],
    [7200, '2 h'],
  ])('duration %s is %s', (s, text) => expect(formatDuration(s)).toBe(text));

  it('writes counts and UTC days', () => {
    expect(formatCount(105000)).toBe('105,000');
    expect(formatCount(null)).toBe('–');
    expect(formatDay('2026-11-24')).toBe('Nov 24');
  });
});

describe('durationAxis', () => {
  it('writes every tick in the unit of the largest value', () => {
    const axis = durationAxis([0.2, 4.5, 12, null]);
    expect(axis.unit).toBe('s');
    expect([0, 2.5, 5, 7.5, 10].map(axis.format)).toEqual(['0 s', '2.5 s', '5 s', '7.5 s', '10 s']);
    expect(durationAxis([0.05, 0.8]).format(0)).toBe('0 ms');
    expect(durationAxis([90, 1800]).format(600)).toBe('10 min');
    expect(durationAxis([7200]).format(5400)).toBe('1.5 h');
    expect(durationAxis([]).unit).toBe('ms');
  });
});
