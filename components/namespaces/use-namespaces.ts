'use client';
// Groups and projects through /api/v4: the dashboard lists (one page, keyed by the URL's search and page),
// a project or group by its URL-encoded full path, a group's subgroups and projects, and the viewer's
// inherited membership in a group or effective one in a project.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi, useCurrentUser } from '../dashboard/session-provider';
import { effectiveLevel } from '@/lib/client/access-levels';
import { ApiError, type ApiClient } from '@/lib/client/api';
import { groupRead, memberLevelRead, projectRead } from '@/lib/client/namespace-query';
import { queryKeys } from '@/lib/client/query-keys';
import type { Commit, Group, Member, Project, ProjectWithAccess } from '@/lib/client/types';

export const PER_PAGE = 20;

const encoded = (fullPath: string) => encodeURIComponent(fullPath);

/** GitLab's "Your projects": the caller's memberships; administrators list every project. */
export function useProjectList(filters: { search?: string; page: number }) {
  const api = useApi();
  const { admin } = useCurrentUser();
  const key = { membership: !admin, search: filters.search, page: filters.page, perPage: PER_PAGE };
  return useQuery({
    queryKey: queryKeys.projects.list(key),
    queryFn: () =>
      api.getPage<ProjectWithAccess>('/projects', {
        membership: key.membership || undefined,
        search: key.search,
        order_by: 'last_activity_at',
        page: key.page,
        per_page: key.perPage,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /groups: the caller's groups (all_available defaults to true for administrators: every group). */
export function useGroupList(filters: { search?: string; page: number }) {
  const api = useApi();
  const key = { search: filters.search, page: filters.page, perPage: PER_PAGE };
  return useQuery({
    queryKey: queryKeys.groups.list(key),
    queryFn: () => api.getPage<Group>('/groups', { search: key.search, page: key.page, per_page: key.perPage }),
    placeholderData: keepPreviousData,
  });
}

export function useProject(fullPath: string) {
  const api = useApi();
  const read = projectRead(fullPath);
  return useQuery({ queryKey: read.key, queryFn: () => api.get<ProjectWithAccess>(read.path, read.params) });
}

export function useGroup(fullPath: string, enabled = true) {
  const api = useApi();
  const read = groupRead(fullPath);
  return useQuery({ queryKey: read.key, queryFn: () => api.get<Group>(read.path, read.params), enabled });
}

export function useSubgroups(fullPath: string, page: number, enabled: boolean) {
  const api = useApi();
  const filters = { page, perPage: PER_PAGE };
  return useQuery({
    queryKey: queryKeys.groups.subgroups(fullPath, filters),
    queryFn: () => api.getPage<Group>(`/groups/${encoded(fullPath)}/subgroups`, { page, per_page: PER_PAGE }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useGroupProjects(fullPath: string, page: number, enabled: boolean) {
  const api = useApi();
  const filters = { page, perPage: PER_PAGE };
  return useQuery({
    queryKey: queryKeys.groups.projects(fullPath, filters),
    queryFn: () => api.getPage<Project>(`/groups/${encoded(fullPath)}/projects`, { order_by: 'name', sort: 'asc', page, per_page: PER_PAGE }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The access_level of a `members/all/:user_id` read; 0 when the API answers 404 (not a member). */
async function effectiveMemberLevel(api: ApiClient, path: string): Promise<number> {
  try {
    return (await api.get<Member>(path)).access_level;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 0;
    throw error;
  }
}

/** The viewer's access level in the group, inherited memberships included (0 when not a member). */
export function useGroupAccessLevel(fullPath: string, enabled: boolean) {
  const api = useApi();
  const { id } = useCurrentUser();
  const read = memberLevelRead('group', fullPath, id);
  return useQuery({ queryKey: read.key, queryFn: () => effectiveMemberLevel(api, read.path), enabled });
}

/**
 * The viewer's effective level in the project. The project entity's `permissions` carry only a direct
 * membership and the project's group (GitLab's project_access / group_access), not the groups the project
 * or its group is shared with; GET /projects/:id/members/all/:user_id answers with the level those give
 * too (a 404: none). It is asked by path, so it loads alongside the project; `level` is the higher of it and
 * what `permissions` say (the latter alone while it loads).
 */
export function useProjectAccessLevel(fullPath: string, project: ProjectWithAccess | undefined, enabled = true) {
  const api = useApi();
  const { id, admin } = useCurrentUser();
  const known = effectiveLevel(project?.permissions);
  const read = memberLevelRead('project', fullPath, id);
  const query = useQuery({ queryKey: read.key, queryFn: () => effectiveMemberLevel(api, read.path), enabled: enabled && !admin });
  return { level: Math.max(known, query.data ?? 0), isPending: query.isPending && query.fetchStatus !== 'idle', error: query.error, refetch: query.refetch };
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The newest commit of a ref (the project page's "last commit"), or null for an empty history. Here, not in repository/: that folder's pages load their project through this one. */
export function useLastCommit(fullPath: string, ref: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['projects', 'detail', fullPath, 'commits', { ref, perPage: 1 }],
    queryFn: async () =>
      (await api.getPage<Commit>(`/projects/${encodeURIComponent(fullPath)}/repository/commits`, { ref_name: ref ?? undefined, per_page: 1 })).items[0] ?? null,
    enabled: ref !== null,
  });
}
