// The JSON of a dashboard session (a Runway extension: GitLab has no API for active sessions). Field names
// follow GitLab's ActiveSession where it has one.
import type { UserSession } from '../db/generated/client';

/** `id` is the session's digest (GitLab's revoke path names a session by a hash of its cookie's id too). */
export function userSession(s: UserSession, currentDigest: string | undefined) {
  return {
    id: s.idDigest,
    ip_address: s.ip,
    user_agent: s.userAgent,
    created_at: s.createdAt.toISOString(),
    last_activity_at: s.lastSeenAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    current: s.idDigest === currentDigest,
  };
}
