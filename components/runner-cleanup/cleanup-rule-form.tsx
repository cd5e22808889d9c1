'use client';
// The cleanup rule: stale for at least N days, optionally one runner type and one owning group or project.
// Submitting puts the rule in the URL; the API's refusal of a value shows under its field.
import type { FormEvent } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { RUNNER_TYPES } from '@/lib/client/runner-filters';
import type { CleanupRuleState } from '@/lib/client/runner-cleanup';
import type { RunnerType } from '@/lib/client/types';

export const RULE_FIELDS = ['stale_days', 'type', 'owner_group_id', 'owner_project_id'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

export function CleanupRuleForm({
  rule,
  errors,
  onSubmit,
}: {
  rule: CleanupRuleState;
  errors: Partial<Record<RuleField, string[]>>;
  onSubmit: (r: CleanupRuleState) => void;
}) {
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    onSubmit({
      staleDays: value('stale_days') ?? '',
      type: value('type') as RunnerType | undefined,
      ownerGroupId: value('owner_group_id'),
      ownerProjectId: value('owner_project_id'),
      page: 1,
    });
  }
  const field = (name: RuleField) => ({
    'aria-invalid': !!errors[name],
    'aria-describedby': errors[name] ? `cleanup-${name}-error` : undefined,
  });
  const label = 'text-xs font-medium text-slate-600';
  return (
    <form
      key={`${rule.staleDays}|${rule.type ?? ''}|${rule.ownerGroupId ?? ''}|${rule.ownerProjectId ?? ''}`}
      aria-label="Cleanup rule"
      // The API judges the values, so its message (not the browser's) shows under the field.
      noValidate
      onSubmit={submit}
      className="flex flex-wrap items-start gap-3"
    >
      <div className="flex w-full flex-col gap-1 sm:w-44">
        <label htmlFor="cleanup-stale-days" className={label}>
          Not contacted for at least (days)
        </label>
        <input
          id="cleanup-stale-days"
          name="stale_days"
          type="number"
          inputMode="numeric"
          min={7}
          defaultValue={rule.staleDays}
          className={cn(inputClass, 'h-9')}
          {...field('stale_days')}
        />
        <FieldError id="cleanup-stale_days-error" messages={errors.stale_days ?? null} />
      </div>
      <div className="flex w-full flex-col gap-1 sm:w-40">
        <label htmlFor="cleanup-type" className={label}>
          Runner type
        </label>
        <select id="cleanup-type" name="type" defaultValue={rule.type ?? ''} className={cn(inputClass, 'h-9')} {...field('type')}>
          <option value="">Any type</option>
          {RUNNER_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
        <FieldError id="cleanup-type-error" messages={errors.type ?? null} />
      </div>
      <div className="flex w-[calc(50%-0.375rem)] flex-col gap-1 sm:w-36">
        <label htmlFor="cleanup-owner-group" className={label}>
          Owner group ID
        </label>
        <input
          id="cleanup-owner-group"
          name="owner_group_id"
          inputMode="numeric"
          placeholder="Any"
          defaultValue={rule.ownerGroupId ?? ''}
          className={cn(inputClass, 'h-9')}
          {...field('owner_group_id')}
        />
        <FieldError id="cleanup-owner_group_id-error" messages={errors.owner_group_id ?? null} />
      </div>
      <div className="flex w-[calc(50%-0.375rem)] flex-col gap-1 sm:w-36">
        <label htmlFor="cleanup-owner-project" className={label}>
          Owner project ID
        </label>
        <input
          id="cleanup-owner-project"
          name="owner_project_id"
          inputMode="numeric"
          placeholder="Any"
          defaultValue={rule.ownerProjectId ?? ''}
          className={cn(inputClass, 'h-9')}
          {...field('owner_project_id')}
        />
        <FieldError id="cleanup-owner_project_id-error" messages={errors.owner_project_id ?? null} />
      </div>
      <div className="flex flex-col gap-1">
        <span aria-hidden className={cn(label, 'invisible hidden sm:block')}>
          Preview
        </span>
        <Button type="submit" variant="secondary">
          Preview
        </Button>
      </div>
    </form>
  );
}
