// A runner's status, paused state and type as badges, one colour per status.
import { Badge, type BadgeTone } from '../ui/badge';
import type { Runner, RunnerManager, RunnerType } from '@/lib/client/types';
import { Muted } from '../ui/muted';
import { useOnlineExpiry } from './use-runner-events';

const STATUS: Record<string, { label: string; tone: BadgeTone; hint: string }> = {
  online: { label: 'Online', tone: 'success', hint: 'Contacted in the last 2 hours' },
  offline: { label: 'Offline', tone: 'danger', hint: 'No contact for more than 2 hours' },
  stale: { label: 'Stale', tone: 'warning', hint: 'No contact for more than 7 days' },
  never_contacted: { label: 'Never contacted', tone: 'neutral', hint: 'Has not contacted the server yet' },
};

const TYPES: Record<RunnerType, string> = { instance_type: 'Instance', group_type: 'Group', project_type: 'Project' };

export function StatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status, tone: 'neutral' as const, hint: '' };
  return (
    <span title={s.hint} data-status={status}>
      <Badge tone={s.tone}>{s.label}</Badge>
    </span>
  );
}

/**
 * GitLab reports `paused` as the status only for a contacted, non-stale runner; the connection state is
 * then read from `online`, and "Paused" is always its own badge so both facts show.
 */
export function RunnerStatusBadges({ runner, contactedAt }: { runner: Pick<Runner, 'id' | 'status' | 'online' | 'paused'>; contactedAt?: string | null }) {
  useOnlineExpiry({ id: runner.id, online: runner.online, contactedAt });
  const connection = runner.status === 'paused' ? (runner.online ? 'online' : 'offline') : runner.status;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <StatusBadge status={connection} />
      {runner.paused && (
        <span title="Does not pick up new jobs">
          <Badge tone="warning">Paused</Badge>
        </span>
      )}
    </span>
  );
}

export function ManagerStatusBadge({ manager }: { manager: RunnerManager }) {
  return <StatusBadge status={manager.status} />;
}

export function RunnerTypeBadge({ type }: { type: RunnerType }) {
  return <Badge tone="info">{TYPES[type] ?? type}</Badge>;
}

export const runnerTypeLabel = (type: RunnerType) => TYPES[type] ?? type;

export function TagList({ tags }: { tags: string[] }) {
  if (!tags.length) return <Muted>No tags</Muted>;
  return (
    <span className="flex flex-wrap gap-1">
      {tags.map((t) => (
        <code key={t} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
          {t}
        </code>
      ))}
    </span>
  );
}

const JOB_TONES: Record<string, BadgeTone> = {
  success: 'success',
  failed: 'danger',
  running: 'info',
  pending: 'warning',
  canceled: 'neutral',
  canceling: 'neutral',
  skipped: 'neutral',
  manual: 'neutral',
  created: 'neutral',
};

export function JobStatusBadge({ status }: { status: string }) {
  return <Badge tone={JOB_TONES[status] ?? 'neutral'}>{status.replaceAll('_', ' ')}</Badge>;
}
