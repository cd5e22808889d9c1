// Who may see and revoke which personal access token, and when a token counts as expired.
import type { Actor } from '../api/authenticate';
import type { PersonalAccessToken } from '../db/generated/client';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES } from '../auth/scopes';

const todayIso = () => new Date().toISOString().slice(0, 10);

/** GitLab: a token expires at the start of its `expires_at` day (the same rule lib/auth applies). */
export function isExpired(t: Pick<PersonalAccessToken, 'expiresAt'>): boolean {
  return !!t.expiresAt && t.expiresAt.toISOString().slice(0, 10) <= todayIso();
}

/** Owners see and revoke their own tokens; admins every token. */
export function canManageToken(actor: Actor, t: Pick<PersonalAccessToken, 'userId'>): boolean {
  return actor.user.admin || t.userId === actor.user.id;
}

/** Non-admins may list only their own tokens (`user_id` of anyone else is 401 in GitLab). */
export function canListTokensOf(actor: Actor, userId: number): boolean {
  return actor.user.admin || actor.user.id === userId;
}

/**
 * Scopes POST /user/personal_access_tokens accepts. GitLab (API callers) allows only `k8s_proxy`;
 * Runway's dashboard session may create any scope the user may hold (admin scopes for admins only).
 */
export function selfServiceScopes(actor: Actor): readonly string[] {
  if (actor.via !== 'session') return ['k8s_proxy'];
  return actor.user.admin ? ALL_SCOPES : ALL_SCOPES.filter((s) => !ADMIN_ONLY_SCOPES.includes(s));
}
