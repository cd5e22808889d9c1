// The projects API's endpoint bodies (GitLab's projects.rb): GET/POST /projects, GET/PUT/DELETE /projects/:id,
// GET /projects/:id/groups, and the project lists of a group and of a user (route files wire them to paths).
import { paginated, type RequestContext, type Shape } from '../api/handler';
import { json, created } from '../api/response';
import { publicGroupDetails, type ProjectPermissions, basicProjectDetails } from '../namespaces/entity';
import {
  countProjectGroups,
  listProjectGroups,
  countProjects,
  listProjects,
  namespaceOwners,
  projectPermissions,
  type ProjectFilters,
} from '../namespaces/queries';
import { loadProjectRecords, type ProjectRecord } from '../namespaces/records';
import { findProject, findGroup } from '../namespaces/resolve';
import { deleteProject, updateProject, createProject as createProjectService } from './service';
import {
  type listProjectGroupsParams,
  type updateProjectParams,
  integers,
  createProjectParams,
  listGroupProjectsParams,
  listProjectsParams,
} from '../namespaces/schema';
import type { Actor } from '../api/authenticate';
import type { Parsed } from '../api/params';
import { canAdminister, type Viewer } from '../namespaces/policy';
import { projectShares } from '../namespaces/shares';
import { projectEntity, projectWithAccess } from './entity';
import { notFound } from '../api/errors';
import { findUserByIdOrUsername, personalNamespaceId } from '../users/queries';

type Ctx<S extends Shape> = RequestContext<S>;

/**
 * Projects as the actor sees them: BasicProjectDetails for `simple` or anonymous callers, else
 * Entities::ProjectWithAccess (GET /projects) or Entities::Project (GET /groups/:id/projects).
 */
export async function presentProjects(actor: Actor | null, projects: ProjectRecord[], simple: boolean, withAccess = true): Promise<unknown[]> {
  if (simple || !actor) return projects.map(basicProjectDetails);
  const [permissions, owners, shares] = await Promise.all([
    projectPermissions(actor.user.id, projects),
    namespaceOwners(projects),
    projectShares(
      projects.map((p) => p.id),
      actor,
    ),
  ]);
  return projects.map((p) => {
    const perms: ProjectPermissions = permissions.get(p.id) ?? { projectAccess: null, groupAccess: null };
    const level = Math.max(perms.projectAccess ?? 0, perms.groupAccess ?? 0, p.namespace.ownerId === actor.user.id ? 50 : 0);
    const viewer: Viewer = { signedIn: true, admin: actor.user.admin, level };
    const opts = {
      admin: canAdminister(viewer),
      owner: p.namespace.ownerId ? owners.get(p.namespace.ownerId) : null,
      level,
      siteAdmin: actor.user.admin,
      sharedWith: shares.get(p.id) ?? [],
    };
    return withAccess ? projectWithAccess(p, { ...opts, permissions: perms }) : projectEntity(p, opts);
  });
}

/** The ProjectsFinder filters GET /projects, GET /groups/:id/projects and GET /users/:id/projects share. */
export function projectFilters(i: Parsed<typeof listProjectsParams> | Parsed<typeof listGroupProjectsParams>): ProjectFilters {
  return {
    owned: i.owned ?? false,
    search: i.search || undefined,
    visibility: i.visibility ?? undefined,
    minAccessLevel: i.min_access_level ?? undefined,
    orderBy: i.order_by === 'similarity' || i.order_by === 'star_count' ? 'id' : i.order_by,
    sort: i.sort,
  };
}

/** One page of projects under the ProjectsFinder filters, presented for the actor. */
export async function pageOfProjects(ctx: RequestContext, f: ProjectFilters, opts: { starred: boolean; simple: boolean; withAccess: boolean }) {
  // Runway has no stars: a starred-only list is empty.
  const page = await ctx.paginate({
    fetch: (offset, limit) => (opts.starred ? Promise.resolve([]) : listProjects(ctx.actor, f, { offset, limit })),
    count: () => (opts.starred ? Promise.resolve(0) : countProjects(ctx.actor, f)),
  });
  const items = await presentProjects(ctx.actor, page.items, opts.simple, opts.withAccess);
  return paginated({ items, headers: page.headers });
}

/** GET /projects */
export async function listProjectsHandler(ctx: Ctx<typeof listProjectsParams>) {
  const i = ctx.input;
  const f = { ...projectFilters(i), membership: i.membership ?? false };
  return pageOfProjects(ctx, f, { starred: i.starred ?? false, simple: i.simple ?? false, withAccess: true });
}

/** GET /groups/:id/projects: the group's projects the actor may read (with subgroups and ancestors on request). */
export async function listGroupProjectsHandler(ctx: Ctx<typeof listGroupProjectsParams>) {
  const group = await findGroup(ctx.actor, ctx.pathParams.id);
  const i = ctx.input;
  const inGroup = {
    id: group.id,
    traversalIds: group.traversalIds,
    subgroups: i.include_subgroups ?? false,
    ancestors: i.include_ancestor_groups ?? false,
    shared: i.with_shared ?? true,
  };
  return pageOfProjects(ctx, { ...projectFilters(i), inGroup }, { starred: i.starred ?? false, simple: i.simple ?? false, withAccess: false });
}

/** GET /projects/:id */
export async function showProjectHandler(ctx: Ctx<Record<string, never>>) {
  const project = await findProject(ctx.actor, ctx.pathParams.id);
  return (await presentProjects(ctx.actor, [project], false))[0];
}

/** POST /projects */
export async function createProjectHandler(ctx: Ctx<typeof createProjectParams>) {
  const actor = ctx.user();
  const i = ctx.input;
  const id = await createProjectService(actor, {
    name: i.name ?? undefined,
    path: i.path ?? undefined,
    namespaceId: i.namespace_id ?? undefined,
    description: i.description,
    visibility: i.visibility ?? undefined,
    defaultBranch: i.default_branch || undefined,
    importUrl: i.import_url || undefined,
    sharedRunnersEnabled: i.shared_runners_enabled ?? undefined,
    groupRunnersEnabled: i.group_runners_enabled ?? undefined,
    settings: i,
  });
  const [project] = await loadProjectRecords([id]);
  return created((await presentProjects(actor, [project], false))[0]);
}

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

/** GET /users/:id/projects: the user's personal projects the caller may see (id or username). */
export async function listUserProjects(ctx: RequestContext<typeof listProjectsParams>) {
  const user = await findUserByIdOrUsername(ctx.pathParams.id ?? '');
  const ns = user ? await personalNamespaceId(user.id) : null;
  if (!user || ns === null) throw notFound('User');
  const i = ctx.input;
  const f = { ...projectFilters(i), membership: i.membership ?? false, namespaceId: ns };
  return pageOfProjects(ctx, f, { starred: i.starred ?? false, simple: i.simple ?? false, withAccess: true });
}
