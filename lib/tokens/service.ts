// Personal access tokens: created with a random `glpat-` value shown once; only its digest is stored.
import { db, type Prisma } from '../db/client';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES } from '../auth/scopes';
import { digest, newPersonalAccessToken } from '../auth/secrets';

export interface NewToken {
  userId: number;
  name: string;
  scopes: string[];
  /** YYYY-MM-DD, or null for no expiry. */
  expiresAt?: string | null;
  description?: string | null;
}

export type TokenProblem =
  | { kind: 'invalid_scopes' }
  | { kind: 'admin_scope'; scopes: string[] }
  | { kind: 'expiry_in_past' }
  | { kind: 'user_not_found' };

export const todayIso = () => new Date().toISOString().slice(0, 10);

export function checkNewToken(t: NewToken, user: { admin: boolean }): TokenProblem | null {
  if (!t.scopes.length || t.scopes.some((s) => !ALL_SCOPES.includes(s))) return { kind: 'invalid_scopes' };
  const adminScopes = t.scopes.filter((s) => ADMIN_ONLY_SCOPES.includes(s));
  if (adminScopes.length && !user.admin) return { kind: 'admin_scope', scopes: adminScopes };
  if (t.expiresAt && t.expiresAt <= todayIso()) return { kind: 'expiry_in_past' };
  return null;
}

/** Inserts the token and returns it with its one-time plaintext value. */
export async function insertToken(t: NewToken, client: Prisma.TransactionClient | ReturnType<typeof db> = db()) {
  const value = newPersonalAccessToken();
  const record = await client.personalAccessToken.create({
    data: {
      userId: t.userId,
      name: t.name,
      description: t.description ?? null,
      scopes: [...new Set(t.scopes)],
      expiresAt: t.expiresAt ? new Date(`${t.expiresAt}T00:00:00Z`) : null,
      tokenDigest: digest(value),
    },
  });
  return { record, value };
}
