// The groups API's endpoint bodies (GitLab's groups.rb): GET/POST /groups, GET/PUT/DELETE /groups/:id,
// subgroups and descendant groups (route files wire them to paths).
import { type RequestContext, paginated, type Shape } from '../api/handler';
import { paramError, notFound } from '../api/errors';
import { json, created } from '../api/response';
import { settingsData } from '../namespaces/group-settings';
import { requestedSharedRunnersSetting } from '../namespaces/shared-runners-setting';
import { deleteGroup, updateGroup } from './service';
import { findGroup, canReadProject } from '../namespaces/resolve';
import { type listGroupsParams, type updateGroupParams, createGroupParams, integers, showGroupParams } from '../namespaces/schema';
import type { Actor } from '../api/authenticate';
import type { Parsed } from '../api/params';
import { groupEntity } from '../namespaces/entity';
import { countGroups, listGroups, type GroupFilters, listProjects } from '../namespaces/queries';
import { loadProjectRecords, type NamespaceRecord, type ProjectRecord } from '../namespaces/records';
import { groupShares, projectIdsSharedWith } from '../namespaces/shares';
import { createGroup as createGroupService } from '../namespaces/service';
import { groupDetailEntity } from './entity';

type Ctx<S extends Shape> = RequestContext<S>;

export function groupFilters(input: Parsed<typeof listGroupsParams>): GroupFilters {
  return {
    search: input.search || undefined,
    owned: input.owned ?? false,
    minAccessLevel: input.min_access_level ?? undefined,
    topLevelOnly: input.top_level_only ?? undefined,
    allAvailable: input.all_available ?? undefined,
    skipGroups: integers(input.skip_groups, 'skip_groups'),
    visibility: input.visibility ?? undefined,
    orderBy: input.order_by === 'similarity' ? 'name' : input.order_by,
    sort: input.sort,
  };
}

export async function pageOfGroups(ctx: Ctx<typeof listGroupsParams>, f: GroupFilters) {
  const page = await ctx.paginate({
    fetch: (offset, limit) => listGroups(ctx.actor, f, { offset, limit }),
    count: () => countGroups(ctx.actor, f),
  });
  return paginated(page, groupEntity);
}

/** GET /groups */
export const listGroupsHandler = (ctx: Ctx<typeof listGroupsParams>) => pageOfGroups(ctx, groupFilters(ctx.input));

/** GET /groups/:id/subgroups */
export async function listSubgroupsHandler(ctx: Ctx<typeof listGroupsParams>) {
  const group = await findGroup(ctx.actor, ctx.pathParams.id);
  return pageOfGroups(ctx, { ...groupFilters(ctx.input), parentId: group.id, topLevelOnly: undefined });
}

const GROUP_DETAIL_PROJECTS = 100;

/** GET /groups/:id: GroupDetail with the group's projects the actor may read (none with with_projects=false). */
export async function showGroupHandler(ctx: Ctx<typeof showGroupParams>) {
  return groupDetail(ctx.actor, await findGroup(ctx.actor, ctx.pathParams.id), ctx.input.with_projects ?? true);
}

/** Entities::GroupDetail as the actor sees it (also the answer of PUT /groups/:id). */
export async function groupDetail(actor: Actor | null, group: NamespaceRecord, withProjects: boolean) {
  const projects = withProjects
    ? await listProjects(actor, { namespaceId: group.id, orderBy: 'id', sort: 'asc' }, { offset: 0, limit: GROUP_DETAIL_PROJECTS })
    : null;
  const [sharedWith, sharedProjects] = await Promise.all([groupShares(group.id, actor), withProjects ? sharedProjectsOf(actor, group) : []]);
  // import_url shows to admins only here (per-project Maintainer checks would cost a query per project).
  return groupDetailEntity(group, projects, { admin: actor?.user.admin ?? false, sharedWith, sharedProjects });
}

/** The projects shared with the group that the actor may read. */
async function sharedProjectsOf(actor: Actor | null, group: NamespaceRecord): Promise<ProjectRecord[]> {
  const projects = await loadProjectRecords(await projectIdsSharedWith(group.id, GROUP_DETAIL_PROJECTS));
  const readable = await Promise.all(projects.map((p) => canReadProject(actor, p)));
  return projects.filter((_, i) => readable[i]);
}

/** POST /groups: every setting of optional_params is stored (group-settings.ts). */
export async function createGroupHandler(ctx: Ctx<typeof createGroupParams>) {
  const actor = ctx.user();
  const i = ctx.input;
  const { name, path, description, visibility, parent_id } = i;
  // Runway has GitLab's default organization only.
  if (i.organization_id !== undefined && i.organization_id !== null && i.organization_id !== 1) throw notFound('Organization');
  const settings = settingsData(i, { current: null, root: parent_id === undefined || parent_id === null, admin: actor.user.admin });
  if (settings.paramErrors.length) throw paramError(settings.paramErrors);
  const group = await createGroupService(actor, {
    name: name ?? '',
    path: path ?? '',
    description,
    visibility: visibility ?? undefined,
    parentId: parent_id,
    settings,
    sharedRunnersSetting: requestedSharedRunnersSetting(i.shared_runners_setting),
  });
  return created(groupDetailEntity(group, [], { admin: true, sharedWith: [], sharedProjects: [] }));
}

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
    sharedRunnersSetting: requestedSharedRunnersSetting(i.shared_runners_setting),
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
