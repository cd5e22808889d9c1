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
  currentUser: ['user'] as const,
};
