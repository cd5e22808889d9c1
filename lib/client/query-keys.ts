// TanStack Query keys, one factory per resource. List keys hold the URL's table state, so a page, filter
// or sort in the address bar is exactly one cache entry; invalidating `all` refreshes every variant.
export const queryKeys = {
  /** Audit events of one source (`/audit_events`, `/runners/1/audit_events`, ...), keyed by its filters. */
  auditEvents: (source: string, filters: Record<string, unknown>) => ['audit_events', source, filters] as const,
  personalAccessTokens: {
    all: ['personal_access_tokens'] as const,
    list: (filters: { userId: number; page: number; perPage: number; state?: string }) => ['personal_access_tokens', 'list', filters] as const,
  },
  userSessions: ['user', 'sessions'] as const,
  runners: {
    all: ['runners'] as const,
    /** `scope` is the endpoint: every runner (/runners/all, admins) or the caller's (/runners). */
    list: (filters: {
      scope: 'all' | 'owned';
      page: number;
      perPage: number;
      type?: string;
      status?: string;
      paused?: boolean;
      tagList?: string;
      versionPrefix?: string;
    }) => ['runners', 'list', filters] as const,
    /** A page of the list with details (admin, owned or a group's), keyed by the URL's filters. */
    listPage: (source: string, filters: Record<string, unknown>) => ['runners', 'list', source, 'page', filters] as const,
    /** X-Total of the list for a tab or a status. */
    listCount: (source: string, filters: Record<string, unknown>) => ['runners', 'list', source, 'count', filters] as const,
    detail: (id: number) => ['runners', 'detail', id] as const,
    managers: (id: number) => ['runners', 'detail', id, 'managers'] as const,
    jobs: (id: number, filters: { page: number; perPage: number; status?: string }) => ['runners', 'detail', id, 'jobs', filters] as const,
    projects: (id: number, filters: { page: number; perPage: number; search?: string }) => ['runners', 'detail', id, 'projects', filters] as const,
  },
  projects: {
    all: ['projects'] as const,
    /** `membership`: the caller's projects (non-admins); admins list every project. */
    list: (filters: { membership: boolean; search?: string; page: number; perPage: number }) => ['projects', 'list', filters] as const,
    detail: (fullPath: string) => ['projects', 'detail', fullPath] as const,
    /** A tab of the project's CI/CD settings "Runners" section: assigned, assignable, group or instance runners. */
    runners: (fullPath: string, list: string, page: number) => ['projects', 'detail', fullPath, 'runners', list, page] as const,
    /** The viewer's effective membership (shares included), for what the page offers them. */
    access: (fullPath: string, userId: number) => ['projects', 'detail', fullPath, 'access', userId] as const,
  },
  groups: {
    all: ['groups'] as const,
    list: (filters: { search?: string; page: number; perPage: number }) => ['groups', 'list', filters] as const,
    detail: (fullPath: string) => ['groups', 'detail', fullPath] as const,
    subgroups: (fullPath: string, filters: { page: number; perPage: number }) => ['groups', 'detail', fullPath, 'subgroups', filters] as const,
    projects: (fullPath: string, filters: { page: number; perPage: number }) => ['groups', 'detail', fullPath, 'projects', filters] as const,
    /** The viewer's effective (inherited) membership, for what the page offers them. */
    access: (fullPath: string, userId: number) => ['groups', 'detail', fullPath, 'access', userId] as const,
  },
  mergeRequests: {
    all: (project: string) => ['merge_requests', project] as const,
    list: (project: string, filters: { state: string; sort: string; page: number; perPage: number }) => ['merge_requests', project, 'list', filters] as const,
    /** A state tab's total under the filter bar's API parameters. */
    count: (project: string, filters: { state: string } & Record<string, string | undefined>) => ['merge_requests', project, 'count', filters] as const,
    branchSuggestions: (project: string, search: string) => ['merge_requests', project, 'branch_suggestions', search] as const,
    detail: (project: string, iid: number) => ['merge_requests', project, 'detail', iid] as const,
    commits: (project: string, iid: number, page: number) => ['merge_requests', project, 'detail', iid, 'commits', page] as const,
    contextCommits: (project: string, iid: number) => ['merge_requests', project, 'detail', iid, 'context_commits'] as const,
  },
  commits: {
    list: (project: string, filters: { ref?: string; search?: string; author?: string; since?: string; until?: string }) =>
      ['commits', project, 'list', filters] as const,
    detail: (project: string, sha: string) => ['commits', project, 'detail', sha] as const,
  },
  /** The Admin area's users (GET /users as an administrator: emails, state, admin flag). */
  adminUsers: {
    all: ['admin', 'users'] as const,
    list: (filters: { search?: string; page: number; perPage: number }) => ['admin', 'users', 'list', filters] as const,
    detail: (id: number) => ['admin', 'users', 'detail', id] as const,
  },
  /** The fleet overview's reads (Runway extension, /runners/fleet/*), one per chart. */
  fleet: {
    all: ['runners', 'fleet'] as const,
    part: (name: string, days?: number) => ['runners', 'fleet', name, days ?? null] as const,
  },
  /** X-Total of each list the admin overview counts. */
  adminCounts: ['admin', 'counts'] as const,
  currentUser: ['user'] as const,
  /** GET /openapi.json, the API reference's document. */
  openApi: ['openapi'] as const,
};
