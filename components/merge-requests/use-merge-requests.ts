'use client';
// Merge requests, their commits and context commits, and the repository's commits, through /api/v4.
import { keepPreviousData, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import type { ApiClient } from '@/lib/client/api';
import { queryKeys } from '@/lib/client/query-keys';
import type { MrFilters, MrStateFilter } from '@/lib/client/merge-request-filters';
import { MR_PER_PAGE, mergeRequestCountRead, mergeRequestListRead } from '@/lib/client/merge-request-query';
import type { Branch, Commit, MergeRequest } from '@/lib/client/types';

export { MR_PER_PAGE };
/** GitLab's context-commits modal asks for 40 commits at a time. */
export const DIALOG_PER_PAGE = 40;
/** POST .../context_commits takes at most this many (CONTEXT_COMMITS_POST_LIMIT). */
export const CONTEXT_COMMITS_LIMIT = 20;

export const projectApiPath = (fullPath: string) => `/projects/${encodeURIComponent(fullPath)}`;
const mrPath = (fullPath: string, iid: number) => `${projectApiPath(fullPath)}/merge_requests/${iid}`;

/** A page of the list: the state tab, the bar's filters, the sort and the page, as the URL holds them. */
export function useMergeRequestList(fullPath: string, f: MrFilters) {
  const api = useApi();
  const read = mergeRequestListRead(fullPath, f);
  return useQuery({ queryKey: read.key, queryFn: () => api.getPage<MergeRequest>(read.path, read.params), placeholderData: keepPreviousData });
}

/** X-Total of each state tab under the bar's filters, from per_page=1 requests (as GitLab's tabs count). */
export function useMergeRequestCounts(fullPath: string, states: MrStateFilter[], f: MrFilters) {
  const api = useApi();
  return useQueries({
    queries: states.map((state) => {
      const read = mergeRequestCountRead(fullPath, state, f);
      return { queryKey: read.key, queryFn: async () => (await api.getPage<MergeRequest>(read.path, read.params)).total ?? 0 };
    }),
  });
}

/** Branches for the Source and Target branch tokens (GET /repository/branches?search=). */
export function useBranchSuggestions(fullPath: string, search: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.mergeRequests.branchSuggestions(fullPath, search),
    queryFn: () => api.get<Branch[]>(`${projectApiPath(fullPath)}/repository/branches`, { search: search || undefined, per_page: 10 }),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useMergeRequest(fullPath: string, iid: number) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.mergeRequests.detail(fullPath, iid), queryFn: () => api.get<MergeRequest>(mrPath(fullPath, iid)) });
}

export function useMergeRequestCommits(fullPath: string, iid: number, page: number) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.mergeRequests.commits(fullPath, iid, page),
    queryFn: () => api.getPage<Commit>(`${mrPath(fullPath, iid)}/commits`, { page, per_page: MR_PER_PAGE }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Every context commit of the MR (the dialog needs them all to tick them), 100 a page, shown newest committed
 * first as GitLab's page shows them (MergeRequest#context_commits). The API lists them in insertion order, as
 * GitLab's does, so the page sorts here; equal dates keep the latest added first.
 */
async function allContextCommits(api: ApiClient, fullPath: string, iid: number): Promise<Commit[]> {
  const out: Commit[] = [];
  for (let page = 1; ; page++) {
    const res = await api.getPage<Commit>(`${mrPath(fullPath, iid)}/context_commits`, { page, per_page: 100 });
    out.push(...res.items);
    if (!res.nextPage) return newestCommittedFirst(out);
  }
}

/** Newest committed first; among equal dates the later in `commits` (added later) first. */
export function newestCommittedFirst(commits: Commit[]): Commit[] {
  return commits
    .map((c, i) => ({ c, i, t: Date.parse(c.committed_date) }))
    .sort((a, b) => b.t - a.t || b.i - a.i)
    .map((x) => x.c);
}

export function useContextCommits(fullPath: string, iid: number) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.mergeRequests.contextCommits(fullPath, iid), queryFn: () => allContextCommits(api, fullPath, iid) });
}

export interface CommitSearch {
  ref?: string;
  search?: string;
  author?: string;
  /** yyyy-mm-dd: committed on or after this day. */
  since?: string;
  /** yyyy-mm-dd: committed on or before this day. */
  until?: string;
}

/** The repository's commits, newest first, 40 at a time, searched on the server. */
export function useCommitSearch(fullPath: string, f: CommitSearch, enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: queryKeys.commits.list(fullPath, f),
    queryFn: ({ pageParam }) =>
      api.getPage<Commit>(`${projectApiPath(fullPath)}/repository/commits`, {
        ref_name: f.ref,
        search: f.search,
        author: f.author,
        since: f.since ? `${f.since}T00:00:00Z` : undefined,
        until: f.until ? `${f.until}T23:59:59Z` : undefined,
        page: pageParam,
        per_page: DIALOG_PER_PAGE,
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage,
    enabled,
  });
}

export function useCommit(fullPath: string, sha: string) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.commits.detail(fullPath, sha),
    queryFn: () => api.get<Commit>(`${projectApiPath(fullPath)}/repository/commits/${encodeURIComponent(sha)}`),
  });
}

/** What a save did, step by step, so a failure after a partial success can say exactly what was kept. */
export interface SaveOutcome {
  added: string[];
  removed: string[];
}

export class PartialSaveError extends Error {
  constructor(
    readonly saved: SaveOutcome,
    /** The removals the failed DELETE left in place. */
    readonly notRemoved: string[],
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** The step of a save that failed with nothing saved before it: GitLab words the two failures differently. */
export class SaveStepError extends Error {
  constructor(
    readonly step: 'create' | 'remove',
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** One POST for additions, then one DELETE for removals; the MR's context commits are refetched after. */
export function useSaveContextCommits(fullPath: string, iid: number) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ add, remove }: { add: string[]; remove: string[] }): Promise<SaveOutcome> => {
      const saved: SaveOutcome = { added: [], removed: [] };
      if (add.length) {
        try {
          await api.post(`${mrPath(fullPath, iid)}/context_commits`, { commits: add });
        } catch (error) {
          throw new SaveStepError('create', error);
        }
        saved.added = add;
      }
      if (remove.length) {
        const qs = new URLSearchParams();
        remove.forEach((sha) => qs.append('commits[]', sha));
        try {
          await api.delete(`${mrPath(fullPath, iid)}/context_commits?${qs}`);
        } catch (error) {
          if (saved.added.length) throw new PartialSaveError(saved, remove, error);
          throw new SaveStepError('remove', error);
        }
        saved.removed = remove;
      }
      return saved;
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.mergeRequests.contextCommits(fullPath, iid) }),
  });
}
