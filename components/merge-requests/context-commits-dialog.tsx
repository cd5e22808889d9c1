'use client';
// "Add or remove previously merged commits" (GitLab's add_context_commits_modal, in our own words and
// code): the target branch's commits, searched on the server by title or SHA, author and dates, loaded
// 40 at a time as the list scrolls; ticks select, and commits already in the MR's context come ticked
// (unticking one removes it). Save sends one POST for additions and one DELETE for removals.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Dialog } from '../ui/dialog';
import { EmptyState, InlineError, Spinner } from '../ui/states';
import { errorText } from '@/lib/client/error-text';
import type { Commit } from '@/lib/client/types';
import { CommitRow } from '../shared/commit-list';
import { toast } from '../ui/toast';
import { CONTEXT_COMMITS_LIMIT, PartialSaveError, SaveStepError, useCommitSearch, useSaveContextCommits, type CommitSearch } from './use-merge-requests';
import { TabList, tabProps } from '../ui/tabs';

// GitLab's usual search debounce (DEFAULT_DEBOUNCE_AND_THROTTLE_MS).
const SEARCH_DELAY_MS = 250;

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(t);
  }, [value, delay]);
  return debounced;
}

export interface ContextCommitsDialogProps {
  open: boolean;
  onClose: () => void;
  fullPath: string;
  iid: number;
  targetBranch: string;
  /** The MR's context commits now. */
  existing: Commit[];
}

