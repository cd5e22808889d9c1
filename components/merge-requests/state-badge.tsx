import { Badge, type BadgeTone } from '../ui/badge';
import type { MergeRequestState } from '@/lib/client/types';

const STATES: Record<MergeRequestState, { label: string; tone: BadgeTone }> = {
  opened: { label: 'Open', tone: 'success' },
  merged: { label: 'Merged', tone: 'info' },
  closed: { label: 'Closed', tone: 'danger' },
  locked: { label: 'Locked', tone: 'warning' },
};

export function MergeRequestStateBadge({ state }: { state: MergeRequestState }) {
  const s = STATES[state] ?? { label: state, tone: 'neutral' as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}
