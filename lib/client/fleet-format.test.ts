import { describe, expect, it } from 'vitest';
import { formatCount, formatDay, formatDuration } from './fleet-format';

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
