'use client';
// Editing a runner's settings (every field of PUT /runners/:id). Only changed fields are sent, in one
// request, so a refusal saves nothing; the API's validation errors ({"message":{"tags_list":[...]}}) appear
// next to the fields they concern.
import type { FormEvent } from 'react';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';
import type { RunnerDetails, RunnerUpdate } from '@/lib/client/types';
import { normalizedTags, RunnerFormFields, useRunnerFormState } from './runner-form-fields';
import { useUpdateRunner } from './use-runners';

export function RunnerEditForm({ runner, onSaved, onCancel }: { runner: RunnerDetails; onSaved: () => void; onCancel: () => void }) {
  const update = useUpdateRunner(runner.id);
  const { problems, summary, read } = useRunnerFormState(update, 'saved');

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = read(e.currentTarget);
    if (!v) return;
    const changes: RunnerUpdate = {};
    if (v.description !== (runner.description ?? '')) changes.description = v.description;
    if (normalizedTags(v.tagList) !== runner.tag_list.join(',')) changes.tag_list = v.tagList;
    if (v.runUntagged !== runner.run_untagged) changes.run_untagged = v.runUntagged;
    if (v.paused !== runner.paused) changes.paused = v.paused;
    if (runner.runner_type === 'project_type' && v.locked !== runner.locked) changes.locked = v.locked;
    if (v.accessLevel !== runner.access_level) changes.access_level = v.accessLevel;
    if (v.maximumTimeout !== runner.maximum_timeout) changes.maximum_timeout = v.maximumTimeout;
    if (v.maintenanceNote !== (runner.maintenance_note ?? '')) changes.maintenance_note = v.maintenanceNote;
    if (!Object.keys(changes).length) return onSaved();
    update.mutate(changes, { onSuccess: onSaved });
  }

  return (
    <form onSubmit={onSubmit} aria-label="Edit runner" noValidate className="flex flex-col gap-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      {summary && <InlineError>{summary}</InlineError>}
      <RunnerFormFields
        lockable={runner.runner_type === 'project_type'}
        problems={problems}
        defaults={{
          description: runner.description ?? '',
          tagList: runner.tag_list.join(', '),
          runUntagged: runner.run_untagged,
          paused: runner.paused,
          locked: runner.locked,
          accessLevel: runner.access_level,
          maximumTimeout: runner.maximum_timeout,
          maintenanceNote: runner.maintenance_note ?? '',
        }}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </Button>
        <Button variant="secondary" disabled={update.isPending} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