export function ContextCommitsDialog(props: ContextCommitsDialogProps) {
  return (
    <Dialog open={props.open} title="Add or remove previously merged commits" onClose={props.onClose} size="wide">
      <DialogBody {...props} />
    </Dialog>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function DialogBody({ onClose, fullPath, iid, targetBranch, existing }: ContextCommitsDialogProps) {
  const ids = useId();
  const [tab, setTab] = useState<'commits' | 'selected'>('commits');
  const [filters, setFilters] = useState<Required<Omit<CommitSearch, 'ref'>>>({ search: '', author: '', since: '', until: '' });
  const debounced = useDebounced(filters, SEARCH_DELAY_MS);
  const query: CommitSearch = {
    ref: targetBranch,
    search: debounced.search.trim() || undefined,
    author: debounced.author.trim() || undefined,
    since: debounced.since || undefined,
    until: debounced.until || undefined,
  };
  // An inverted range can match nothing: say why at the dates instead of searching for "No commits found".
  const inverted = !!(filters.since && filters.until && filters.since > filters.until);
  const commits = useCommitSearch(fullPath, query, tab === 'commits' && !inverted);
  const [selected, setSelected] = useState(() => new Map(existing.map((c) => [c.id, c])));
  const save = useSaveContextCommits(fullPath, iid);

  const existingIds = useMemo(() => new Set(existing.map((c) => c.id)), [existing]);
  const toAdd = [...selected.keys()].filter((sha) => !existingIds.has(sha));
  const toRemove = existing.filter((c) => !selected.has(c.id)).map((c) => c.id);
  const atLimit = toAdd.length >= CONTEXT_COMMITS_LIMIT;
  const typing = filters !== debounced;

  function toggle(c: Commit, on: boolean) {
    save.reset();
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(c.id, c);
      else next.delete(c.id);
      return next;
    });
  }

  async function onSave() {
    try {
      await save.mutateAsync({ add: toAdd, remove: toRemove });
      // Confirmed like every completed write (a toast), since the dialog closes.
      toast.success(savedMessage(toAdd.length, toRemove.length));
      onClose();
    } catch {
      // Shown below from save.error.
    }
  }

  // Load the next page when the end of the list scrolls into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = commits;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, tab]);

  const listed = commits.data?.pages.flatMap((p) => p.items) ?? [];
  // The selected tab also keeps unticked context commits (to be removed), so a removal can be undone there.
  const selectedList = [...selected.values(), ...existing.filter((c) => !selected.has(c.id))].sort((a, b) => b.committed_date.localeCompare(a.committed_date));
  const tabClass = (active: boolean) =>
    cn(
      '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
      active ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900',
    );
  const inputClass =
    'block h-9 w-full rounded-md border-0 px-3 text-sm text-slate-900 shadow-sm outline-none ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600';

  const checkbox = (c: Commit) => {
    const on = selected.has(c.id);
    return (
      <input
        type="checkbox"
        className="mt-1 size-4 shrink-0 accent-indigo-600"
        checked={on}
        disabled={!on && !existingIds.has(c.id) && atLimit}
        onChange={(e) => toggle(c, e.target.checked)}
        aria-label={`${c.title} (${c.short_id})`}
      />
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <TabList label="Commits to choose from" className="flex gap-1 border-b border-slate-200">
        <button
          type="button"
          {...tabProps(tab === 'commits')}
          id={`${ids}-t1`}
          aria-controls={`${ids}-p1`}
          className={tabClass(tab === 'commits')}
          onClick={() => setTab('commits')}
        >
          Commits in {targetBranch}
        </button>
        <button
          type="button"
          {...tabProps(tab === 'selected')}
          id={`${ids}-t2`}
          aria-controls={`${ids}-p2`}
          className={tabClass(tab === 'selected')}
          onClick={() => setTab('selected')}
        >
          Selected commits <span className="ml-1 rounded-full bg-slate-100 px-2 text-xs text-slate-700">{selected.size}</span>
        </button>
      </TabList>

      {tab === 'commits' ? (
        <div role="tabpanel" id={`${ids}-p1`} aria-labelledby={`${ids}-t1`} className="flex flex-col gap-3">
          <div className="grid gap-2 sm:grid-cols-3">
            <label className="flex flex-col gap-1 sm:col-span-3">
              <span className="text-xs font-medium text-slate-700">Search by commit title or SHA</span>
              <input
                type="search"
                data-autofocus
                className={inputClass}
                value={filters.search}
                placeholder="Search by commit title or SHA"
                onChange={(e) => setFilters({ ...filters, search: e.target.value })}
              />
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs font-medium text-slate-700">Author</span>
              <input
                type="search"
                className={inputClass}
                value={filters.author}
                placeholder="Name or email"
                onChange={(e) => setFilters({ ...filters, author: e.target.value })}
              />
            </label>
            {(['since', 'until'] as const).map((key) => (
              <label key={key} className="flex flex-col gap-1">
                <span className="text-xs font-medium text-slate-700">{key === 'since' ? 'Committed after' : 'Committed before'}</span>
                <input
                  type="date"
                  className={inverted ? inputClass.replace('ring-slate-300', 'ring-red-600') : inputClass}
                  value={filters[key]}
                  aria-invalid={inverted || undefined}
                  aria-describedby={inverted ? `${ids}-dates` : undefined}
                  onChange={(e) => setFilters({ ...filters, [key]: e.target.value })}
                />
              </label>
            ))}
            {inverted && (
              <p id={`${ids}-dates`} role="alert" className="text-sm text-red-700 sm:col-span-3">
                The “Committed after” date must be on or before the “Committed before” date.
              </p>
            )}
          </div>
          <p className="text-xs text-slate-500" aria-live="polite">
            {!inverted && (typing || (commits.isFetching && !isFetchingNextPage)) ? (
              <Spinner label="Searching…" />
            ) : (
              `You can add up to ${CONTEXT_COMMITS_LIMIT} commits at a time.`
            )}
          </p>
          <div className="max-h-[38vh] overflow-y-auto rounded-lg border border-slate-200">
            {inverted ? (
              <EmptyState title="Change the dates to see commits" />
            ) : commits.isPending ? (
              <div className="flex justify-center py-8">
                <Spinner label="Loading commits…" />
              </div>
            ) : commits.error ? (
              <div className="p-3">
                <InlineError>{errorText(commits.error, 'Failed to load commits.')}</InlineError>
              </div>
            ) : listed.length ? (
              <>
                <ul
                  aria-label={`Commits in ${targetBranch}`}
                  className={cn('divide-y divide-slate-200', commits.isFetching && !isFetchingNextPage && 'opacity-60')}
                >
                  {listed.map((c) => (
                    <CommitRow key={c.id} fullPath={fullPath} commit={c} lead={checkbox(c)} linkTitle={false} />
                  ))}
                </ul>
                <div ref={sentinel} className="flex justify-center p-2">
                  {hasNextPage && (
                    <Button variant="ghost" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                      {isFetchingNextPage ? 'Loading…' : 'Load more commits'}
                    </Button>
                  )}
                </div>
              </>
            ) : (
              <EmptyState title="No commits found">Try a different title, SHA, author or dates.</EmptyState>
            )}
          </div>
        </div>
      ) : (
        <div role="tabpanel" id={`${ids}-p2`} aria-labelledby={`${ids}-t2`} className="max-h-[50vh] overflow-y-auto rounded-lg border border-slate-200">
          {selectedList.length ? (
            <ul aria-label="Selected commits" className="divide-y divide-slate-200">
              {selectedList.map((c) => (
                <CommitRow
                  key={c.id}
                  fullPath={fullPath}
                  commit={c}
                  lead={checkbox(c)}
                  linkTitle={false}
                  note={selected.has(c.id) ? undefined : 'Will be removed'}
                />
              ))}
            </ul>
          ) : (
            <EmptyState title="No commits selected">Tick commits on the first tab to add them.</EmptyState>
          )}
        </div>
      )}

      {atLimit && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          You have selected {CONTEXT_COMMITS_LIMIT} new commits, the most that can be added at once. Save them before adding more.
        </p>
      )}
      {save.error && <InlineError>{saveErrorMessage(save.error)}</InlineError>}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          {toAdd.length || toRemove.length
            ? [toAdd.length ? `${plural(toAdd.length, 'commit')} to add` : null, toRemove.length ? `${plural(toRemove.length, 'commit')} to remove` : null]
                .filter(Boolean)
                .join(', ')
            : 'No changes yet.'}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onSave} disabled={save.isPending || (!toAdd.length && !toRemove.length)}>
            {save.isPending ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** GitLab's failure wording with the API's reason in plain words; after a partial save, what was kept. */
function saveErrorMessage(error: Error): string {
  if (error instanceof PartialSaveError) {
    const shorts = error.notRemoved.map((sha) => sha.slice(0, 8)).join(', ');
    return (
      `Saved: ${plural(error.saved.added.length, 'commit')} added. ` +
      `${errorText(error.cause, `Failed to remove context commits (${shorts}).`)} ` +
      'The list shows what was saved; save again to retry the removal.'
    );
  }
  if (error instanceof SaveStepError) {
    return errorText(error.cause, error.step === 'create' ? 'Failed to create context commits.' : 'Failed to remove context commits.');
  }
  return errorText(error);
}

/** "Context commits saved: 3 commits added, 1 commit removed." */
function savedMessage(added: number, removed: number): string {
  const parts = [added && `${plural(added, 'commit')} added`, removed && `${plural(removed, 'commit')} removed`].filter(Boolean);
  return `Context commits saved: ${parts.join(', ')}.`;
}
