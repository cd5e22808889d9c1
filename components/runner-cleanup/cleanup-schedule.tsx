'use client';
// The daily cleanup (instance setting, off by default): on/off, and the rule it applies, which the admin
// sets from the rule being previewed.
import { Button } from '../ui/button';
import { InlineError, Spinner } from '../ui/states';
import { Toggle } from '../ui/toggle';
import { runnerTypeLabel } from '../runners/runner-badges';
import type { CleanupRuleState, CleanupSchedule } from '@/lib/client/runner-cleanup';
import type { RunnerType } from '@/lib/client/types';
import { useCleanupSchedule, useUpdateCleanupSchedule } from './use-runner-cleanup';
import { errorText } from '@/lib/client/error-text';

export function describeRule(r: {
  days: number | string;
  type: RunnerType | null | undefined;
  group: number | string | null | undefined;
  project: number | string | null | undefined;
}) {
  const parts = [`not contacted for ${r.days} days`];
  if (r.type) parts.push(`${runnerTypeLabel(r.type).toLowerCase()} runners only`);
  if (r.group) parts.push(`owned by group ${r.group}`);
  if (r.project) parts.push(`owned by project ${r.project}`);
  return parts.join(', ');
}

const toInt = (v: string | undefined) => (v === undefined ? null : Number(v));

export function CleanupScheduleSection({ rule, ruleValid }: { rule: CleanupRuleState; ruleValid: boolean }) {
  const schedule = useCleanupSchedule();
  const update = useUpdateCleanupSchedule();
  const s = schedule.data;
  const useRule = () =>
    update.mutate({
      stale_runner_cleanup_days: Number(rule.staleDays),
      stale_runner_cleanup_runner_type: rule.type ?? null,
      stale_runner_cleanup_owner_group_id: toInt(rule.ownerGroupId),
      stale_runner_cleanup_owner_project_id: toInt(rule.ownerProjectId),
    } satisfies Partial<CleanupSchedule>);
  return (
    <section aria-labelledby="cleanup-schedule-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="cleanup-schedule-heading" className="text-lg font-semibold text-slate-900">
        Daily cleanup
      </h2>
      {schedule.isPending ? (
        <Spinner label="Loading the schedule" />
      ) : schedule.error ? (
        <div className="flex flex-wrap items-center gap-3">
          <InlineError>{errorText(schedule.error, 'Could not load the schedule.')}</InlineError>
          <Button variant="secondary" size="sm" onClick={() => schedule.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        s && (
          <>
            <Toggle
              label="Delete stale runners every day"
              checked={s.stale_runner_cleanup_enabled}
              busy={update.isPending}
              onChange={(on) => update.mutate({ stale_runner_cleanup_enabled: on })}
              help="Once a day, one Runway instance applies the rule below and records what it removed under Last cleanups."
            />
            <p className="text-sm text-slate-700" data-testid="schedule-rule">
              Rule:{' '}
              {describeRule({
                days: s.stale_runner_cleanup_days,
                type: s.stale_runner_cleanup_runner_type,
                group: s.stale_runner_cleanup_owner_group_id,
                project: s.stale_runner_cleanup_owner_project_id,
              })}
              .
            </p>
            <div>
              <Button variant="secondary" size="sm" disabled={!ruleValid || update.isPending} onClick={useRule}>
                Use the previewed rule for the daily cleanup
              </Button>
            </div>
          </>
        )
      )}
      {update.error && <InlineError>{errorText(update.error)}</InlineError>}
    </section>
  );
}
