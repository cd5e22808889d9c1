// The runner list's state as it lives in the URL, in GitLab's parameter names and values
// (app/assets/javascripts/ci/runner: `status[]=ONLINE`, `runner_type[]=GROUP_TYPE`, `paused[]=true`,
// `tag[]=docker` (one per tag), `version_prefix[]=17.5`, `upgrade_status[]=RECOMMENDED`, `creator[]=<username>`, `search=`,
// `sort=CREATED_DESC`), plus Runway's
// `owner_group_id[]`/`owner_project_id[]`, the group list's `membership` and `page`.
// Parsing keeps only values the API accepts; `canonicalRunnerQuery` writes them back, so an address with
// unknown parameters, bad values or Runway's older names (`type`, `tag_list`, lower-case `status`) is
// replaced by its normal form instead of being kept and ignored.
import type { RunnerStatus, RunnerType, RunnerUpgradeStatus } from './types';
import { USERNAME } from './usernames';

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

/**
 * The Upgrade status token's values: GitLab's (ee upgrade_status_token_config.js: Available, Recommended,
 * Up to date) and, as GitLab's API enum has it, INVALID for a version that does not parse.
 */
export const UPGRADE_STATUS_FILTERS: Array<{ value: RunnerUpgradeStatus; label: string }> = [
  { value: 'recommended', label: 'Recommended' },
  { value: 'available', label: 'Available' },
  { value: 'not_available', label: 'Up to date' },
  { value: 'invalid', label: 'Invalid version' },
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
  /** Every tag must be on the runner (GitLab's AND). */
  tags: string[];
  versionPrefix?: string;
  upgradeStatus?: RunnerUpgradeStatus;
  /** The username of the runners' creator (GitLab's `creator[]`; the API's `creator_username`). */
  creator?: string;
  /** Part of the description. */
  search?: string;
  /** Runway's owner filters (admin list only): positive ids. */
  ownerGroupId?: string;
  ownerProjectId?: string;
  sort: RunnerSort;
  membership: RunnerMembership;
}

type Params = { get(name: string): string | null; getAll(name: string): string[] };

/** A parameter given as GitLab writes it (`status[]=`) or as a plain name (`status=`, older links). */
const first = (params: Params, ...names: string[]) => {
  for (const name of names) {
    const v = params.getAll(`${name}[]`)[0] ?? params.get(name);
    if (v !== null && v !== undefined) return v;
  }
  return null;
};

const text = (raw: string | null) => {
  const v = raw?.trim();
  return v ? v : undefined;
};

/** The API's version_prefix check (digits and dots, from the start). */
export const VERSION_PREFIX = /^[\d+.]+$/;
/** Tags the API can match: GitLab's tag length limit. */
export const TAG_MAX_LENGTH = 255;
const positiveId = (raw: string | null) => (raw && /^\s*[1-9]\d{0,9}\s*$/.test(raw) && Number(raw) <= 2_147_483_647 ? raw.trim() : undefined);
const lower = (raw: string | null) => raw?.trim().toLowerCase() ?? null;

export function parseRunnerFilters(params: Params): RunnerFilters {
  const paused = lower(first(params, 'paused'));
  const type = lower(first(params, 'runner_type', 'type'));
  const status = lower(first(params, 'status'));
  const legacyTags = (params.get('tag_list') ?? '').split(',');
  const tags = [...params.getAll('tag[]'), ...params.getAll('tag'), ...legacyTags].map((t) => t.trim()).filter((t) => t && t.length <= TAG_MAX_LENGTH);
  const version = text(first(params, 'version_prefix'));
  const upgrade = lower(first(params, 'upgrade_status'));
  const creator = text(first(params, 'creator'));
  const page = Number(params.get('page') ?? '1');
  return {
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
    type: RUNNER_TYPES.find((t) => t.value === type)?.value,
    status: STATUS_FILTERS.find((s) => s.value === status)?.value,
    paused: paused === 'true' ? true : paused === 'false' ? false : undefined,
    tags: [...new Set(tags)],
    versionPrefix: version && VERSION_PREFIX.test(version) ? version : undefined,
    upgradeStatus: UPGRADE_STATUS_FILTERS.find((u) => u.value === upgrade)?.value,
    creator: creator && USERNAME.test(creator) ? creator : undefined,
    search: text(params.get('search')),
    ownerGroupId: positiveId(first(params, 'owner_group_id')),
    ownerProjectId: positiveId(first(params, 'owner_project_id')),
    sort: RUNNER_SORTS.find((s) => s.value === params.get('sort'))?.value ?? DEFAULT_SORT,
    membership: params.get('membership') === 'all_available' ? 'all_available' : 'descendants',
  };
}

