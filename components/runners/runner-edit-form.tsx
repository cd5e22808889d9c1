'use client';
// Editing a runner's settings. Only changed fields are sent; the API's validation errors
// ({"message":{"tags_list":[...]}} and Grape's {"error":"..."}) appear next to the fields they concern.
import { useState, type FormEvent } from 'react';
import { Button } from '../ui/button';
import { FieldError } from '../ui/field-error';
import { InlineError } from '../ui/states';
import type { RunnerAccessLevel, RunnerDetails, RunnerUpdate } from '@/lib/client/types';
import { validationMessages } from '@/lib/client/validation';
import { inputClass } from '../ui/input';
import { useUpdateRunner } from './use-runners';
import { Muted } from '../ui/muted';

type Field = 'description' | 'tags' | 'maximum_timeout' | 'maintenance_note' | 'access_level';

// API attribute -> form field; anything else is shown above the form.
const FIELD_OF: Record<string, Field> = {
  description: 'description',
  tags_list: 'tags',
  tag_list: 'tags',
  maximum_timeout: 'maximum_timeout',
  maintenance_note: 'maintenance_note',
  access_level: 'access_level',
};

const LABELS: Record<Field, string> = {
  description: 'Description',
  tags: 'Tags',
  maximum_timeout: 'Maximum job timeout',
  maintenance_note: 'Maintenance note',
  access_level: 'Protected',
};

export interface FormProblems {
  fields: Partial<Record<Field, string[]>>;
  general: string[];
}

/** The API's messages placed on this form's fields; attributes the form lacks are shown above it. */
export function problemsFrom(error: unknown): FormProblems {
  const { byAttribute, general } = validationMessages(error);
  const problems: FormProblems = { fields: {}, general: [...general] };
  for (const [attr, messages] of Object.entries(byAttribute)) {
    const field = FIELD_OF[attr];
    if (field) problems.fields[field] = [...(problems.fields[field] ?? []), ...messages];
    else problems.general.push(...messages.map((m) => `${attr} ${m}`));
  }
  return problems;
}

