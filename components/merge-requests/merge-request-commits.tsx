'use client';
// The Commits tab: the merge request's own commits (paged, page in the URL), then "Previously merged
// commits", its context commits, with the dialog that adds and removes them for those who may.
import { useRef, useState } from 'react';
import { Button } from '../ui/button';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { pageParam, useUrlState } from '@/lib/client/url-state';
import { CommitList } from '../shared/commit-list';
import { ContextCommitsDialog } from './context-commits-dialog';
import { useContextCommits, useMergeRequestCommits } from './use-merge-requests';

export function MergeRequestCommits({ fullPath, iid, targetBranch, canUpdate }: { fullPath: string; iid: number; targetBranch: string; canUpdate: boolean }) {
  const { params, update } = useUrlState();
  const page = pageParam(params);
  const commits = useMergeRequestCommits(fullPath, iid, page);
  const context = useContextCommits(fullPath, iid);
  const [dialogOpen, setDialogOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="mr-commits-heading" className="flex flex-col gap-3">
        <h2 id="mr-commits-heading" className="text-base font-semibold text-slate-900">
          Commits{commits.data?.total !== undefined && <span className="ml-2 text-sm font-normal text-slate-500">{commits.data.total}</span>}
        </h2>
        {commits.isPending ? (
          <LoadingState label="Loading commits…" />
        ) : commits.error ? (
          <ErrorState title="Could not load the commits" error={commits.error} onRetry={() => commits.refetch()} />
        ) : commits.data.items.length ? (
          <>
            <CommitList label="Commits" fullPath={fullPath} commits={commits.data.items} />
            {(commits.data.prevPage || commits.data.nextPage) && (
              <nav aria-label="Commits pagination" className="flex items-center justify-between text-sm text-slate-600">
                <Button variant="secondary" size="sm" disabled={!commits.data.prevPage} onClick={() => update({ page: page - 1 })}>
                  Previous
                </Button>
                <span>
                  Page {page}
                  {commits.data.totalPages ? ` of ${commits.data.totalPages}` : ''}
                </span>
                <Button variant="secondary" size="sm" disabled={!commits.data.nextPage} onClick={() => update({ page: page + 1 })}>
                  Next
                </Button>
              </nav>
            )}
          </>
        ) : (
          <EmptyState title="No commits">The source branch has no commits that are not in the target branch.</EmptyState>
        )}
      </section>

      <section aria-labelledby="context-commits-heading" className="flex flex-col gap-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="context-commits-heading" className="text-base font-semibold text-slate-900">
            Previously merged commits
            {context.data && <span className="ml-2 text-sm font-normal text-slate-500">{context.data.length}</span>}
          </h2>
          {canUpdate && (
            <Button ref={openButton} variant="secondary" size="sm" onClick={() => setDialogOpen(true)} disabled={!context.data}>
              Add previously merged commits
            </Button>
          )}
        </div>
        {context.isPending ? (
          <LoadingState label="Loading previously merged commits…" />
        ) : context.error ? (
          <ErrorState title="Could not load the previously merged commits" error={context.error} onRetry={() => context.refetch()} />
        ) : context.data.length ? (
          <CommitList label="Previously merged commits" fullPath={fullPath} commits={context.data} />
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">
            No previously merged commits.{canUpdate ? ' Add commits already merged into the target branch to give reviewers context.' : ''}
          </p>
        )}
      </section>

      {canUpdate && context.data && (
        <ContextCommitsDialog
          open={dialogOpen}
          onClose={() => {
            setDialogOpen(false);
            // The native dialog restores focus too; this also covers the button re-rendering meanwhile.
            requestAnimationFrame(() => openButton.current?.focus());
          }}
          fullPath={fullPath}
          iid={iid}
          targetBranch={targetBranch}
          existing={context.data}
        />
      )}
    </div>
  );
}
