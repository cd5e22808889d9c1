// Entities::Member: a group's or project's membership, in GitLab's field order.
import type { User } from '../db/generated/client';
import { userBasic } from '../users/entity';
import { iso, isoDate } from '../namespaces/entity';

export interface MemberRow {
  accessLevel: number;
  createdAt: Date;
  expiresAt: Date | null;
  user: User;
  createdBy?: User | null;
}

/** Entities::Member: UserBasic at the top level, then the membership. */
export function memberEntity(m: MemberRow) {
  return Object.assign(userBasic(m.user), {
    access_level: m.accessLevel,
    created_at: iso(m.createdAt),
    ...(m.createdBy ? { created_by: userBasic(m.createdBy) } : {}),
    expires_at: isoDate(m.expiresAt),
  });
}
