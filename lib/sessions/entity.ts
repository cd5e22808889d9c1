// The JSON of a dashboard session (a Runway extension: GitLab has no API for active sessions). Field names
// follow GitLab's ActiveSession where it has one.
import type { UserSession } from '../db/generated/client';

export function userSession(s: UserSession, currentSid: string | undefined) {
  return {
    id: s.id,
    ip_address: s.ip,
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_activity_at: s.lastSeenAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    current: s.id === currentSid,
  };
}
