// The personal access token API's endpoint bodies (route files only wire them to paths).
import { created, noContent } from '../api/response';
import { notFound, unauthorized } from '../api/errors';
import { paginated, type RequestContext } from '../api/handler';
import { parseParams } from '../api/params';
import { requireAdmin } from '../users/policy';
import { findUserById } from '../users/queries';
import { personalAccessToken, personalAccessTokenWithLastUsedIps, personalAccessTokenWithToken } from './entity';
import { canListTokensOf, selfServiceScopes } from './policy';
import { listTokens, tokensWhere } from './queries';
import { createOwnTokenParams, createTokenParams, listTokensParams, tokenIdParams } from './schema';
import { createTokenViaApi, currentToken, findVisibleToken, revokeToken, revokeTokenById } from './service';

/** `before { authenticated_as_admin! }`: runs ahead of parameter validation and the user lookup. */
export function adminOnly(ctx: RequestContext): void {
  requireAdmin(ctx.user());
}

/** POST /users/:user_id/personal_access_tokens (admin). */
export async function createTokenForUser(ctx: RequestContext) {
  const input = parseParams(createTokenParams, { ...ctx.raw, user_id: ctx.pathParams.id }, {}, ['user_id']);
  const user = await findUserById(input.user_id!);
  if (!user) throw notFound('User');
  const { record, value } = await createTokenViaApi(user, { ...input, name: input.name ?? '' });
  return created(personalAccessTokenWithToken(record, value));
}

/** POST /user/personal_access_tokens: `k8s_proxy` for token callers (GitLab), any held scope for the dashboard. */
export async function createOwnToken(ctx: RequestContext) {
  const actor = ctx.user();
  const input = parseParams(createOwnTokenParams(selfServiceScopes(actor)), ctx.raw);
  const { record, value } = await createTokenViaApi(actor.user, { ...input, name: input.name ?? '' });
  return created(personalAccessTokenWithToken(record, value));
}

/** GET /personal_access_tokens: own tokens; admins every token, optionally one user's. */
export async function listOwnTokens(ctx: RequestContext) {
  const actor = ctx.user();
  const input = parseParams(listTokensParams, ctx.raw);
  if (input.user_id !== undefined && input.user_id !== null && !canListTokensOf(actor, input.user_id)) throw unauthorized();
  const userId = actor.user.admin ? (input.user_id ?? undefined) : actor.user.id;
  const page = await ctx.paginate(listTokens(tokensWhere(input, userId), input.sort ?? undefined));
  return paginated(page, personalAccessTokenWithLastUsedIps);
}

export async function showToken(ctx: RequestContext) {
  const { id } = parseParams(tokenIdParams, ctx.raw, {}, ['id']);
  return personalAccessTokenWithLastUsedIps(await findVisibleToken(ctx.user(), id!));
}

export async function deleteToken(ctx: RequestContext) {
  const { id } = parseParams(tokenIdParams, ctx.raw, {}, ['id']);
  await revokeTokenById(ctx.user(), id!);
  return noContent();
}

export async function showSelfToken(ctx: RequestContext) {
  return personalAccessToken(await currentToken(ctx.user()));
}

export async function deleteSelfToken(ctx: RequestContext) {
  const token = await currentToken(ctx.user());
  await revokeToken(token.id);
  return noContent();
}
