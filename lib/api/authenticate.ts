// Who is asking: a personal access token (PRIVATE-TOKEN, Bearer, private_token / access_token) or the
// dashboard's session cookie. Failures answer with GitLab's exact statuses and bodies.
import { db } from '../db/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { isRowId } from '../db/ids';
import type { User } from '../db/generated/client';
import { ApiError, forbidden, unauthorized } from './errors';
import type { Actor } from '../auth/actor';
import { findActiveSessionUser, findUserByLogin, isSessionId, sessionDigest, touchSession } from '../auth/lookups';
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

interface TokenRow {
  token_id: number;
  token_scopes: string[];
  token_expires_at: Date | null;
  token_revoked: boolean;
  token_last_used_at: Date | null;
  [userColumn: string]: unknown;
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The user columns of a credential row (token or session columns carry `prefix`), under the Prisma model's
 * field names (columns are their snake_case).
 */
function userFromRow(row: Record<string, unknown>, prefix: string): User {
  const user: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!k.startsWith(prefix)) user[camel(k)] = v;
  return user as unknown as User;
}

// Every authenticated API request starts here: token and user come back in one indexed query.
async function fromToken(raw: string): Promise<Actor> {
  const rows = await queryRows<TokenRow>(sql`
    SELECT t.id AS token_id, t.scopes AS token_scopes, t.expires_at AS token_expires_at,
           t.revoked AS token_revoked, t.last_used_at AS token_last_used_at, u.*, u.state::text AS state
      FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_digest = ${digest(raw)}`);
  const token = rows[0];
  if (!token) throw unauthorized();
  // GitLab's order: expired, then revoked, then scope (checked by the endpoint).
  if (token.token_expires_at && token.token_expires_at <= today()) {
    throw oauthError(401, 'invalid_token', 'Token is expired. You can either do re-authorization or token refresh.');
  }
  if (token.token_revoked) throw oauthError(401, 'invalid_token', 'Token was revoked. You have to re-authorize from the user.');
  const user = userFromRow(token, 'token_');
  await checkUserActive(user);
  if (!token.token_last_used_at || Date.now() - token.token_last_used_at.getTime() > LAST_USED_INTERVAL_MS) {
    await db().personalAccessToken.update({ where: { id: token.token_id }, data: { lastUsedAt: new Date() } });
  }
  return { user, via: 'token', token: { id: token.token_id, scopes: token.token_scopes } };
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
