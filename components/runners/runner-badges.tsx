// A runner's status, paused state and type as badges: an icon and a word each (never colour alone),
// with GitLab's status definitions in the tooltip.
import {
  Ban,
  CircleArrowUp,
  CircleCheck,
  CircleDashed,
  CirclePause,
  CircleSlash,
  CircleX,
  Clock,
  Clock4,
  FolderGit2,
  Globe,
  Hand,
  LoaderCircle,
  Lock,
  Unplug,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { Badge, type BadgeTone } from '../ui/badge';
import type { Runner, RunnerManager, RunnerType, RunnerUpgradeStatus } from '@/lib/client/types';
import { useOnlineExpiry } from './use-runner-events';

const STATUS: Record<string, { label: string; tone: BadgeTone; hint: string; icon: LucideIcon }> = {
  online: { label: 'Online', tone: 'success', hint: 'Contacted in the last 2 hours', icon: CircleCheck },
  offline: { label: 'Offline', tone: 'danger', hint: 'No contact for more than 2 hours', icon: Unplug },
  stale: { label: 'Stale', tone: 'warning', hint: 'No contact for more than 7 days, or created 7 or more days ago and never contacted', icon: Clock4 },
  never_contacted: { label: 'Never contacted', tone: 'neutral', hint: 'Has never contacted this instance', icon: CircleDashed },
};

const TYPES: Record<RunnerType, string> = { instance_type: 'Instance', group_type: 'Group', project_type: 'Project' };
const TYPE_ICONS: Record<RunnerType, LucideIcon> = { instance_type: Globe, group_type: Users, project_type: FolderGit2 };

/** A badge with a decorative icon before its word, and a tooltip. */
export function IconBadge({ tone, icon: Icon, hint, children }: { tone: BadgeTone; icon?: LucideIcon; hint?: string; children: React.ReactNode }) {
  return (
    <span title={hint}>
      <Badge tone={tone}>
        <span className="inline-flex items-center gap-1">
          {Icon && <Icon aria-hidden className="size-3.5" />}
          {children}
        </span>
      </Badge>
    </span>
  );
}

/** A status icon sized for badges and filter tokens (decorative: the word beside it names the status). */
export function StatusIcon({ status, className = 'size-3.5' }: { status: string; className?: string }) {
  const Icon = STATUS[status]?.icon;
  return Icon ? <Icon aria-hidden className={className} /> : null;
}

export function TypeIcon({ type, className = 'size-3.5' }: { type: RunnerType; className?: string }) {
  const Icon = TYPE_ICONS[type];
  return Icon ? <Icon aria-hidden className={className} /> : null;
}

export function StatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status, tone: 'neutral' as const, hint: '', icon: undefined };
  return (
    <span data-status={status}>
      <IconBadge tone={s.tone} icon={s.icon} hint={s.hint}>
        {s.label}
      </IconBadge>
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
        <IconBadge tone="warning" icon={CirclePause} hint="Does not pick up new jobs">
          Paused
        </IconBadge>
      )}
    </span>
  );
}

export function ManagerStatusBadge({ manager }: { manager: RunnerManager }) {
  return <StatusBadge status={manager.status} />;
}

// GitLab's words (ee runner_upgrade_status_badge.vue and the runner constants): a badge for the two statuses
// that call for an upgrade, none for an up-to-date, invalid or unknown version.
const UPGRADE: Partial<Record<RunnerUpgradeStatus, { label: string; tone: BadgeTone; hint: string }>> = {
  recommended: { label: 'Upgrade recommended', tone: 'warning', hint: 'This runner is outdated, an upgrade is recommended' },
  available: { label: 'Upgrade available', tone: 'info', hint: 'A new version is available' },
};

/** "Upgrade recommended" or "Upgrade available" (GitLab's badge); nothing for the other statuses. */
export function UpgradeStatusBadge({ status }: { status: RunnerUpgradeStatus | null | undefined }) {
  const u = status ? UPGRADE[status] : undefined;
  if (!u) return null;
  return (
    <span data-upgrade-status={status}>
      <IconBadge tone={u.tone} icon={CircleArrowUp} hint={u.hint}>
        {u.label}
      </IconBadge>
    </span>
  );
}

export function RunnerTypeBadge({ type }: { type: RunnerType }) {
  return (
    <IconBadge tone="info" icon={TYPE_ICONS[type]}>
      {TYPES[type] ?? type}
    </IconBadge>
  );
}

export const runnerTypeLabel = (type: RunnerType) => TYPES[type] ?? type;

const JOB_STATUS: Record<string, { tone: BadgeTone; icon: LucideIcon; label?: string }> = {
  success: { tone: 'success', icon: CircleCheck, label: 'Passed' },
  failed: { tone: 'danger', icon: CircleX },
  running: { tone: 'info', icon: LoaderCircle },
  pending: { tone: 'warning', icon: Clock },
  preparing: { tone: 'warning', icon: Clock },
  waiting_for_resource: { tone: 'warning', icon: Clock },
  scheduled: { tone: 'neutral', icon: Clock },
  canceled: { tone: 'neutral', icon: Ban },
  canceling: { tone: 'neutral', icon: Ban },
  skipped: { tone: 'neutral', icon: CircleSlash },
  manual: { tone: 'neutral', icon: Hand },
  created: { tone: 'neutral', icon: CircleDashed },
};

/** GitLab's job status words ("Passed" for success), capitalised, with the status icon. */
export function JobStatusBadge({ status }: { status: string }) {
  const s = JOB_STATUS[status] ?? { tone: 'neutral' as const, icon: CircleDashed };
  const word = s.label ?? status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');
  return (
    <span data-status={status}>
      <IconBadge tone={s.tone} icon={s.icon}>
        {word}
      </IconBadge>
    </span>
  );
}

export function LockedBadge() {
  return (
    <span title="Cannot be assigned to other projects">
      <IconBadge tone="neutral" icon={Lock}>
        Locked
      </IconBadge>
    </span>
  );
}
