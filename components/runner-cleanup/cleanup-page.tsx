'use client';
// /admin/runners/cleanup: the rule (in the URL), the runners it removes now, the daily schedule and the
// last cleanups with their per-runner results.
import { useState } from 'react';
import { ApiError } from '@/lib/client/api';
import { parseCleanupRule, sameRule, type CleanupRuleState } from '@/lib/client/runner-cleanup';
import { pageParam, useUrlState } from '@/lib/client/url-state';
import { parameterErrors } from '@/lib/client/validation';
import { adminCrumbs, Breadcrumbs } from '../ui/breadcrumbs';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/states';
import { PageHeader } from '../ui/page-header';
import { CleanupPreview } from './cleanup-preview';
import { CleanupRuleForm, RULE_FIELDS, type RuleField } from './cleanup-rule-form';
import { CleanupRuns } from './cleanup-runs';
import { CleanupScheduleSection } from './cleanup-schedule';
import { useCleanupPreview } from './use-runner-cleanup';

const FIELD_LABELS: Record<RuleField, string> = { stale_days: 'Days', type: 'Type', owner_group_id: 'Owner group ID', owner_project_id: 'Owner project ID' };

/** The API's refusal of the rule, per field: a 400 names the parameter, a 404 the missing group or project. */
function ruleErrors(error: unknown): { byField: Partial<Record<RuleField, string[]>>; general: string[] } {
  if (error instanceof ApiError && error.status === 404) {
    const missing = /Group/.test(error.message) ? 'owner_group_id' : /Project/.test(error.message) ? 'owner_project_id' : null;
    if (missing) return { byField: { [missing]: [`${FIELD_LABELS[missing]}: no such ${missing === 'owner_group_id' ? 'group' : 'project'}.`] }, general: [] };
  }
  const parsed = parameterErrors(error, RULE_FIELDS);
  const byField: Partial<Record<RuleField, string[]>> = {};
  for (const f of RULE_FIELDS) if (parsed.byAttribute[f]) byField[f] = parsed.byAttribute[f].map((m) => `${FIELD_LABELS[f]} ${m}.`);
  return { byField, general: parsed.general };
}

export function RunnerCleanupPage() {
  const { params, update } = useUrlState();
  const rule = parseCleanupRule(params);
  const preview = useCleanupPreview(rule);
  // What the form holds, as typed: when it differs from the previewed rule, the preview and its Delete wait
  // for Preview (a submitted rule equals it again, so nothing needs resetting).
  const [draft, setDraft] = useState<CleanupRuleState | null>(null);
  const edited = draft !== null && !sameRule(draft, rule);
  const errors = ruleErrors(preview.error);
  const refused = Object.keys(errors.byField).length > 0 || (preview.error instanceof ApiError && preview.error.status === 400);
  // Either way the form starts again from the rule in the URL.
  const setRule = (r: CleanupRuleState) => {
    setDraft(null);
    update({ stale_days: r.staleDays, type: r.type, owner_group_id: r.ownerGroupId, owner_project_id: r.ownerProjectId, page: undefined });
  };
  const reset = () => {
    setDraft(null);
    update({ stale_days: undefined, type: undefined, owner_group_id: undefined, owner_project_id: undefined, page: undefined });
  };

  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs items={adminCrumbs([{ label: 'Runners', href: '/admin/runners' }, { label: 'Clean up stale runners' }])} />
      <PageHeader
        title="Clean up stale runners"
        description="Delete runners that have not contacted this instance for a while: stale for at least the number of days below, or never contacted and created that long ago. Preview them first; a run deletes each runner as Delete does."
      />
      <CleanupRuleForm rule={rule} errors={errors.byField} onSubmit={setRule} onEdited={setDraft} />
      <CleanupPreview
        rule={rule}
        preview={preview}
        outdated={edited}
        onPageChange={(page) => update({ page })}
        errorState={
          refused ? (
            <div role="alert" className="flex flex-col items-center gap-3">
              <EmptyState title="This rule cannot be previewed">
                {errors.general.length ? errors.general.join('. ') : 'Correct the rule above'}, or start again from the default rule.
              </EmptyState>
              <Button variant="secondary" size="sm" onClick={reset} className="-mt-8 mb-8">
                Reset the rule
              </Button>
            </div>
          ) : undefined
        }
      />
      <CleanupScheduleSection rule={rule} ruleValid={!edited && !preview.error && !preview.isPending && !preview.isPlaceholderData} />
      <CleanupRuns page={pageParam(params, 'runs_page')} onPageChange={(p) => update({ runs_page: p })} />
    </div>
  );
}
