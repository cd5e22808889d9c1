// The Runners page's list state as it lives in the URL (?type=&status=&paused=&tag_list=&version_prefix=&page=).
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

export interface RunnerFilters {
  page: number;
  type?: RunnerType;
  status?: StatusFilter;
  paused?: boolean;
  /** Comma-separated, as typed (the API splits and trims). */
  tagList?: string;
  versionPrefix?: string;
}

type Params = { get(name: string): string | null };

const oneOf = <T extends string>(list: Array<{ value: T }>, raw: string | null): T | undefined =>
  list.find((item) => item.value === raw)?.value;

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
  };
}

/** Applies changes to the current query string; any filter change goes back to page 1. */
export function runnerFiltersQuery(current: string, changes: Partial<RunnerFilters>): string {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | undefined) => (value === undefined || value === '' ? next.delete(key) : next.set(key, value));
  let filtered = false;
  if ('type' in changes) (set('type', changes.type), (filtered = true));
  if ('status' in changes) (set('status', changes.status), (filtered = true));
  if ('paused' in changes) (set('paused', changes.paused === undefined ? undefined : String(changes.paused)), (filtered = true));
  if ('tagList' in changes) (set('tag_list', changes.tagList?.trim()), (filtered = true));
  if ('versionPrefix' in changes) (set('version_prefix', changes.versionPrefix?.trim()), (filtered = true));
  if (changes.page !== undefined) set('page', changes.page > 1 ? String(changes.page) : undefined);
  else if (filtered) next.delete('page');
  return next.toString();
}

export const hasFilters = (f: RunnerFilters) =>
  f.type !== undefined || f.status !== undefined || f.paused !== undefined || f.tagList !== undefined || f.versionPrefix !== undefined;
