'use client';
// The cleanup rule: stale for at least N days, optionally one runner type and one owning group or project.
// Submitting puts the rule in the URL. The days are checked as they are typed (the API's bounds and words);
// an edited rule tells the page, which then sets the old preview aside until the new rule is previewed.
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { FieldError } from '../ui/field-error';
import { inputClass } from '../ui/input';
import { RUNNER_TYPES } from '@/lib/client/runner-filters';
import { staleDaysProblem, type CleanupRuleState } from '@/lib/client/runner-cleanup';
import type { RunnerType } from '@/lib/client/types';

export const RULE_FIELDS = ['stale_days', 'type', 'owner_group_id', 'owner_project_id'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

function readRule(form: HTMLFormElement): CleanupRuleState {
  const data = new FormData(form);
  const value = (name: string) => String(data.get(name) ?? '').trim() || undefined;
  return {
    staleDays: value('stale_days') ?? '',
    type: value('type') as RunnerType | undefined,
    ownerGroupId: value('owner_group_id'),
    ownerProjectId: value('owner_project_id'),
    page: 1,
  };
}

/** The runner type as a row of radio buttons: every choice visible, one tab stop, arrow keys move. */
function TypeChoice({ value }: { value: RunnerType | undefined }) {
  const options = [{ value: '', label: 'Any' }, ...RUNNER_TYPES];
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-xs font-medium text-slate-600">Runner type</legend>
      <div className="inline-flex h-9 w-fit overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm">
        {options.map((o, i) => (
          <label
            key={o.value}
            className={cn(
              'relative flex cursor-pointer items-center px-3 text-sm text-slate-700 has-[:checked]:bg-indigo-600 has-[:checked]:text-white',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:-outline-offset-2 has-[:focus-visible]:outline-indigo-600',
              i > 0 && 'border-l border-slate-300',
            )}
          >
            <input
              type="radio"
              name="type"
              value={o.value}
              defaultChecked={(value ?? '') === o.value}
              className="absolute inset-0 cursor-pointer appearance-none opacity-0"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function CleanupRuleForm({
  rule,
  errors,
  onSubmit,
  onEdited,
}: {
  rule: CleanupRuleState;
  errors: Partial<Record<RuleField, string[]>>;
  onSubmit: (r: CleanupRuleState) => void;
  /** The rule as the form holds it after each edit (the page compares it with the previewed one). */
  onEdited: (draft: CleanupRuleState) => void;
}) {
  const [daysProblem, setDaysProblem] = useState<string | null>(null);
  const daysRef = useRef<HTMLInputElement>(null);

  function changed(form: HTMLFormElement) {
    const next = readRule(form);
    setDaysProblem(staleDaysProblem(next.staleDays));
    onEdited(next);
  }
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const next = readRule(e.currentTarget);
    const problem = staleDaysProblem(next.staleDays);
    setDaysProblem(problem);
    if (problem) {
      daysRef.current?.focus();
      return;
    }
    onSubmit(next);
  }
  // The local check first; the API's message when the value passed it (an owner that does not exist).
  const shown: Partial<Record<RuleField, string[]>> = { ...errors, ...(daysProblem ? { stale_days: [daysProblem] } : {}) };
  const field = (name: RuleField) => ({
    'aria-invalid': !!shown[name],
    'aria-describedby': shown[name] ? `cleanup-${name}-error` : undefined,
  });
  const label = 'text-xs font-medium text-slate-600';
  return (
    <form
      key={`${rule.staleDays}|${rule.type ?? ''}|${rule.ownerGroupId ?? ''}|${rule.ownerProjectId ?? ''}`}
      aria-label="Cleanup rule"
      // Our own messages (the API's words) show under the field, not the browser's bubbles.
      noValidate
      onSubmit={submit}
      onChange={(e) => changed(e.currentTarget)}
      className="flex flex-wrap items-start gap-x-3 gap-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex w-full flex-col gap-1 sm:w-52">
        <label htmlFor="cleanup-stale-days" className={label}>
          Not contacted for at least (days)
        </label>
        <input
          ref={daysRef}
          id="cleanup-stale-days"
          name="stale_days"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={rule.staleDays}
          className={cn(inputClass, 'h-9')}
          {...field('stale_days')}
        />
        <FieldError id="cleanup-stale_days-error" messages={shown.stale_days ?? null} />
      </div>
      <TypeChoice value={rule.type} />
      <div className="flex w-[calc(50%-0.375rem)] flex-col gap-1 sm:w-32">
        <label htmlFor="cleanup-owner-group" className={label}>
          Owner group ID
        </label>
        <input
          id="cleanup-owner-group"
          name="owner_group_id"
          inputMode="numeric"
          autoComplete="off"
          placeholder="Any"
          defaultValue={rule.ownerGroupId ?? ''}
          className={cn(inputClass, 'h-9')}
          {...field('owner_group_id')}
        />
        <FieldError id="cleanup-owner_group_id-error" messages={shown.owner_group_id ?? null} />
      </div>
      <div className="flex w-[calc(50%-0.375rem)] flex-col gap-1 sm:w-32">
        <label htmlFor="cleanup-owner-project" className={label}>
          Owner project ID
        </label>
        <input
          id="cleanup-owner-project"
          name="owner_project_id"
          inputMode="numeric"
          autoComplete="off"
          placeholder="Any"
          defaultValue={rule.ownerProjectId ?? ''}
          className={cn(inputClass, 'h-9')}
          {...field('owner_project_id')}
        />
        <FieldError id="cleanup-owner_project_id-error" messages={shown.owner_project_id ?? null} />
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
