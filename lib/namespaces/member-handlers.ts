// PUT and DELETE /:source/:id/members/:user_id (route files only wire them to paths).
import type { RequestContext, Shape } from '../api/handler';
import { recordNotFound } from '../api/errors';
import { noContent } from '../api/response';
import { isRowId } from '../db/ids';
import { memberEntity } from './entity';
import { memberSource } from './handlers';
import { memberById } from './members';
import { removeMember, updateMember } from './members-service';
import type { deleteMemberParams, updateMemberParams } from './schema';

type Ctx<S extends Shape> = RequestContext<S>;

/** PUT .../members/:user_id: the updated Member. */
export const updateMemberHandler = (kind: 'group' | 'project') => async (ctx: Ctx<typeof updateMemberParams>) => {
  const actor = ctx.user();
  const source = await memberSource(ctx, kind);
  const { user_id, access_level, expires_at } = ctx.input;
  // A larger integer is a valid parameter that finds no member (find_by! answers 404).
  if (!isRowId(user_id)) throw recordNotFound();
  const id = await updateMember(actor, source, user_id, { accessLevel: access_level, expiresAt: expires_at });
  return memberEntity(await memberById(source, id));
};

/** DELETE .../members/:user_id: 204. */
export const deleteMemberHandler = (kind: 'group' | 'project') => async (ctx: Ctx<typeof deleteMemberParams>) => {
  const actor = ctx.user();
  const source = await memberSource(ctx, kind);
  const { user_id, skip_subresources, unassign_issuables } = ctx.input;
  if (!isRowId(user_id)) throw recordNotFound();
  await removeMember(actor, source, user_id, { skipSubresources: skip_subresources ?? false, unassignIssuables: unassign_issuables ?? false }, ctx.req);
  return noContent();
};