/** The one query string for these filters, in GitLab's form; defaults are left out. */
export function canonicalRunnerQuery(f: RunnerFilters): string {
  const q = new URLSearchParams();
  if (f.status) q.append('status[]', f.status.toUpperCase());
  if (f.type) q.append('runner_type[]', f.type.toUpperCase());
  if (f.paused !== undefined) q.append('paused[]', String(f.paused));
  for (const t of f.tags) q.append('tag[]', t);
  if (f.versionPrefix) q.append('version_prefix[]', f.versionPrefix);
  if (f.upgradeStatus) q.append('upgrade_status[]', f.upgradeStatus.toUpperCase());
  if (f.creator) q.append('creator[]', f.creator);
  if (f.ownerGroupId) q.append('owner_group_id[]', f.ownerGroupId);
  if (f.ownerProjectId) q.append('owner_project_id[]', f.ownerProjectId);
  if (f.search) q.set('search', f.search);
  if (f.sort !== DEFAULT_SORT) q.set('sort', f.sort);
  if (f.membership !== 'descendants') q.set('membership', f.membership);
  if (f.page > 1) q.set('page', String(f.page));
  return q.toString();
}

/** Applies changes to the current filters; any filter change goes back to page 1. */
export function runnerFiltersQuery(current: RunnerFilters, changes: Partial<RunnerFilters>): string {
  const filtered = Object.keys(changes).some((k) => k !== 'page');
  const next: RunnerFilters = { ...current, ...changes, page: changes.page ?? (filtered ? 1 : current.page) };
  return canonicalRunnerQuery(next);
}

/** Filters that narrow the list (the tab, sort and membership do not count: they only pick or order). */
export const hasFilters = (
  f: Pick<RunnerFilters, 'type' | 'status' | 'paused' | 'tags' | 'versionPrefix' | 'upgradeStatus' | 'creator' | 'search' | 'ownerGroupId' | 'ownerProjectId'>,
) =>
  f.type !== undefined ||
  f.status !== undefined ||
  f.paused !== undefined ||
  f.tags.length > 0 ||
  f.versionPrefix !== undefined ||
  f.upgradeStatus !== undefined ||
  f.creator !== undefined ||
  f.search !== undefined ||
  f.ownerGroupId !== undefined ||
  f.ownerProjectId !== undefined;

/** The list query for the API (GET /runners/all, /groups/:id/runners), without page and type. */
export function runnerFilterParams(f: RunnerFilters, opts: { group: boolean }) {
  const sort = RUNNER_SORTS.find((s) => s.value === f.sort) ?? RUNNER_SORTS[0];
  return {
    status: f.status,
    paused: f.paused,
    // GitLab's tag parser splits on commas outside double quotes.
    tag_list: f.tags.length ? f.tags.map((t) => (t.includes(',') ? `"${t}"` : t)).join(',') : undefined,
    version_prefix: f.versionPrefix,
    upgrade_status: f.upgradeStatus,
    creator_username: f.creator,
    search: f.search,
    order_by: sort.orderBy,
    sort: sort.sort,
    membership: opts.group ? f.membership : undefined,
    // Group lists have no owner filters (the group is the owner already).
    owner_group_id: opts.group ? undefined : f.ownerGroupId,
    owner_project_id: opts.group ? undefined : f.ownerProjectId,
  };
}
