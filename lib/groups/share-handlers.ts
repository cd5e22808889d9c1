// POST/DELETE /groups/:id/share and /projects/:id/share (route files only wire them to paths).
import type { RequestContext, Shape } from '../api/handler';
import { ApiError } from '../api/errors';
import { created, noContent } from '../api/response';
import { isRowId } from '../db/ids';
import { projectGroupLinkEntity } from '../namespaces/entity';
import { groupDetail } from './handlers';
import { findGroup, findProject } from '../namespaces/resolve';
import type { shareGroupParams, shareProjectParams, unshareParams } from '../namespaces/schema';
import { shareGroup, shareProject, unshareGroup, unshareProject } from '../namespaces/shares';

type Ctx<S extends Shape> = RequestContext<S>;

const notFoundAsNull = (err: unknown) => {
  if (err instanceof ApiError && err.status === 404) return null;
  throw err;
};

/** POST /groups/:id/share: 201 with the shared group's GroupDetail. */
export async function shareGroupHandler(ctx: Ctx<typeof shareGroupParams>) {
  const actor = ctx.user();
  const group = await findGroup(actor, ctx.pathParams.id);
  const i = ctx.input;
  const invited = await findGroup(actor, i.group_id ?? 0);
  await shareGroup(actor, group, invited, { groupAccess: i.group_access, expiresAt: i.expires_at });
  return created(await groupDetail(actor, await findGroup(actor, group.id), true));
}

/** DELETE /groups/:id/share/:group_id: 204. */
export async function unshareGroupHandler(ctx: Ctx<typeof unshareParams>) {
  const actor = ctx.user();
  const group = await findGroup(actor, ctx.pathParams.id);
  await unshareGroup(actor, group, ctx.input.group_id ?? 0);
  return noContent();
}

/** POST /projects/:id/share: 201 with Entities::ProjectGroupLink. */
export async function shareProjectHandler(ctx: Ctx<typeof shareProjectParams>) {
  const actor = ctx.user();
  const project = await findProject(actor, ctx.pathParams.id);
  const i = ctx.input;
  // Projects::GroupLinks::CreateService: a group the caller cannot read is the same 404 as none.
  const invited = isRowId(i.group_id) ? await findGroup(actor, i.group_id).catch(notFoundAsNull) : null;
  // The row as created: reading it back could find it already removed by a concurrent unshare.
  return created(projectGroupLinkEntity(await shareProject(actor, project, invited, { groupAccess: i.group_access, expiresAt: i.expires_at })));
}

/** DELETE /projects/:id/share/:group_id: 204. */
export async function unshareProjectHandler(ctx: Ctx<typeof unshareParams>) {
  const actor = ctx.user();
  const project = await findProject(actor, ctx.pathParams.id);
  await unshareProject(actor, project, ctx.input.group_id ?? 0);
  return noContent();
}
