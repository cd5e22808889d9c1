// Streams `git log` of a mirror as parsed commits, one at a time: fields are NUL-terminated, so the
// parser never holds more than the commit it is reading, whatever the size of the history.
import type { Readable } from 'node:stream';
import { commitTitle, type CommitData } from './entity';

// Trailers as git parses them (%(trailers:only,unfold)), key and value separated by 0x1e, one per 0x1f.
const FORMAT = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B', '%(trailers:only=true,unfold=true,separator=%x1f,key_value_separator=%x1e)']
  .map((f) => `${f}%x00`)
  .join('');
const FIELDS = 10;

export const LOG_ARGS = ['-c', 'log.showSignature=false', '-c', 'i18n.logOutputEncoding=UTF-8', 'log', '--all', '--no-color', `--format=format:${FORMAT}`];

/** "2014-02-27T10:05:10+02:00" -> the instant and the offset in minutes east of UTC. */
export function parseGitIsoDate(text: string): { date: Date; offset: number } {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return { date: new Date(text.endsWith('Z') || m ? text : `${text}Z`), offset };
}

/** GitLab's two views of trailers: the last value per key, and every value per key. */
export function parseTrailers(text: string): { trailers: Record<string, string>; extended: Record<string, string[]> } {
  const trailers: Record<string, string> = {};
  const extended: Record<string, string[]> = {};
  for (const entry of text.split('\x1f')) {
    const sep = entry.indexOf('\x1e');
    if (sep <= 0) continue;
    const key = entry.slice(0, sep).trim();
    const value = entry.slice(sep + 1).trim();
    if (!key) continue;
    trailers[key] = value;
    (extended[key] ??= []).push(value);
  }
  return { trailers, extended };
}

function toCommit(f: string[]): CommitData {
  const authored = parseGitIsoDate(f[4]);
  const committed = parseGitIsoDate(f[7]);
  const { trailers, extended } = parseTrailers(f[9]);
  return {
    sha: f[0].replace(/^\s+/, ''),
    parentShas: f[1] ? f[1].split(' ').filter(Boolean) : [],
    authorName: f[2],
    authorEmail: f[3],
    authoredDate: authored.date,
    authoredTzOffset: authored.offset,
    committerName: f[5],
    committerEmail: f[6],
    committedDate: committed.date,
    committedTzOffset: committed.offset,
    title: commitTitle(f[8]),
    message: f[8],
    trailers,
    extendedTrailers: extended,
  };
}

/** Yields commits from a git log stream produced with LOG_ARGS. */
export async function* parseLogStream(stream: Readable): AsyncGenerator<CommitData> {
  let pending: Buffer = Buffer.alloc(0);
  let fields: string[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (let nul = pending.indexOf(0, start); nul !== -1; nul = pending.indexOf(0, start)) {
      fields.push(pending.subarray(start, nul).toString('utf8'));
      start = nul + 1;
      if (fields.length === FIELDS) {
        yield toCommit(fields);
        fields = [];
      }
    }
    pending = pending.subarray(start);
  }
}
