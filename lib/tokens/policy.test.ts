import { describe, expect, it } from 'vitest';
import type { Actor } from '../api/authenticate';
import type { User } from '../db/generated/client';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES } from '../auth/scopes';
import { canListTokensOf, canManageToken, isExpired, selfServiceScopes } from './policy';

const actor = (id: number, admin: boolean, via: Actor['via'] = 'token'): Actor => ({
  user: { id, admin } as User,
  via,
  ...(via === 'token' ? { token: { id: 1, scopes: ['api'] } } : {}),
});

describe('[TOKENS] policy matrix', () => {
  const owner = actor(1, false);
  const stranger = actor(2, false);
  const admin = actor(3, true);

  it('lets owners and admins manage a token, nobody else', () => {
    const token = { userId: 1 };
    expect([owner, stranger, admin].map((a) => canManageToken(a, token))).toEqual([true, false, true]);
  });

  it('lets non-admins list only their own tokens', () => {
    expect([owner, stranger, admin].map((a) => canListTokensOf(a, 1))).toEqual([true, false, true]);
  });

  it('limits token callers of POST /user/personal_access_tokens to k8s_proxy; sessions get what the user may hold', () => {
    expect(selfServiceScopes(owner)).toEqual(['k8s_proxy']);
    expect(selfServiceScopes(admin)).toEqual(['k8s_proxy']);
    const userSession = selfServiceScopes(actor(1, false, 'session'));
    expect(userSession).toContain('api');
    for (const s of ADMIN_ONLY_SCOPES) expect(userSession).not.toContain(s);
    expect(selfServiceScopes(actor(3, true, 'session'))).toEqual(ALL_SCOPES);
  });

  it('counts a token as expired from the first moment of its expiry day', () => {
    const day = (offset: number) => new Date(`${new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`);
    expect(isExpired({ expiresAt: null })).toBe(false);
    expect(isExpired({ expiresAt: day(1) })).toBe(false);
    expect(isExpired({ expiresAt: day(0) })).toBe(true);
    expect(isExpired({ expiresAt: day(-1) })).toBe(true);
  });
});
