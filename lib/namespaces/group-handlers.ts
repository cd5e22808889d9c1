// Endpoint bodies of PUT/DELETE /groups/:id and GET /groups/:id/descendant_groups (route files wire them).
import type { RequestContext } from '../api/handler';
import { paramError } from '../api/errors';
import { json } from '../api/response';
import { settingsData } from './group-settings';
import { deleteGroup, updateGroup } from './group-service';
import { groupDetail, groupFilters, pageOfGroups } from './handlers';
import { findGroup } from './resolve';
import type { listGroupsParams, updateGroupParams } from './schema';

/** PUT /groups/:id: answers Entities::GroupDetail with its projects. */
export async function updateGroupHandler(ctx: RequestContext<typeof updateGroupParams>) {
  const actor = ctx.user();
  const group = await findGroup(actor, ctx.pathParams.id);
  const i = ctx.input;
  const settings = settingsData(i, { current: group, root: group.parentId === null, admin: actor.user.admin });
  if (settings.paramErrors.length) throw paramError(settings.paramErrors);
  await updateGroup(actor, group, {
    name: i.name ?? undefined,
    path: i.path ?? undefined,
    description: i.description ?? undefined,
    visibility: i.visibility ?? undefined,
    sharedRunnersSetting: i.shared_runners_setting ?? undefined,
    settings,
  });
  return groupDetail(actor, await findGroup(actor, group.id), true);
}

/** DELETE /groups/:id: 202 as GitLab's accepted!. */
export async function deleteGroupHandler(ctx: RequestContext) {
  const actor = ctx.user();
  await deleteGroup(actor, await findGroup(actor, ctx.pathParams.id));
  return json({ message: '202 Accepted' }, 202);
}

/** GET /groups/:id/descendant_groups: every visible group below this one, Entities::Group. */
export async function listDescendantGroupsHandler(ctx: RequestContext<typeof listGroupsParams>) {
  const group = await findGroup(ctx.actor, ctx.pathParams.id);
  return pageOfGroups(ctx, { ...groupFilters(ctx.input), ancestorId: group.id, topLevelOnly: undefined });
}
