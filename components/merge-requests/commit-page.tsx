'use client';
// A commit (/<full_path>/-/commit/<sha>): title, the rest of the message, trailers, parents, author and
// committer, from GET /projects/:id/repository/commits/:sha.
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DetailsList } from '../namespaces/details-list';
import { isNotFound } from '../namespaces/use-namespaces';
import { formatDateTime } from '../shared/format';
import { ErrorState, LoadingState } from '../ui/states';
import { commitHref } from '../shared/commit-list';
import { ProjectBreadcrumbs } from '../namespaces/breadcrumbs';
import { useCommit } from './use-merge-requests';

/** The message after its title line (GitLab's description), trailers included as git stores them. */
const messageBody = (message: string) => message.split('\n').slice(1).join('\n').trim();

export function CommitPage({ fullPath, sha }: { fullPath: string; sha: string }) {
  const commit = useCommit(fullPath, sha);
  if (commit.isPending) return <LoadingState />;
  if (commit.error) {
    if (isNotFound(commit.error)) notFound();
    return <ErrorState title="Could not load the commit" error={commit.error} onRetry={() => commit.refetch()} />;
  }
  const c = commit.data;
  const body = messageBody(c.message);
  const trailers = Object.entries(c.trailers ?? {});
  return (
    <div className="flex flex-col gap-5">
      <ProjectBreadcrumbs fullPath={fullPath} trail={[{ label: `Commit ${c.short_id}` }]} />
      <header className="flex flex-col gap-1">
        <p className="text-sm text-slate-600">
          Commit <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{c.id}</code>
        </p>
        <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">{c.title || '(no title)'}</h1>
      </header>
      {body && (
        <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-white p-4 font-mono text-sm text-slate-800">
          {body}
        </pre>
      )}
      <DetailsList
        items={[
          { term: 'Author', value: <Person name={c.author_name} email={c.author_email} date={c.authored_date} verb="authored" /> },
          { term: 'Committer', value: <Person name={c.committer_name} email={c.committer_email} date={c.committed_date} verb="committed" /> },
          {
            term: c.parent_ids && c.parent_ids.length === 1 ? 'Parent' : 'Parents',
            value: c.parent_ids?.length ? (
              <span className="flex flex-wrap gap-2">
                {c.parent_ids.map((p) => (
                  <Link key={p} href={commitHref(fullPath, p)} className="font-mono text-xs text-indigo-700 hover:underline">
                    {p.slice(0, 8)}
                  </Link>
                ))}
              </span>
            ) : (
              <span className="text-slate-500">None (root commit)</span>
            ),
          },
          ...(trailers.length
            ? [
                {
                  term: 'Trailers',
                  value: (
                    <ul className="flex flex-col gap-0.5">
                      {trailers.map(([k, v]) => (
                        <li key={k}>
                          <span className="font-medium">{k}:</span> {v}
                        </li>
                      ))}
                    </ul>
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}

function Person({ name, email, date, verb }: { name: string; email: string; date: string; verb: string }) {
  return (
    <span>
      <span className="font-medium text-slate-900">{name}</span> <span className="text-slate-500">&lt;{email}&gt;</span> {verb}{' '}
      <time dateTime={date}>{formatDateTime(date)}</time>
    </span>
  );
}
