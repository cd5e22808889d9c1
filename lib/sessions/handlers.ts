// The endpoint bodies of GET /user/sessions and DELETE /user/sessions/:id: the caller's own dashboard
// sessions, listed and revoked. Owner-scoped by construction: every query is bound to the caller's user id.
import { notFound } from '../api/errors';
import { paginated, type RequestContext } from '../api/handler';
import { parseParams } from '../api/params';
import { noContent } from '../api/response';
import { userSession } from './entity';
import { listActiveSessions } from './queries';
import { isSessionDigest, listSessionsParams, sessionIdParams } from './schema';
import { revokeSession } from './service';

export async function listOwnSessions(ctx: RequestContext) {
  const actor = ctx.user();
  parseParams(listSessionsParams, ctx.raw);
  const page = await ctx.paginate(listActiveSessions(actor.user.id));
  return paginated(page, (s) => userSession(s, actor.sessionId));
}

/** Revoking the current session signs the caller out, as signing out does. */
export async function revokeOwnSession(ctx: RequestContext) {
  const actor = ctx.user();
  const { id } = parseParams(sessionIdParams, ctx.raw);
  if (!isSessionDigest(id!) || !(await revokeSession(actor.user.id, id!.toLowerCase()))) throw notFound('Session');
  return noContent();
}
