// The stale-runner cleanup page's rule as it lives in the URL (?stale_days=&type=&owner_group_id=
// &owner_project_id=&page=) and as the API takes it. Values pass through as typed: the API's 400
// explains a bad one beside its field.
import type { RunnerType } from './types';

export const DEFAULT_STALE_DAYS = '90';
// The API's bounds (lib/runner-cleanup/rule.ts: GitLab's 7-day stale threshold, ten years), checked in the
// form too so a bad value is explained as it is typed, before any request.
export const MIN_STALE_DAYS = 7;
export const MAX_STALE_DAYS = 3650;

/** The days field's problem in the API's words, or null when the API would take it. */
export function staleDaysProblem(text: string): string | null {
  const t = text.trim();
  const n = /^\d{1,5}$/.test(t) ? Number(t) : NaN;
  return Number.isInteger(n) && n >= MIN_STALE_DAYS && n <= MAX_STALE_DAYS ? null : `Days must be between ${MIN_STALE_DAYS} and ${MAX_STALE_DAYS}.`;
}

/** True when two rules select the same runners (the page does not matter). */
export const sameRule = (a: CleanupRuleState, b: CleanupRuleState) =>
  a.staleDays.trim() === b.staleDays.trim() &&
  (a.type ?? '') === (b.type ?? '') &&
  (a.ownerGroupId ?? '') === (b.ownerGroupId ?? '') &&
  (a.ownerProjectId ?? '') === (b.ownerProjectId ?? '');

export interface CleanupRuleState {
  staleDays: string;
  type?: RunnerType;
  ownerGroupId?: string;
  ownerProjectId?: string;
  page: number;
}

type Params = { get(name: string): string | null };
const text = (raw: string | null) => raw?.trim() || undefined;
const TYPES: RunnerType[] = ['instance_type', 'group_type', 'project_type'];

export function parseCleanupRule(params: Params): CleanupRuleState {
  const type = params.get('type');
  return {
    staleDays: text(params.get('stale_days')) ?? DEFAULT_STALE_DAYS,
    type: TYPES.find((t) => t === type),
    ownerGroupId: text(params.get('owner_group_id')),
    ownerProjectId: text(params.get('owner_project_id')),
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

/** The rule's API parameters (GET and POST /runners/cleanup). */
export function cleanupRuleParams(r: CleanupRuleState) {
  return { stale_days: r.staleDays, type: r.type, owner_group_id: r.ownerGroupId, owner_project_id: r.ownerProjectId };
}

export type CleanupOutcome = 'deleted' | 'would_delete' | 'skipped' | 'failed';

export interface CleanupResult {
  runner_id: number;
  description: string | null;
  runner_type: RunnerType;
  contacted_at: string | null;
  created_at: string;
  result: CleanupOutcome;
  message: string | null;
}

export interface CleanupRun {
  id: number;
  trigger: 'manual' | 'schedule';
  dry_run: boolean;
  rule: { stale_days: number; runner_type: RunnerType | null; owner_group_id: number | null; owner_project_id: number | null };
  user: { id: number; username: string; name: string } | null;
  started_at: string;
  finished_at: string | null;
  matched_count: number;
  deleted_count: number;
  skipped_count: number;
  failed_count: number;
  results: CleanupResult[];
}

/** The Runway-extension fields of GET/PUT /application/settings for the daily cleanup. */
export interface CleanupSchedule {
  stale_runner_cleanup_enabled: boolean;
  stale_runner_cleanup_days: number;
  stale_runner_cleanup_runner_type: RunnerType | null;
  stale_runner_cleanup_owner_group_id: number | null;
  stale_runner_cleanup_owner_project_id: number | null;
}
