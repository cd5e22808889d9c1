import { Badge } from '../ui/badge';
import type { PersonalAccessToken } from '@/lib/client/types';

/** Revoked wins over expired: a revoked token stays revoked whatever its date. */
export function TokenStateBadge({ token }: { token: PersonalAccessToken }) {
  if (token.revoked) return <Badge tone="danger">Revoked</Badge>;
  if (!token.active) return <Badge tone="warning">Expired</Badge>;
  return <Badge tone="success">Active</Badge>;
}
