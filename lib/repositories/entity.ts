// GitLab's Commit entity (lib/api/entities/commit.rb), fields in its order. Dates keep the offset git
// recorded ("2014-02-27T10:05:10.000+02:00"), as GitLab renders commits read from the repository.
import { externalUrl } from '../config/env';

export interface CommitData {
  sha: string;
  parentShas: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: Date;
  authoredTzOffset: number;
  committerName: string;
  committerEmail: string;
  committedDate: Date;
  committedTzOffset: number;
  title: string;
  message: string;
  trailers: unknown;
  extendedTrailers: unknown;
}

/** An instant rendered in the given offset (minutes east of UTC), with milliseconds, as Ruby's iso8601(3). */
export function gitDate(date: Date, offsetMinutes: number): string {
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  const iso = shifted.toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${iso}${sign}${hh}:${mm}`;
}

/** GitLab's short_id: the first 8 characters of the SHA. */
export const shortSha = (sha: string) => sha.slice(0, 8);

export function commitWebUrl(project: { fullPath: string }, sha: string): string {
  return `${externalUrl()}/${project.fullPath}/-/commit/${sha}`;
}

/** GitLab's `full_title`: the message's first line, not truncated. */
export function commitTitle(message: string): string {
  return message.split(/[\r\n]/, 1)[0] ?? '';
}

/** The Commit entity (POST context commits, commits API, job commits). */
export function commitEntity(commit: CommitData, project: { fullPath: string }) {
  return {
    id: commit.sha,
    short_id: shortSha(commit.sha),
    created_at: gitDate(commit.committedDate, commit.committedTzOffset),
    parent_ids: commit.parentShas,
    title: commit.title,
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: gitDate(commit.authoredDate, commit.authoredTzOffset),
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: gitDate(commit.committedDate, commit.committedTzOffset),
    // Git trailers as GitLab shows them: key -> value (extended: key -> every value).
    trailers: (commit.trailers ?? {}) as Record<string, string>,
    extended_trailers: (commit.extendedTrailers ?? {}) as Record<string, string[]>,
    web_url: commitWebUrl(project, commit.sha),
  };
}
