'use client';
// One runner of a project's CI/CD settings, as a full row of GitLab's runner list: status with its icon,
// #id and description, tags, lock, paused, version and last contact, then only the actions the viewer may
// take on it here (the settings page decides enable/disable; edit, pause and remove follow the runner's
// permissions from the API). Its own component so the shared runners table keeps its props.
import { CircleDashed, Clock, Lock, Pause, Wifi, WifiOff, type LucideIcon } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { TagList } from '../shared/tag-list';
import { RelativeTime } from '../shared/relative-time';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import type { RunnerListItem } from '@/lib/client/types';

const STATUS: Record<string, { label: string; icon: LucideIcon; className: string; hint: string }> = {
  online: { label: 'Online', icon: Wifi, className: 'text-emerald-700', hint: 'Runner is online; last contact was within the last 2 hours' },
  offline: { label: 'Offline', icon: WifiOff, className: 'text-red-700', hint: 'Runner is offline; last contact was more than 2 hours ago' },
  stale: { label: 'Stale', icon: Clock, className: 'text-amber-700', hint: 'Runner has not contacted GitLab in more than 7 days' },
  never_contacted: { label: 'Never contacted', icon: CircleDashed, className: 'text-slate-600', hint: 'Runner has never contacted this instance' },
};

/** The connection status (GitLab reports `paused` as the status of a contacted runner; paused shows apart). */
function RunnerStatus({ runner: r }: { runner: RunnerListItem }) {
  const key = r.status === 'paused' ? (r.online ? 'online' : 'offline') : r.status;
  const s = STATUS[key] ?? STATUS.never_contacted;
  const Icon = s.icon;
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-sm font-medium', s.className)} title={s.hint} data-status={key}>
      <Icon aria-hidden className="size-4 shrink-0" />
      {s.label}
    </span>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="inline-flex gap-1">
      <span className="text-slate-500">{label}</span>
      <span className="text-slate-800">{children}</span>
    </span>
  );
}

export function ProjectRunnerRow({ runner: r, href, actions }: { runner: RunnerListItem; href?: string; actions?: ReactNode }) {
  const d = r._runway;
  return (
    <div className="flex min-w-0 flex-col gap-3 whitespace-normal sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <RunnerStatus runner={r} />
          {r.paused && (
            <span title="Runner is paused and does not pick up new jobs">
              <Badge tone="warning">
                <Pause aria-hidden className="-ml-0.5 mr-1 inline size-3" />
                Paused
              </Badge>
            </span>
          )}
          {d?.locked && (
            // GitLab's lock icon with its tooltip; the label keeps the meaning without hovering.
            <span
              className="inline-flex items-center gap-1 text-xs font-medium text-slate-700"
              title="Locked: available to its current projects only. Only administrators can change them."
            >
              <Lock aria-hidden className="size-3.5" />
              Locked
            </span>
          )}
        </div>
        <p className="min-w-0 break-words">
          {href ? (
            <Link href={href} className="font-medium text-indigo-700 hover:underline">
              #{r.id}
              {r.description ? ` (${r.description})` : ''}
            </Link>
          ) : (
            <span className="font-medium text-slate-900">
              #{r.id}
              {r.description ? ` (${r.description})` : ''}
            </span>
          )}
        </p>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          <Fact label="Version">{d?.version ?? 'Unknown'}</Fact>
          <Fact label="Last contact">{d?.contacted_at ? <RelativeTime iso={d.contacted_at} /> : 'Never'}</Fact>
          {r.runner_type === 'project_type' && d?.owner && <Fact label="Owner">{d.owner.full_name}</Fact>}
        </p>
        {d && d.tag_list.length > 0 && (
          <div className="text-xs">
            <span className="sr-only">Tags: </span>
            <TagList tags={d.tag_list} />
          </div>
        )}
      </div>
      {actions && <div className="flex shrink-0 flex-col items-start gap-1 sm:items-end">{actions}</div>}
    </div>
  );
}
