// Personal access tokens: created with a random `glpat-` value shown once; only its digest is stored.
import { isRowId } from '../db/ids';
import { db, type Prisma } from '../db/client';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES } from '../auth/scopes';
import { digest, newPersonalAccessToken } from '../auth/secrets';
import { apiError, badRequest, notFound, recordNotFound, unauthorized } from '../api/errors';
import type { Actor } from '../api/authenticate';
import type { PersonalAccessToken } from '../db/generated/client';
import { canManageToken } from './policy';

export interface NewToken {
  userId: number;
  name: string;
  scopes: string[];
  /** YYYY-MM-DD, or null for no expiry. */
  expiresAt?: string | null;
  description?: string | null;
}

export type TokenProblem = { kind: 'invalid_scopes' } | { kind: 'admin_scope'; scopes: string[] } | { kind: 'expiry_in_past' } | { kind: 'user_not_found' };

/** GitLab's full message for an expiry date that is not in the future. */
export const EXPIRES_AT_IN_PAST = 'Expires at cannot be a date in the past';

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

/** GitLab's default and maximum lifetime when token expiry is required (the default setting). */
export const MAX_LIFETIME_DAYS = 365;
const addDaysIso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * PersonalAccessTokens::CreateService as the API sees it: the model's validations (sudo only for admins,
 * expiry not beyond the maximum lifetime) answer 422 with the full messages; a missing expiry gets the
 * maximum lifetime. An expiry of today or earlier is refused with GitLab's wording for dates in the past
 * (its FutureDateValidator): such a token would be expired the moment it is shown.
 */
export async function createTokenViaApi(
  target: { id: number; admin: boolean },
  input: { name: string; scopes: string[]; expires_at?: string | null; description?: string | null },
) {
  const problems: string[] = [];
  if (!input.name.trim()) problems.push("Name can't be blank");
  const scopes = input.scopes.filter((s) => s !== '');
  if (!scopes.length) problems.push("Scopes can't be blank");
  const max = addDaysIso(MAX_LIFETIME_DAYS);
  if (input.expires_at && input.expires_at <= todayIso()) problems.push(EXPIRES_AT_IN_PAST);
  if (input.expires_at && input.expires_at > max) problems.push(`Expires at must be before ${max}`);
  if (scopes.includes('sudo') && !target.admin) problems.push('Sudo can only be enabled for administrators');
  if (problems.length) throw apiError(422, toSentence(problems));
  return insertToken({
    userId: target.id,
    name: input.name,
    scopes,
    expiresAt: input.expires_at ?? max,
    description: input.description ?? null,
  });
}

/** Rails' Array#to_sentence. */
function toSentence(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * GET /personal_access_tokens/:id. GitLab tells only admins that a token does not exist: others get
 * 401 for a missing token and for someone else's alike.
 */
export async function findVisibleToken(actor: Actor, id: number): Promise<PersonalAccessToken> {
  const token = isRowId(id) ? await db().personalAccessToken.findUnique({ where: { id } }) : null;
  if (token && canManageToken(actor, token)) return token;
  throw actor.user.admin ? notFound() : unauthorized();
}

/**
 * DELETE /personal_access_tokens/:id. GitLab: unknown id 404 "404 Not Found"; the RevokeService refusing
 * (someone else's token, caller not admin) answers "400 Bad request"; revoking twice succeeds.
 */
export async function revokeTokenById(actor: Actor, id: number): Promise<void> {
  const token = isRowId(id) ? await db().personalAccessToken.findUnique({ where: { id } }) : null;
  if (!token) throw notFound();
  if (!canManageToken(actor, token)) throw badRequest();
  await db().personalAccessToken.update({ where: { id }, data: { revoked: true } });
}

/** The token the request authenticated with, or GitLab's 400 when the caller did not use a PAT. */
export async function currentToken(actor: Actor): Promise<PersonalAccessToken> {
  if (!actor.token) throw badRequest('This endpoint requires token type to be a personal access token');
  const token = await db().personalAccessToken.findUnique({ where: { id: actor.token.id } });
  if (!token) throw recordNotFound();
  return token;
}

export async function revokeToken(id: number): Promise<void> {
  await db().personalAccessToken.update({ where: { id }, data: { revoked: true } });
}
