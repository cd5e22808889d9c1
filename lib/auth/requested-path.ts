/** Set by proxy.ts on dashboard page requests: the path and query the visitor asked for. */
export const REQUESTED_PATH_HEADER = 'x-runway-requested-path';
