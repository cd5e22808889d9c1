// The groups, projects and members APIs' endpoint bodies (route files only wire them to paths).
import { paginated, type RequestContext, type Shape } from '../api/handler';
import { notFound, paramError, recordNotFound } from '../api/errors';
import { settingsData } from './group-settings';
import { created } from '../api/response';
import type { Actor } from '../api/authenticate';
import { canAdminister, type Viewer } from './policy';
import { groupDetailEntity, groupEntity, memberEntity, projectEntity, projectWithAccess, basicProjectDetails, type ProjectPermissions } from './entity';
import { countMembers, findMember, listMembers, memberById } from './members';
import { countGroups, countProjects, listGroups, listProjects, namespaceOwners, projectPermissions, type GroupFilters, type ProjectFilters } from './queries';
import { canReadProject, findGroup, findProject } from './resolve';
import { groupShares, projectIdsSharedWith, projectShares } from './shares';
import { loadProjectRecords, type NamespaceRecord, type ProjectRecord } from './records';
import {
  createMemberParams,
  createGroupParams,
  createProjectParams,
  listGroupProjectsParams,
  listGroupsParams,
  listMembersParams,
  listProjectsParams,
  showGroupParams,
} from './schema';
import { addMember, createGroup as createGroupService, createProject as createProjectService, type MemberSource } from './service';
import type { Parsed } from '../api/params';

type Ctx<S extends Shape> = RequestContext<S>;

export const integers = (values: string[] | undefined, name: string): number[] | undefined => {
  if (!values) return undefined;
  if (values.some((v) => !/^\d+$/.test(v))) throw paramError([`${name} is invalid`]);
  return values.map(Number);
};

// ------------------------------------------------------------------ groups

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
  const [sharedWith, sharedProjects] = await Promise.all([groupShares(group.id), withProjects ? sharedProjectsOf(actor, group) : []]);
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
    sharedRunnersSetting: i.shared_runners_setting ?? undefined,
  });
  return created(groupDetailEntity(group, [], { admin: true, sharedWith: [], sharedProjects: [] }));
}

// ------------------------------------------------------------------ projects

/**
 * Projects as the actor sees them: BasicProjectDetails for `simple` or anonymous callers, else
 * Entities::ProjectWithAccess (GET /projects) or Entities::Project (GET /groups/:id/projects).
 */
export async function presentProjects(actor: Actor | null, projects: ProjectRecord[], simple: boolean, withAccess = true): Promise<unknown[]> {
  if (simple || !actor) return projects.map(basicProjectDetails);
  const [permissions, owners, shares] = await Promise.all([
    projectPermissions(actor.user.id, projects),
    namespaceOwners(projects),
    projectShares(projects.map((p) => p.id)),
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

// ------------------------------------------------------------------ members

export async function memberSource(ctx: RequestContext, kind: 'group' | 'project'): Promise<MemberSource> {
  const actor = ctx.user();
  return kind === 'group' ? { kind, group: await findGroup(actor, ctx.pathParams.id) } : { kind, project: await findProject(actor, ctx.pathParams.id) };
}

/** GET /:source/:id/members and /members/all */
export const listMembersHandler = (kind: 'group' | 'project', inherited: boolean) => async (ctx: Ctx<typeof listMembersParams>) => {
  const source = await memberSource(ctx, kind);
  const f = { query: ctx.input.query || undefined, userIds: integers(ctx.input.user_ids, 'user_ids') };
  const page = await ctx.paginate({
    fetch: (offset, limit) => listMembers(source, inherited, f, { offset, limit }),
    count: () => countMembers(source, inherited, f),
  });
  return paginated(page, memberEntity);
};

/** GET /:source/:id/members/:user_id and /members/all/:user_id */
export const showMemberHandler = (kind: 'group' | 'project', inherited: boolean) => async (ctx: RequestContext) => {
  const source = await memberSource(ctx, kind);
  const userId = ctx.pathParams.user_id ?? '';
  if (!/^\d+$/.test(userId) || Number(userId) > 2147483647) throw recordNotFound();
  const member = await findMember(source, Number(userId), inherited);
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
