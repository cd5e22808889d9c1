'use client';
// A project's repository through /api/v4: a page of a ref's commits (GitLab gives no totals there, only
// X-Next-Page) and a page of branches, each keyed by what the URL holds.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../dashboard/session-provider';
import type { Branch, Commit } from '@/lib/client/types';
import { ApiError } from '@/lib/client/api';

export const COMMITS_PER_PAGE = 40;
export const BRANCHES_PER_PAGE = 20;

const repo = (fullPath: string) => `/projects/${encodeURIComponent(fullPath)}/repository`;

export function useCommitPage(fullPath: string, f: { ref: string; search?: string; author?: string; page: number }) {
  const api = useApi();
  return useQuery({
    queryKey: ['projects', 'detail', fullPath, 'commits', f],
    queryFn: () =>
      api.getPage<Commit>(`${repo(fullPath)}/commits`, { ref_name: f.ref, search: f.search, author: f.author, page: f.page, per_page: COMMITS_PER_PAGE }),
    placeholderData: keepPreviousData,
  });
}

export function useBranchPage(fullPath: string, f: { search?: string; page: number; perPage?: number }) {
  const api = useApi();
  const perPage = f.perPage ?? BRANCHES_PER_PAGE;
  return useQuery({
    queryKey: ['projects', 'detail', fullPath, 'branches', { ...f, perPage }],
    queryFn: () => api.getPage<Branch>(`${repo(fullPath)}/branches`, { search: f.search, page: f.page, per_page: perPage }),
    placeholderData: keepPreviousData,
  });
}

/** One branch (GET /repository/branches/:branch), or null when there is none of that name. */
export function useBranch(fullPath: string, name: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['projects', 'detail', fullPath, 'branches', 'one', name],
    queryFn: () =>
      api
        .get<Branch>(`${repo(fullPath)}/branches/${encodeURIComponent(name!)}`)
        .catch((e: unknown) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e))),
    enabled: name !== null,
  });
}
