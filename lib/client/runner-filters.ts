// The Runners page's list state as it lives in the URL
// (?type=&status=&paused=&tag_list=&version_prefix=&search=&owner_group_id=&owner_project_id=&sort=&membership=&page=).
// Parsing drops values the API would refuse, so a hand-edited address never shows a 400 for a typo'd
// type or status; version_prefix is passed through so the API's own message explains a bad one.
import type { RunnerStatus, RunnerType } from './types';

export const RUNNER_TYPES: Array<{ value: RunnerType; label: string }> = [
  { value: 'instance_type', label: 'Instance' },
  { value: 'group_type', label: 'Group' },
  { value: 'project_type', label: 'Project' },
];

export type StatusFilter = Exclude<RunnerStatus, 'paused'>;

export const STATUS_FILTERS: Array<{ value: StatusFilter; label: string }> = [
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
  { value: 'stale', label: 'Stale' },
  { value: 'never_contacted', label: 'Never contacted' },
];

/** GitLab's runner list sorts (its URL values); the default is CREATED_DESC, as in GitLab. */
export const RUNNER_SORTS = [
  { value: 'CREATED_DESC', label: 'Created date (newest first)', orderBy: 'created_at', sort: 'desc' },
  { value: 'CREATED_ASC', label: 'Created date (oldest first)', orderBy: 'created_at', sort: 'asc' },
  { value: 'CONTACTED_DESC', label: 'Last contact (most recent first)', orderBy: 'contacted_at', sort: 'desc' },
  { value: 'CONTACTED_ASC', label: 'Last contact (least recent first)', orderBy: 'contacted_at', sort: 'asc' },
] as const;
export type RunnerSort = (typeof RUNNER_SORTS)[number]['value'];
export const DEFAULT_SORT: RunnerSort = 'CREATED_DESC';

/** The group list's membership (GitLab's): its own and descendants' runners, or also the inherited ones. */
export type RunnerMembership = 'descendants' | 'all_available';

export interface RunnerFilters {
  page: number;
  type?: RunnerType;
  status?: StatusFilter;
  paused?: boolean;
  /** Comma-separated, as typed (the API splits and trims). */
  tagList?: string;
  versionPrefix?: string;
  /** Part of the description. */
  search?: string;
  /** Runway's owner filters (admin and owned lists only), as typed: the API explains a bad id. */
  ownerGroupId?: string;
  ownerProjectId?: string;
  sort: RunnerSort;
  membership: RunnerMembership;
}

type Params = { get(name: string): string | null };

const oneOf = <T extends string>(list: Array<{ value: T }>, raw: string | null): T | undefined => list.find((item) => item.value === raw)?.value;

const text = (raw: string | null) => {
  const v = raw?.trim();
  return v ? v : undefined;
};

export function parseRunnerFilters(params: Params): RunnerFilters {
  const paused = params.get('paused');
  return {
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
    type: oneOf(RUNNER_TYPES, params.get('type')),
    status: oneOf(STATUS_FILTERS, params.get('status')),
    paused: paused === 'true' ? true : paused === 'false' ? false : undefined,
    tagList: text(params.get('tag_list')),
    versionPrefix: text(params.get('version_prefix')),
    search: text(params.get('search')),
    ownerGroupId: text(params.get('owner_group_id')),
    ownerProjectId: text(params.get('owner_project_id')),
    sort: RUNNER_SORTS.find((s) => s.value === params.get('sort'))?.value ?? DEFAULT_SORT,
    membership: params.get('membership') === 'all_available' ? 'all_available' : 'descendants',
  };
}

/** Applies changes to the current query string; any filter change goes back to page 1. */
export function runnerFiltersQuery(current: string, changes: Partial<RunnerFilters>): string {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | undefined) => (value === undefined || value === '' ? next.delete(key) : next.set(key, value));
  let filtered = false;
  const filter = (key: string, value: string | undefined) => {
    set(key, value);
    filtered = true;
  };
  if ('type' in changes) filter('type', changes.type);
  if ('status' in changes) filter('status', changes.status);
  if ('paused' in changes) filter('paused', changes.paused === undefined ? undefined : String(changes.paused));
  if ('tagList' in changes) filter('tag_list', changes.tagList?.trim());
  if ('versionPrefix' in changes) filter('version_prefix', changes.versionPrefix?.trim());
  if ('search' in changes) filter('search', changes.search?.trim());
  if ('ownerGroupId' in changes) filter('owner_group_id', changes.ownerGroupId?.trim());
  if ('ownerProjectId' in changes) filter('owner_project_id', changes.ownerProjectId?.trim());
  if ('sort' in changes) filter('sort', changes.sort === DEFAULT_SORT ? undefined : changes.sort);
  if ('membership' in changes) filter('membership', changes.membership === 'descendants' ? undefined : changes.membership);
  if (changes.page !== undefined) set('page', changes.page > 1 ? String(changes.page) : undefined);
  else if (filtered) next.delete('page');
  return next.toString();
}

/** Filters that narrow the list (the tab, sort and membership do not count: they only pick or order). */
export const hasFilters = (f: Pick<RunnerFilters, 'type' | 'status' | 'paused' | 'tagList' | 'versionPrefix' | 'search' | 'ownerGroupId' | 'ownerProjectId'>) =>
  f.type !== undefined ||
  f.status !== undefined ||
  f.paused !== undefined ||
  f.tagList !== undefined ||
  f.versionPrefix !== undefined ||
  f.search !== undefined ||
  f.ownerGroupId !== undefined ||
  f.ownerProjectId !== undefined;

/** The list query for the API (GET /runners/all, /runners, /groups/:id/runners), without page and type. */
export function runnerFilterParams(f: RunnerFilters, opts: { group: boolean }) {
  const sort = RUNNER_SORTS.find((s) => s.value === f.sort) ?? RUNNER_SORTS[0];
  return {
    status: f.status,
    paused: f.paused,
    tag_list: f.tagList,
    version_prefix: f.versionPrefix,
    search: f.search,
    order_by: sort.orderBy,
    sort: sort.sort,
    membership: opts.group ? f.membership : undefined,
    // Group lists have no owner filters (the group is the owner already).
    owner_group_id: opts.group ? undefined : f.ownerGroupId,
    owner_project_id: opts.group ? undefined : f.ownerProjectId,
  };
}
