// GitLab 18's PersonalAccessToken entity (keys in `expose` order) and PersonalAccessTokenWithToken.
import type { PersonalAccessToken } from '../db/generated/client';
import { isExpired } from './policy';

export function personalAccessToken(t: PersonalAccessToken) {
  const expired = isExpired(t);
  return {
    id: t.id,
    name: t.name,
    active: !t.revoked && !expired,
    revoked: t.revoked,
    expired,
    granular: false,
    created_at: t.createdAt.toISOString(),
    description: t.description ?? null,
    scopes: t.scopes,
    user_id: t.userId,
    last_used_at: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
    expires_at: t.expiresAt ? t.expiresAt.toISOString().slice(0, 10) : null,
  };
}

/** PersonalAccessTokenWithLastUsedIps (GET lists and GET :id in GitLab 18); Runway records no IPs. */
export function personalAccessTokenWithLastUsedIps(t: PersonalAccessToken) {
  return Object.assign(personalAccessToken(t), { last_used_ips: [] as string[] });
}

/** Shown once, at creation: the plaintext value is never stored. */
export function personalAccessTokenWithToken(t: PersonalAccessToken, value: string) {
  return Object.assign(personalAccessToken(t), { token: value });
}
