// The stale-runner cleanup rule: which runners a cleanup removes. One rule shape for the preview, a run
// and the daily schedule, so the preview is by construction what a run removes.
import { paramError } from '../api/errors';
import { ANY_SAFE_INTEGER, param } from '../api/params';
import type { RunnerType } from '../db/generated/client';
import type { RunnerFilters } from '../runners/queries';
import { MAX_STALE_DAYS, MIN_STALE_DAYS, RUNNER_TYPES } from '../settings/runner-constants';

export interface CleanupRule {
  staleDays: number;
  runnerType: RunnerType | null;
  ownerGroupId: number | null;
  ownerProjectId: number | null;
}

export const ruleShape = {
  stale_days: param.integer().range(ANY_SAFE_INTEGER).required(), // staleDaysError names the bounds
  type: param.string().values(RUNNER_TYPES),
  owner_group_id: param.integer(),
  owner_project_id: param.integer(),
};
export const ruleRules = { mutuallyExclusive: [['owner_group_id', 'owner_project_id']] };

export interface RuleInput {
  stale_days: number | null;
  type?: RunnerType | null;
  owner_group_id?: number | null;
  owner_project_id?: number | null;
}

export function staleDaysError(name: string, days: number | null | undefined): string | null {
  if (typeof days !== 'number' || days < MIN_STALE_DAYS || days > MAX_STALE_DAYS) {
    return `${name} must be between ${MIN_STALE_DAYS} and ${MAX_STALE_DAYS}`;
  }
  return null;
}

/** The rule from validated parameters; a stale_days out of range is Grape's 400 {"error": ...}. */
export function ruleFromInput(i: RuleInput): CleanupRule {
  const error = staleDaysError('stale_days', i.stale_days);
  if (error) throw paramError([error]);
  return {
    staleDays: i.stale_days!,
    runnerType: i.type ?? null,
    ownerGroupId: i.owner_group_id ?? null,
    ownerProjectId: i.owner_project_id ?? null,
  };
}

/** The rule as runner list filters (queries.ts whereClause). */
export function ruleFilters(rule: CleanupRule): RunnerFilters {
  return {
    staleDays: rule.staleDays,
    type: rule.runnerType ?? undefined,
    ownerGroupId: rule.ownerGroupId ?? undefined,
    ownerProjectId: rule.ownerProjectId ?? undefined,
  };
}

export function ruleEntity(rule: CleanupRule) {
  return {
    stale_days: rule.staleDays,
    runner_type: rule.runnerType,
    owner_group_id: rule.ownerGroupId,
    owner_project_id: rule.ownerProjectId,
  };
}
