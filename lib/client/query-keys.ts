// TanStack Query keys, one factory per resource. List keys hold the URL's table state, so a page, filter
// or sort in the address bar is exactly one cache entry; invalidating `all` refreshes every variant.
export const queryKeys = {
  personalAccessTokens: {
    all: ['personal_access_tokens'] as const,
    list: (filters: { userId: number; page: number; perPage: number; state?: string }) =>
      ['personal_access_tokens', 'list', filters] as const,
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
    detail: (id: number) => ['runners', 'detail', id] as const,
    managers: (id: number) => ['runners', 'detail', id, 'managers'] as const,
    jobs: (id: number, filters: { page: number; perPage: number }) => ['runners', 'detail', id, 'jobs', filters] as const,
  },
  projects: {
    all: ['projects'] as const,
    /** `membership`: the caller's projects (non-admins); admins list every project. */
    list: (filters: { membership: boolean; search?: string; page: number; perPage: number }) => ['projects', 'list', filters] as const,
    detail: (fullPath: string) => ['projects', 'detail', fullPath] as const,
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
  /** The Admin area's users (GET /users as an administrator: emails, state, admin flag). */
  adminUsers: {
    all: ['admin', 'users'] as const,
    list: (filters: { search?: string; page: number; perPage: number }) => ['admin', 'users', 'list', filters] as const,
    detail: (id: number) => ['admin', 'users', 'detail', id] as const,
  },
  /** X-Total of each list the admin overview counts. */
  adminCounts: ['admin', 'counts'] as const,
  currentUser: ['user'] as const,
};
