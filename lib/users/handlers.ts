// The users API's endpoint bodies (route files only wire them to paths).
import { created, json, noContent } from '../api/response';
import { forbidden, notFound, routeNotFound } from '../api/errors';
import { paginated, type RequestContext } from '../api/handler';
import { parseParams } from '../api/params';
import type { Actor } from '../api/authenticate';
import { membershipEntity, userBasic, userDetails, userDetailsWithAdmin, userPublic, userWithAdmin } from './entity';
import { checkCanBlock, isAdmin, requireAdmin, seesAdminFields } from './policy';
import { adminExtrasFor, findUserById, membershipsPageSource, usersOrder, usersPageSource, usersWhere } from './queries';
import { deleteUserParams, listUsersParams, parseCreateUser, updateUserParams, userIdParams, userListLinkParams, userMembershipsParams } from './schema';
import { paginate } from '../api/pagination';
import { createUserByAdmin, deleteUserByAdmin, setUserState, unlockUserByAdmin, updateUserByAdmin } from './service';
import { auditIp } from '../audit/service';
import { isRowId } from '../db/ids';
import { checkUnmodifiedSince } from '../api/preconditions';
import type { User } from '../db/generated/client';

/** lib/api/users.rb requires /users/:id to be digits: any other id matches no route at all (404). */
export function numericIdRoute(ctx: RequestContext): void {
  if (!/^\d+$/.test(ctx.pathParams.id ?? '')) throw routeNotFound();
}

async function withAdminExtras(user: User, detailed = false) {
  const extras = (await adminExtrasFor([user])).get(user.id);
  return detailed ? userDetailsWithAdmin(user, extras) : userWithAdmin(user, extras);
}

/** GET /user: UserWithAdmin for admins, UserPublic otherwise. */
export async function currentUser(ctx: RequestContext) {
  const actor = ctx.user();
  return isAdmin(actor) ? withAdminExtras(actor.user) : userPublic(actor.user);
}

/** POST /users: 401, Grape validation (400), then authenticated_as_admin! (403), as GitLab orders them. */
export async function createUser(ctx: RequestContext) {
  const actor = ctx.user();
  const input = parseCreateUser(ctx.raw);
  requireAdmin(actor);
  const user = await createUserByAdmin(input, actor.user.id);
  return created(await withAdminExtras(user));
}

/**
 * GET /users: any signed-in user; admins get UserWithAdmin rows, others UserBasic. As GitLab, an anonymous
 * caller may only look one user up by exact `username` (403 otherwise).
 */
export async function listUsers(ctx: RequestContext) {
  const actor = ctx.actor;
  const input = parseParams(listUsersParams, ctx.raw);
  if (!actor && !input.username) throw forbidden('Not authorized to access /api/v4/users');
  const admin = seesAdminFields(actor);
  const where = await usersWhere(input, admin);
  const orderBy = usersOrder(input, admin);
  const link = { path: ctx.path, params: userListLinkParams(ctx.linkParams, input, admin) };
  const page = await paginate(link, ctx.page(), usersPageSource(where, orderBy));
  if (!admin) return paginated(page, userBasic);
  const extras = await adminExtrasFor(page.items);
  return paginated(page, (u) => userWithAdmin(u, extras.get(u.id)));
}

/** GET /users/:id: Entities::User, or UserDetailsWithAdmin for admins. */
export async function showUser(ctx: RequestContext) {
  // GitLab: `forbidden!('Not authorized!') unless current_user` (403, not 401).
  const actor = ctx.actor;
  if (!actor) throw forbidden('Not authorized!');
  const { id } = parseParams(userIdParams, ctx.raw, {}, ['id']);
  const user = await findUserById(id!);
  if (!user) throw notFound('User');
  return isAdmin(actor) ? withAdminExtras(user, true) : userDetails(user);
}

async function adminTarget(ctx: RequestContext): Promise<{ actor: Actor; user: User }> {
  const actor = ctx.user();
  const { id } = parseParams(userIdParams, ctx.raw, {}, ['id']);
  requireAdmin(actor);
  const user = await findUserById(id!);
  if (!user) throw notFound('User');
  return { actor, user };
}

/** POST /users/:id/block: 201 `true`; an already blocked user gives 201 `null` (GitLab's `break`). */
export async function blockUser(ctx: RequestContext) {
  const { actor, user } = await adminTarget(ctx);
  checkCanBlock(actor, user.id);
  const changed = await setUserState(user.id, 'blocked');
  return json(changed ? true : null, 201);
}

/** POST /users/:id/unblock: 201 with UnblockService's success?: `true`, or `false` for a user not blocked. */
export async function unblockUser(ctx: RequestContext) {
  const { user } = await adminTarget(ctx);
  return json(await setUserState(user.id, 'active'), 201);
}

/**
 * POST /users/:id/unlock, a Runway extension (GitLab unlocks only from its admin page): admins lift every
 * sign-in lock of the user. 201 `true` when a lock was on, `false` when none was (as unblock answers).
 */
export async function unlockUser(ctx: RequestContext) {
  const { actor, user } = await adminTarget(ctx);
  return json(await unlockUserByAdmin(user, actor, auditIp(ctx.req)), 201);
}

/** PUT /users/:id: UserWithAdmin. Parameters (400), then authenticated_as_admin! (403), then the user (404). */
export async function updateUser(ctx: RequestContext) {
  const actor = ctx.user();
  const input = parseParams(updateUserParams, ctx.raw, {}, ['id']);
  requireAdmin(actor);
  const user = await findUserById(input.id!);
  if (!user) throw notFound('User');
  return withAdminExtras(await updateUserByAdmin(user, input));
}

/** DELETE /users/:id: 204; 409 while the user alone owns a group (unless hard_delete). */
export async function deleteUser(ctx: RequestContext) {
  const actor = ctx.user();
  const { id, hard_delete } = parseParams(deleteUserParams, ctx.raw, {}, ['id']);
  requireAdmin(actor);
  const deleted = isRowId(id) && (await deleteUserByAdmin(id, hard_delete ?? false, (updatedAt) => checkUnmodifiedSince(ctx.req, updatedAt)));
  if (!deleted) throw notFound('User');
  return noContent();
}

/** GET /users/:id/memberships: admins only; `type` Project or Namespace. */
export async function listUserMemberships(ctx: RequestContext) {
  const actor = ctx.user();
  const { user_id, type } = parseParams(userMembershipsParams, { ...ctx.raw, user_id: ctx.pathParams.id }, {}, ['user_id']);
  requireAdmin(actor);
  const user = await findUserById(user_id!);
  if (!user) throw notFound('User');
  return paginated(await ctx.paginate(membershipsPageSource(user.id, type)), membershipEntity);
}
