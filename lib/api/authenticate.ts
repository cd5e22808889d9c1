// Who is asking: a personal access token (PRIVATE-TOKEN, Bearer, private_token / access_token) or the
// dashboard's session cookie. Failures answer with GitLab's exact statuses and bodies.
import { db } from '../db/client';
import { isRowId } from '../db/ids';
import type { User } from '../db/generated/client';
import { ApiError, forbidden, unauthorized } from './errors';
import type { Actor } from '../auth/actor';
import { findActiveSessionUser, findUserByLogin, isSessionId, sessionDigest, touchSession, userFromRow } from '../auth/lookups';
import { findTokenCredential } from '../auth/token-cache';
import { digest } from '../auth/secrets';
import { csrfTokenValid, readSession } from '../auth/session';

export type { Actor };

const REALM = 'GitLab API';

function oauthError(status: number, error: string, description: string, extra: Record<string, string> = {}) {
  const header = `Bearer realm="${REALM}", error="${error}", error_description="${description}"`;
  return new ApiError(status, { error, error_description: description, ...extra }, { 'WWW-Authenticate': header });
}

export const insufficientScope = (accepted: string[]) =>
  oauthError(403, 'insufficient_scope', 'The request requires higher privileges than provided by the access token.', {
    scope: accepted.join(' '),
  });

function presentedToken(req: Request, params: Record<string, unknown>): string | undefined {
  const header = req.headers.get('private-token');
  if (header) return header.trim();
  const auth = req.headers.get('authorization');
  const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (bearer) return bearer[1].trim();
  for (const key of ['private_token', 'access_token']) {
    const v = params[key];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

const today = () => new Date(new Date().toISOString().slice(0, 10));
// GitLab writes last_used_at at most once per interval, so reads do not become writes.
const LAST_USED_INTERVAL_MS = 10 * 60 * 1000;

async function checkUserActive(user: User): Promise<void> {
  if (user.state === 'blocked') throw forbidden('Your account has been blocked.');
}

// Every authenticated API request starts here: the token and its user, from the process's token cache or
// one indexed query (lib/auth/token-cache.ts).
async function fromToken(raw: string): Promise<Actor> {
  const token = await findTokenCredential(digest(raw));
  if (!token) throw unauthorized();
  // GitLab's order: expired, then revoked, then scope (checked by the endpoint).
  if (token.expiresAt && token.expiresAt <= today()) {
    throw oauthError(401, 'invalid_token', 'Token is expired. You can either do re-authorization or token refresh.');
  }
  if (token.revoked) throw oauthError(401, 'invalid_token', 'Token was revoked. You have to re-authorize from the user.');
  await checkUserActive(token.user);
  if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > LAST_USED_INTERVAL_MS) {
    await db().personalAccessToken.update({ where: { id: token.tokenId }, data: { lastUsedAt: new Date() } });
  }
  return { user: token.user, via: 'token', token: { id: token.tokenId, scopes: token.scopes } };
}

/** The user of a signed-in dashboard session: session row and user in one indexed query; null otherwise. */
export async function sessionUser(sid: string, userId: number): Promise<User | null> {
  if (!isSessionId(sid)) return null;
  const idDigest = sessionDigest(sid);
  const row = await findActiveSessionUser(idDigest, userId);
  // A revoked, expired or unknown session, or a deleted or blocked user's, simply stops counting.
  if (!row || row.state !== 'active') return null;
  await touchSession(idDigest, row.session_last_seen_at);
  return userFromRow(row, 'session_');
}

async function fromSession(req: Request): Promise<Actor | null> {
  const session = await readSession(req);
  if (!session) return null;
  const user = await sessionUser(session.sid, session.userId);
  if (!user) return null;
  if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method)) {
    if (!csrfTokenValid(session.sid, req.headers.get('x-csrf-token'))) throw forbidden('Invalid CSRF token');
  }
  return { user, via: 'session', sessionId: sessionDigest(session.sid) };
}

/** Resolves the actor, or null for an anonymous request. Bad credentials throw GitLab's 401/403. */
export async function authenticate(req: Request, params: Record<string, unknown>): Promise<Actor | null> {
  const raw = presentedToken(req, params);
  if (raw) return fromToken(raw);
  return fromSession(req);
}

/**
 * Throws GitLab's insufficient_scope unless the token holds one of the accepted scopes; the answer lists
 * `registered` (every scope the endpoint knows), as GitLab's does.
 */
export function requireScope(actor: Actor | null, accepted: string[], registered: string[] = accepted): void {
  if (!actor?.token) return;
  if (!actor.token.scopes.some((s) => accepted.includes(s))) throw insufficientScope(registered);
}

/** `Sudo` (header or parameter): an admin whose token has the `sudo` scope acts as another user. */
export async function applySudo(actor: Actor | null, req: Request, params: Record<string, unknown>): Promise<Actor | null> {
  const raw = req.headers.get('sudo') ?? (typeof params.sudo === 'string' || typeof params.sudo === 'number' ? String(params.sudo) : null);
  if (!raw || !actor) return actor;
  if (!actor.user.admin) throw forbidden('Must be admin to use sudo');
  if (!actor.token?.scopes.includes('sudo')) throw insufficientScope(['sudo']);
  const target = /^\d+$/.test(raw)
    ? isRowId(Number(raw))
      ? await db().user.findUnique({ where: { id: Number(raw) } })
      : null
    : await findUserByLogin('username', raw);
  if (!target) throw new ApiError(404, { message: `404 User with ID or username '${raw}' Not Found` });
  return { ...actor, user: target, sudoFrom: actor.user };
}
