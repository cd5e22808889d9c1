import { describe, expect, it } from 'vitest';
import type { Actor } from '../api/authenticate';
import type { User } from '../db/generated/client';
import { ApiError } from '../api/errors';
import { checkCanBlock, isAdmin, requireAdmin } from './policy';

const actor = (id: number, admin: boolean): Actor => ({ user: { id, admin } as User, via: 'token' });
const outcome = (fn: () => void) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? `${err.status} ${String(err.body.message)}` : 'crash';
  }
};

describe('[USERS] policy matrix', () => {
  it('requires admins for admin endpoints', () => {
    expect(outcome(() => requireAdmin(actor(1, true)))).toBe('ok');
    expect(outcome(() => requireAdmin(actor(2, false)))).toBe('403 403 Forbidden');
    expect([isAdmin(actor(1, true)), isAdmin(actor(2, false)), isAdmin(null)]).toEqual([true, false, false]);
  });

  it('never lets an admin block itself', () => {
    expect(outcome(() => checkCanBlock(actor(1, true), 2))).toBe('ok');
    expect(outcome(() => checkCanBlock(actor(1, true), 1))).toBe('403 403 Forbidden - The API initiating user cannot be blocked by the API');
  });
});
