// The members API's endpoint bodies (GitLab's members.rb) for groups and projects alike: list, show, add,
// change and remove /:source/:id/members (route files only wire them to paths).
import { type RequestContext, type Shape, paginated } from '../api/handler';
import { recordNotFound } from '../api/errors';
import { noContent, created } from '../api/response';
import { isRowId } from '../db/ids';

import { memberById, countMembers, findMember, listMembers, type MemberViewer } from './queries';
import { removeMember, updateMember, addMember } from './service';
import { type deleteMemberParams, type updateMemberParams, createMemberParams, integers, listMembersParams } from '../namespaces/schema';
import { findGroup, findProject, groupViewer, projectViewer } from '../namespaces/resolve';
import type { MemberSource } from '../namespaces/service';
import { memberEntity } from './entity';

type Ctx<S extends Shape> = RequestContext<S>;

export async function memberSource(ctx: RequestContext, kind: 'group' | 'project'): Promise<MemberSource> {
  const actor = ctx.user();
  return kind === 'group' ? { kind, group: await findGroup(actor, ctx.pathParams.id) } : { kind, project: await findProject(actor, ctx.pathParams.id) };
}

/** The asker as /members/all sees them: which invited groups' members they are shown depends on it. */
async function memberViewer(ctx: RequestContext, source: MemberSource, inherited: boolean): Promise<MemberViewer> {
  const actor = ctx.actor;
  // Direct lists have no invited rows: no level lookup needed.
  if (!actor || !inherited) return { userId: actor?.user.id ?? null, sourceLevel: 0 };
  const viewer = source.kind === 'group' ? await groupViewer(actor, source.group) : await projectViewer(actor, source.project);
  return { userId: actor.user.id, sourceLevel: viewer.level };
}

/** GET /:source/:id/members and /members/all */
export const listMembersHandler = (kind: 'group' | 'project', inherited: boolean) => async (ctx: Ctx<typeof listMembersParams>) => {
  const source = await memberSource(ctx, kind);
  const f = { query: ctx.input.query || undefined, userIds: integers(ctx.input.user_ids, 'user_ids') };
  const viewer = await memberViewer(ctx, source, inherited);
  const page = await ctx.paginate({
    fetch: (offset, limit) => listMembers(source, inherited, f, { offset, limit }, viewer),
    count: () => countMembers(source, inherited, f, viewer),
  });
  return paginated(page, memberEntity);
};

/** GET /:source/:id/members/:user_id and /members/all/:user_id */
export const showMemberHandler = (kind: 'group' | 'project', inherited: boolean) => async (ctx: RequestContext) => {
  const source = await memberSource(ctx, kind);
  const userId = ctx.pathParams.user_id ?? '';
  if (!/^\d+$/.test(userId) || Number(userId) > 2147483647) throw recordNotFound();
  const member = await findMember(source, Number(userId), inherited, await memberViewer(ctx, source, inherited));
  if (!member) throw recordNotFound();
  return memberEntity(member);
};

/** POST /:source/:id/members */
export const createMemberHandler = (kind: 'group' | 'project') => async (ctx: Ctx<typeof createMemberParams>) => {
  const actor = ctx.user();
  const source = await memberSource(ctx, kind);
  const i = ctx.input;
  const id = await addMember(actor, source, {
    userId: i.user_id ?? undefined,
    username: i.username ?? undefined,
    accessLevel: i.access_level,
    expiresAt: i.expires_at,
  });
  return created(memberEntity(await memberById(source, id)));
};

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
