// Endpoint bodies of PUT/DELETE /projects/:id and GET /projects/:id/groups (route files wire them).
import { paginated, type RequestContext } from '../api/handler';
import { json } from '../api/response';
import { publicGroupDetails } from './entity';
import { integers, presentProjects } from './handlers';
import { countProjectGroups, listProjectGroups } from './queries';
import { loadProjectRecords } from './records';
import { findProject } from './resolve';
import { deleteProject, updateProject } from './project-service';
import type { listProjectGroupsParams, updateProjectParams } from './schema';

/** PUT /projects/:id: answers Entities::Project as it now is. */
export async function updateProjectHandler(ctx: RequestContext<typeof updateProjectParams>) {
  const actor = ctx.user();
  const project = await findProject(actor, ctx.pathParams.id);
  const i = ctx.input;
  await updateProject(actor, project, {
    name: i.name ?? undefined,
    path: i.path ?? undefined,
    description: i.description ?? undefined,
    visibility: i.visibility ?? undefined,
    defaultBranch: i.default_branch ?? undefined,
    sharedRunnersEnabled: i.shared_runners_enabled ?? undefined,
    groupRunnersEnabled: i.group_runners_enabled ?? undefined,
    settings: i,
  });
  const [updated] = await loadProjectRecords([project.id]);
  return (await presentProjects(actor, [updated], false, false))[0];
}

/** DELETE /projects/:id: 202 as GitLab's accepted!. */
export async function deleteProjectHandler(ctx: RequestContext) {
  const actor = ctx.user();
  await deleteProject(actor, await findProject(actor, ctx.pathParams.id));
  return json({ message: '202 Accepted' }, 202);
}

/** GET /projects/:id/groups: Entities::PublicGroupDetails of the project's group ancestry. */
export async function listProjectGroupsHandler(ctx: RequestContext<typeof listProjectGroupsParams>) {
  const project = await findProject(ctx.actor, ctx.pathParams.id);
  const f = {
    traversalIds: project.namespace.kind === 'group' ? project.namespace.traversalIds : [],
    search: ctx.input.search || undefined,
    skipGroups: integers(ctx.input.skip_groups, 'skip_groups'),
    sharedWith: ctx.input.with_shared ? { projectId: project.id, minAccessLevel: ctx.input.shared_min_access_level ?? 0 } : undefined,
  };
  const page = await ctx.paginate({
    fetch: (offset, limit) => listProjectGroups(f, { offset, limit }),
    count: () => countProjectGroups(f),
  });
  return paginated(page, publicGroupDetails);
}
