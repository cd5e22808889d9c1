// A list of commits as GitLab's commit rows show them: title (linking to the commit page), author, when
// authored, and the short SHA. An optional leading control (the dialog's checkbox) per row.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { formatDateTime } from './format';
import { projectHref } from '@/lib/client/paths';
import type { Commit } from '@/lib/client/types';

/** A branch's (or tag's) history page; each path segment of the ref is encoded on its own. */
export const commitsHref = (fullPath: string, ref: string) => projectHref(fullPath, `commits/${ref.split('/').map(encodeURIComponent).join('/')}`);

export const commitHref = (fullPath: string, sha: string) => projectHref(fullPath, `commit/${sha}`);

/** `linkTitle` false (inside the dialog): plain text, so a click ticks rather than navigates away. */
export function CommitRow({
  fullPath,
  commit,
  lead,
  linkTitle = true,
  note,
}: {
  fullPath: string;
  commit: Commit;
  lead?: ReactNode;
  linkTitle?: boolean;
  note?: string;
}) {
  // With a checkbox, the whole row is its label: a click anywhere ticks it.
  const Row = lead ? 'label' : 'div';
  return (
    <li>
      <Row className={`flex items-start gap-3 px-4 py-3 ${lead ? 'cursor-pointer hover:bg-slate-50' : ''}`}>
        {lead}
        <div className="min-w-0 flex-1">
          <p className="break-words text-sm font-medium text-slate-900">
            {linkTitle ? (
              <Link href={commitHref(fullPath, commit.id)} className="hover:text-indigo-700 hover:underline">
                {commit.title || '(no title)'}
              </Link>
            ) : (
              commit.title || '(no title)'
            )}
          </p>
          {note && <p className="text-xs font-medium text-red-700">{note}</p>}
          <p className="mt-0.5 text-xs text-slate-600">
            <span className="font-medium text-slate-700">{commit.author_name}</span> authored{' '}
            <time dateTime={commit.authored_date}>{formatDateTime(commit.authored_date)}</time>
          </p>
        </div>
        {linkTitle ? (
          <Link
            href={commitHref(fullPath, commit.id)}
            className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 hover:underline"
            aria-label={`Commit ${commit.short_id}`}
          >
            {commit.short_id}
          </Link>
        ) : (
          <code className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{commit.short_id}</code>
        )}
      </Row>
    </li>
  );
}

export function CommitList({ label, fullPath, commits }: { label: string; fullPath: string; commits: Commit[] }) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {commits.map((c) => (
        <CommitRow key={c.id} fullPath={fullPath} commit={c} />
      ))}
    </ul>
  );
}
