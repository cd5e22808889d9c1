import { describe, expect, it } from 'vitest';
import { attachmentName, lastFullMonth, usageProgress } from './usage-export';

describe('usage export progress', () => {
  const csv =
    'Runner ID,Runner type,Runner description\r\n' +
    '7,group_type,"a, ""quoted""\r\ndescription",1\r\n' +
    '7,group_type,plain,2\r\n' +
    '9,instance_type,"x",3\r\n';

  it('counts rows and runners, whatever the cuts, quoted commas and line breaks included', () => {
    for (const size of [1, 2, 3, 5, 8, 13, csv.length]) {
      const p = usageProgress();
      for (let i = 0; i < csv.length; i += size) p.push(csv.slice(i, i + size));
      expect([p.rows, p.runners], `pieces of ${size}`).toEqual([3, 2]);
    }
  });

  it('reads the file name of the attachment, and the last full month in UTC', () => {
    expect(attachmentName('attachment; filename="instance-runner-usage-2026-11-01-to-2026-11-30.csv"', 'x.csv')).toBe(
      'instance-runner-usage-2026-11-01-to-2026-11-30.csv',
    );
    expect(attachmentName(null, 'runner-usage.csv')).toBe('runner-usage.csv');
    expect(lastFullMonth(new Date('2026-12-07T01:00:00Z'))).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(lastFullMonth(new Date('2026-01-31T23:00:00Z'))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
});