export function RunnerEditForm({ runner, onDone }: { runner: RunnerDetails; onDone: () => void }) {
  const update = useUpdateRunner(runner.id);
  const [localProblem, setLocalProblem] = useState<string | null>(null);
  const problems = problemsFrom(update.error);
  const fieldError = (f: Field) => problems.fields[f];
  const described = (f: Field) => (fieldError(f) ? `runner-${f}-error` : undefined);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const description = String(form.get('description') ?? '');
    const tags = String(form.get('tag_list') ?? '');
    const runUntagged = form.get('run_untagged') === 'on';
    const locked = form.get('locked') === 'on';
    const accessLevel = String(form.get('access_level')) as RunnerAccessLevel;
    const timeoutText = String(form.get('maximum_timeout') ?? '').trim();
    const note = String(form.get('maintenance_note') ?? '');
    if (timeoutText && !/^\d+$/.test(timeoutText)) return setLocalProblem('Enter the maximum job timeout as a whole number of seconds.');
    setLocalProblem(null);
    const timeout = timeoutText ? Number(timeoutText) : null;

    const changes: RunnerUpdate = {};
    if (description !== (runner.description ?? '')) changes.description = description;
    if (tags.split(',').map((t) => t.trim()).filter(Boolean).join(',') !== runner.tag_list.join(',')) changes.tag_list = tags;
    if (runUntagged !== runner.run_untagged) changes.run_untagged = runUntagged;
    if (runner.runner_type === 'project_type' && locked !== runner.locked) changes.locked = locked;
    if (accessLevel !== runner.access_level) changes.access_level = accessLevel;
    if (timeout !== runner.maximum_timeout) changes.maximum_timeout = timeout;
    if (note !== (runner.maintenance_note ?? '')) changes.maintenance_note = note;
    if (!Object.keys(changes).length) return onDone();
    update.mutate(changes, { onSuccess: onDone });
  }

  const general = [...(localProblem ? [localProblem] : []), ...problems.general];
  const fieldCount = Object.keys(problems.fields).length;
  return (
    <form onSubmit={onSubmit} aria-label="Edit runner" noValidate className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="text-base font-semibold text-slate-900">Edit runner #{runner.id}</h2>
      <div className="mt-4 flex flex-col gap-5">
        {(general.length > 0 || fieldCount > 0) && (
          <InlineError>
            {general.length > 0
              ? general.join(' ')
              : `The runner was not saved: check ${Object.keys(problems.fields)
                  .map((f) => LABELS[f as Field].toLowerCase())
                  .join(', ')}.`}
          </InlineError>
        )}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="runner-description" className="text-sm font-medium text-slate-700">
            Description
          </label>
          <input
            id="runner-description"
            name="description"
            defaultValue={runner.description ?? ''}
            maxLength={1024}
            aria-describedby={described('description')}
            aria-invalid={!!fieldError('description')}
            className={inputClass}
          />
          <FieldError id="runner-description-error" messages={fieldError('description')} />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="runner-tags-edit" className="text-sm font-medium text-slate-700">
            Tags
          </label>
          <input
            id="runner-tags-edit"
            name="tag_list"
            defaultValue={runner.tag_list.join(', ')}
            placeholder="docker, linux"
            aria-describedby={described('tags') ?? 'runner-tags-hint'}
            aria-invalid={!!fieldError('tags')}
            className={inputClass}
          />
          <p id="runner-tags-hint" className="text-xs text-slate-500">
            Comma-separated. Jobs with these tags can run on this runner.
          </p>
          <FieldError id="runner-tags-error" messages={fieldError('tags')} />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50">
            <input type="checkbox" name="run_untagged" defaultChecked={runner.run_untagged} className="mt-0.5 size-4 accent-indigo-600" />
            <span>
              <span className="block text-sm font-medium text-slate-900">Run untagged jobs</span>
              <span className="block text-xs text-slate-500">Pick up jobs that have no tags.</span>
            </span>
          </label>
          {runner.runner_type === 'project_type' && (
            <label className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50">
              <input type="checkbox" name="locked" defaultChecked={runner.locked} className="mt-0.5 size-4 accent-indigo-600" />
              <span>
                <span className="block text-sm font-medium text-slate-900">Lock to current projects</span>
                <span className="block text-xs text-slate-500">Cannot be assigned to other projects.</span>
              </span>
            </label>
          )}
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="runner-access-level" className="text-sm font-medium text-slate-700">
              Protected
            </label>
            <select
              id="runner-access-level"
              name="access_level"
              defaultValue={runner.access_level}
              aria-describedby={described('access_level')}
              aria-invalid={!!fieldError('access_level')}
              className={inputClass}
            >
              <option value="not_protected">Any branch or tag</option>
              <option value="ref_protected">Protected branches and tags only</option>
            </select>
            <FieldError id="runner-access_level-error" messages={fieldError('access_level')} />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="runner-timeout" className="text-sm font-medium text-slate-700">
              Maximum job timeout <Muted className="font-normal">(seconds, optional)</Muted>
            </label>
            <input
              id="runner-timeout"
              name="maximum_timeout"
              inputMode="numeric"
              defaultValue={runner.maximum_timeout ?? ''}
              placeholder="at least 600"
              aria-describedby={described('maximum_timeout')}
              aria-invalid={!!fieldError('maximum_timeout')}
              className={inputClass}
            />
            <FieldError id="runner-maximum_timeout-error" messages={fieldError('maximum_timeout')} />
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="runner-note" className="text-sm font-medium text-slate-700">
            Maintenance note <Muted className="font-normal">(optional)</Muted>
          </label>
          <textarea
            id="runner-note"
            name="maintenance_note"
            rows={3}
            maxLength={1024}
            defaultValue={runner.maintenance_note ?? ''}
            aria-describedby={described('maintenance_note')}
            aria-invalid={!!fieldError('maintenance_note')}
            className={inputClass}
          />
          <FieldError id="runner-maintenance_note-error" messages={fieldError('maintenance_note')} />
        </div>
        <div className="flex gap-3">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </Button>
          <Button
            variant="secondary"
            disabled={update.isPending}
            onClick={() => {
              update.reset();
              onDone();
            }}
          >
            Cancel
          </Button>
        </div>
      </div>
    </form>
  );
}
