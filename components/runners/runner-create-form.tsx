'use client';
// "New instance/group/project runner": GitLab's create form through POST /user/runners; on success the token
// goes to the register page through sessionStorage (never the URL) and the browser follows.
import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import Link from 'next/link';
import { Button, buttonClass } from '../ui/button';
import { InlineError } from '../ui/states';
import { keepNewRunnerToken } from '@/lib/client/new-runner-token';
import { runnerHref, runnersListHref, type RunnerScope } from '@/lib/client/runner-paths';
import type { RunnerCreate, RunnerType } from '@/lib/client/types';
import { NEW_RUNNER_DEFAULTS, RunnerFormFields, useRunnerFormState } from './runner-form-fields';
import { useCreateRunner } from './use-runners';

export type NewRunnerTarget =
  { runner_type: 'instance_type' } | { runner_type: 'group_type'; group_id: number } | { runner_type: 'project_type'; project_id: number };

export function RunnerCreateForm({ target, scope }: { target: NewRunnerTarget; scope: RunnerScope }) {
  const create = useCreateRunner();
  const router = useRouter();
  const { problems, summary, read } = useRunnerFormState(create, 'created');

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = read(e.currentTarget);
    if (!v) return;
    const body: RunnerCreate = {
      ...target,
      description: v.description || undefined,
      maintenance_note: v.maintenanceNote || undefined,
      paused: v.paused,
      run_untagged: v.runUntagged,
      tag_list: v.tagList,
      access_level: v.accessLevel,
      ...(target.runner_type === 'project_type' ? { locked: v.locked } : {}),
      ...(v.maximumTimeout !== null ? { maximum_timeout: v.maximumTimeout } : {}),
    };
    create.mutate(body, {
      onSuccess: (runner) => {
        keepNewRunnerToken(runner.id, runner.token);
        router.push(runnerHref(scope, runner.id, 'register'));
      },
    });
  }

  return (
    <form onSubmit={onSubmit} aria-label="New runner" noValidate className="flex flex-col gap-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      {summary && <InlineError>{summary}</InlineError>}
      <RunnerFormFields defaults={NEW_RUNNER_DEFAULTS} lockable={target.runner_type === 'project_type'} problems={problems} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={create.isPending || create.isSuccess}>
          {create.isPending || create.isSuccess ? 'Creating…' : 'Create runner'}
        </Button>
        <Link href={runnersListHref(scope)} className={buttonClass('secondary')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}

const TYPE_WORD: Record<RunnerType, string> = { instance_type: 'instance', group_type: 'group', project_type: 'project' };
export const newRunnerTitle = (type: RunnerType) => `New ${TYPE_WORD[type]} runner`;
