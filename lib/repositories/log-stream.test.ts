// The git log stream parser: records split across chunks, trailers as GitLab exposes them, dates with offsets.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseGitIsoDate, parseLogStream, parseTrailers } from './log-stream';

const record = (sha: string, parents: string, message: string, trailers: string) =>
  [sha, parents, 'Ålice', 'a@example.com', '2024-03-04T08:00:00+02:00', '鈴木', 'b@example.com', '2024-03-04T09:15:30-05:30', message, trailers]
    .map((f) => `${f}\0`)
    .join('');

describe('[REPOSITORIES] git log stream', () => {
  it('parses records whatever the chunk boundaries', async () => {
    const text =
      record('a'.repeat(40), '', 'One\n', '') +
      '\n' +
      record('b'.repeat(40), `${'a'.repeat(40)} ${'c'.repeat(40)}`, 'Two\n\nBody\n', 'Signed-off-by\x1eX <x@e>\x1fSigned-off-by\x1eY <y@e>');
    const bytes = Buffer.from(text, 'utf8');
    // One byte per chunk splits multi-byte characters and NULs everywhere.
    const chunks = Array.from(bytes, (b) => Buffer.from([b]));
    const out = [];
    for await (const c of parseLogStream(Readable.from(chunks))) out.push(c);
    expect(out.map((c) => c.sha)).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
    expect(out[0].parentShas).toEqual([]);
    expect(out[1].parentShas).toEqual(['a'.repeat(40), 'c'.repeat(40)]);
    expect(out[1].title).toBe('Two');
    expect(out[1].authorName).toBe('Ålice');
    expect(out[1].committerName).toBe('鈴木');
    expect(out[1].committedTzOffset).toBe(-330);
    expect(out[1].committedDate.toISOString()).toBe('2024-03-04T14:45:30.000Z');
    expect(out[1].trailers).toEqual({ 'Signed-off-by': 'Y <y@e>' });
    expect(out[1].extendedTrailers).toEqual({ 'Signed-off-by': ['X <x@e>', 'Y <y@e>'] });
  });

  it('dates and trailers', () => {
    expect(parseGitIsoDate('2014-02-27T10:05:10+02:00')).toEqual({ date: new Date('2014-02-27T08:05:10Z'), offset: 120 });
    expect(parseTrailers('')).toEqual({ trailers: {}, extended: {} });
  });
});
