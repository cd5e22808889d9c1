// A runner page's header, as GitLab's: "#id (short token)" with the description, the status, type, paused and
// locked badges, who created it and when, and the actions the page passes in.
import type { ReactNode } from 'react';
import { formatDateTime } from '../shared/format';
import type { RunnerDetails } from '@/lib/client/types';
import { LockedBadge, RunnerStatusBadges, RunnerTypeBadge } from './runner-badges';

export function RunnerHeader({ runner, title, actions, live }: { runner: RunnerDetails; title?: ReactNode; actions?: ReactNode; live?: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">
          {title ?? (
            <>
              #{runner.id}
              {runner.description && <span className="ml-2 font-normal text-slate-700">{runner.description}</span>}
            </>
          )}
        </h1>
        <div className="mt-2 flex flex-wrap items-center gap-2" data-testid="runner-header-badges">
          <RunnerStatusBadges runner={runner} contactedAt={runner.contacted_at} />
          <RunnerTypeBadge type={runner.runner_type} />
          {runner.locked && runner.runner_type === 'project_type' && <LockedBadge />}
          {live}
        </div>
        <p className="mt-2 text-sm text-slate-600" data-testid="runner-created">
          Created{' '}
          {runner.created_by ? (
            <>
              by <span className="font-medium text-slate-800">@{runner.created_by.username}</span>{' '}
            </>
          ) : null}
          <time dateTime={runner.created_at}>{formatDateTime(runner.created_at)}</time>
        </p>
      </div>
      {actions && <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
