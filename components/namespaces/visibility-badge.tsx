// A project's or group's visibility level, in GitLab's words.
import { Badge } from '../ui/badge';
import type { Visibility } from '@/lib/client/types';

const LABELS: Record<Visibility, { label: string; hint: string }> = {
  private: { label: 'Private', hint: 'Only members can see it.' },
  internal: { label: 'Internal', hint: 'Any signed-in user can see it.' },
  public: { label: 'Public', hint: 'Anyone can see it, signed in or not.' },
};

export function VisibilityBadge({ visibility }: { visibility: Visibility | undefined }) {
  if (!visibility) return null;
  const { label, hint } = LABELS[visibility];
  return (
    <span title={hint}>
      <Badge tone={visibility === 'private' ? 'neutral' : visibility === 'internal' ? 'warning' : 'success'}>{label}</Badge>
    </span>
  );
}
