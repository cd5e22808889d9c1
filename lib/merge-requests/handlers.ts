// The merge requests API's endpoint bodies (route files wire them to paths).
import { created, noContent } from '../api/response';
import { paginated, type RequestContext } from '../api/handler';
import { paginationShape } from '../api/pagination';
import { param } from '../api/params';
import { forbidden, paramError, validationError } from '../api/errors';
import { loadProjectRecords } from '../namespaces/records';
import { canAdminMergeRequest, canDeleteMergeRequest } from './policy';
import { commitEntity } from '../repositories/entity';
import { commitsBetween, countCommitsBetween, findCommit } from '../repositories/queries';
import { AccessLevel } from '../namespaces/access';
import { mergeRequestWithAccess, projectForMergeRequests } from './access';
import { contextCommitEntity, mergeRequestBasic, mergeRequestEntity, mergeRequestSimple } from './entity';
import {
  countMergeRequests,
  countUserMergeRequests,
  listMergeRequests,
  listUserMergeRequests,
  loadMrPageData,
  loadMrPageDataByProject,
  type MrRow,
  type UserMrFilters,
} from './queries';
import { createMergeRequest, deleteMergeRequest, updateMergeRequest } from './service';
import {
  CONTEXT_COMMITS_POST_LIMIT,
  addContextCommits,
  contextCommitsPage,
  countContextCommits,
  removeContextCommits,
  tooManyContextCommits,
} from './context-commits';

// ------------------------------------------------------------------ merge requests

export const createMrParams = {
  title: param.string().required(),
  source_branch: param.string().required(),
  target_branch: param.string().required(),
  description: param.string(),
  assignee_id: param.integer(),
  assignee_ids: param.array(),
  reviewer_ids: param.array(),
  target_project_id: param.integer(),
  remove_source_branch: param.boolean(),
  squash: param.boolean(),
};

const integerIds = (ids: string[]) => ids.map(Number).filter(Number.isSafeInteger);

/**
 * The assignee and reviewer lists a create or update asks for (undefined when not given). As GitLab's legacy
 * conversion: a present assignee_id (0 included) becomes the whole list and wins over assignee_ids.
 */
export function participantParams(i: { assignee_id?: number | null; assignee_ids?: string[] | null; reviewer_ids?: string[] | null }) {
  const assigneeIds = i.assignee_id !== undefined && i.assignee_id !== null ? [i.assignee_id] : i.assignee_ids ? integerIds(i.assignee_ids) : undefined;
  return { assigneeIds, reviewerIds: i.reviewer_ids ? integerIds(i.reviewer_ids) : undefined };
}

/** POST /projects/:id/merge_requests */
export async function createMrHandler(ctx: RequestContext<typeof createMrParams>) {
  const actor = ctx.user();
  const { project, viewer } = await projectForMergeRequests(actor, ctx.pathParams.id, 'create');
  const i = ctx.input;
  // A present but blank title fails the model's presence validation, as in GitLab.
  if (!i.title?.trim()) throw validationError({ title: ["can't be blank"] });
  const mr = await createMergeRequest(project, {
    title: i.title,
    sourceBranch: i.source_branch ?? '',
    targetBranch: i.target_branch ?? '',
    description: i.description,
    ...participantParams(i),
    authorId: actor.user.id,
  });
  const data = await loadMrPageData(project.id, [mr]);
  return created(mergeRequestEntity(mr, project, data, { viewerId: actor.user.id, canMerge: viewer.admin || viewer.level >= AccessLevel.DEVELOPER }));
}

export const listMrParams = {
  state: param.string().values(['opened', 'closed', 'locked', 'merged', 'all']),
  order_by: param.string().values(['created_at', 'updated_at', 'title']),
  sort: param.string().values(['asc', 'desc']),
  source_branch: param.string(),
  target_branch: param.string(),
  iids: param.array(),
  view: param.string().values(['simple']),
  search: param.string(),
  author_id: param.integer(),
  author_username: param.string(),
  // GitLab declares it Array[String] and Community Edition allows one value (CheckAssigneesCount).
  assignee_username: param.array(),
  reviewer_username: param.string(),
  ...paginationShape,
};

/** GET /projects/:id/merge_requests: newest first by default, with GitLab's full pagination headers. */
export async function listMrHandler(ctx: RequestContext<typeof listMrParams>) {
  const { project } = await projectForMergeRequests(ctx.actor, ctx.pathParams.id, 'read');
  const i = ctx.input;
  const iids = i.iids?.map(Number).filter((n) => Number.isSafeInteger(n));
  const assignees = i.assignee_username ?? [];
  if (assignees.length > 1) throw paramError([`assignee_username allows one value, but found ${assignees.length}: ${assignees.join(', ')}`]);
  const filters = {
    state: (i.state ?? 'all') as 'opened' | 'closed' | 'locked' | 'merged' | 'all',
    sourceBranch: i.source_branch ?? undefined,
    targetBranch: i.target_branch ?? undefined,
    iids,
    search: i.search?.trim() || undefined,
    authorId: i.author_id ?? undefined,
    authorUsername: i.author_username ?? undefined,
    assigneeUsername: assignees[0],
    reviewerUsername: i.reviewer_username ?? undefined,
    orderBy: (i.order_by ?? 'created_at') as 'created_at' | 'updated_at' | 'title',
    sort: (i.sort ?? 'desc') as 'asc' | 'desc',
  };
  const page = await ctx.paginate({
    fetch: (offset, limit) => listMergeRequests(project.id, filters, offset, limit),
    count: () => countMergeRequests(project.id, filters),
  });
  if (i.view === 'simple') return paginated(page, (mr) => mergeRequestSimple(mr, project));
  const data = await loadMrPageData(project.id, page.items);
  return paginated(page, (mr) => mergeRequestBasic(mr, project, data));
}

export const mrIidParams = { merge_request_iid: param.integer().required() };

/** GET /projects/:id/merge_requests/:merge_request_iid */
export async function showMrHandler(ctx: RequestContext<typeof mrIidParams>) {
  const { project, viewer, mr } = await mergeRequestWithAccess(ctx.actor, ctx.pathParams.id, ctx.input.merge_request_iid ?? '', 'read');
  const data = await loadMrPageData(project.id, [mr]);
  return mergeRequestEntity(mr, project, data, { viewerId: viewer.userId, canMerge: viewer.admin || viewer.level >= AccessLevel.DEVELOPER });
}

/** The range an MR's commits span: its branches while open; the recorded heads once merged or closed. */
async function mrRange(mr: MrRow): Promise<{ target: string | null; source: string | null }> {
  if (mr.state === 'merged' && mr.mergeCommitSha && mr.sha) {
    const merge = await findCommit(mr.projectId, mr.mergeCommitSha);
    return { target: merge?.parentShas[0] ?? null, source: mr.sha };
  }
  const [source, target] = await Promise.all([findCommit(mr.projectId, mr.sourceBranch), findCommit(mr.projectId, mr.targetBranch)]);
  return { source: source?.sha ?? mr.sha, target: target?.sha ?? null };
}

/** GET /projects/:id/merge_requests/:merge_request_iid/commits: source commits not on the target, as git log lists them. */
export async function mrCommitsHandler(ctx: RequestContext<typeof mrIidParams>) {
  const { project, mr } = await mergeRequestWithAccess(ctx.actor, ctx.pathParams.id, ctx.input.merge_request_iid ?? '', 'read');
  const { source, target } = await mrRange(mr);
  const page = await ctx.paginate({
    fetch: (offset, limit) => (source ? commitsBetween(project.id, target, source, offset, limit) : Promise.resolve([])),
    count: () => (source ? countCommitsBetween(project.id, target, source) : Promise.resolve(0)),
  });
  return paginated(page, (c) => commitEntity(c, project));
}

// ------------------------------------------------------------------ context commits

export const contextCommitsParams = { commits: param.array().required().notBlank() };

/** GET .../context_commits: read access only; insertion order; full pagination headers. */
export async function listContextCommitsHandler(ctx: RequestContext) {
  const { mr } = await mergeRequestWithAccess(ctx.actor, ctx.pathParams.id, ctx.pathParams.merge_request_iid, 'read');
  const page = await ctx.paginate({
    fetch: (offset, limit) => contextCommitsPage(mr.id, offset, limit),
    count: () => countContextCommits(mr.id),
  });
  return paginated(page, contextCommitEntity);
}

/** POST .../context_commits: 401, 400 params, 400 over 20, 404s, 403s, duplicate/invalid 400s, 201. */
export async function addContextCommitsHandler(ctx: RequestContext<typeof contextCommitsParams>) {
  const ids = ctx.input.commits;
  if (ids.length > CONTEXT_COMMITS_POST_LIMIT) throw tooManyContextCommits();
  const { project, mr } = await mergeRequestWithAccess(ctx.user(), ctx.pathParams.id, ctx.pathParams.merge_request_iid, 'update');
  const commits = await addContextCommits(mr, ids);
  return created(commits.map((c) => commitEntity(c, project)));
}

/** DELETE .../context_commits: commits from the query or the body; 204 with no body. */
export async function removeContextCommitsHandler(ctx: RequestContext<typeof contextCommitsParams>) {
  const { mr } = await mergeRequestWithAccess(ctx.user(), ctx.pathParams.id, ctx.pathParams.merge_request_iid, 'update');
  await removeContextCommits(mr, ctx.input.commits);
  return noContent();
}

// ------------------------------------------------------------------ across projects, updates, deletion

export const listUserMrParams = {
  state: param.string().values(['opened', 'closed', 'locked', 'merged', 'all']).default('all'),
  order_by: param.string().values(['created_at', 'updated_at', 'title']).default('created_at'),
  sort: param.string().values(['asc', 'desc']).default('desc'),
  scope: param.string().values(['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all']).default('created_by_me'),
  view: param.string().values(['simple']),
};

/** GET /merge_requests: the caller's MRs (scope), in projects they may read; anonymous callers only with scope=all. */
export async function listUserMrHandler(ctx: RequestContext<typeof listUserMrParams>) {
  const i = ctx.input;
  const scope = (i.scope ?? 'created_by_me').replace(/-/g, '_') as UserMrFilters['scope'];
  if (scope !== 'all') ctx.user();
  const f: UserMrFilters = {
    viewer: ctx.actor ? { id: ctx.actor.user.id, admin: ctx.actor.user.admin } : null,
    scope,
    state: (i.state ?? 'all') as UserMrFilters['state'],
    orderBy: (i.order_by ?? 'created_at') as UserMrFilters['orderBy'],
    sort: (i.sort ?? 'desc') as UserMrFilters['sort'],
  };
  const page = await ctx.paginate({
    fetch: (offset, limit) => listUserMergeRequests(f, offset, limit),
    count: () => countUserMergeRequests(f),
  });
  const projects = new Map((await loadProjectRecords([...new Set(page.items.map((mr) => mr.projectId))])).map((p) => [p.id, p]));
  if (i.view === 'simple') return paginated(page, (mr) => mergeRequestSimple(mr, projects.get(mr.projectId)!));
  const data = await loadMrPageDataByProject(page.items);
  return paginated(page, (mr) => mergeRequestBasic(mr, projects.get(mr.projectId)!, data.get(mr.projectId)!));
}

export const updateMrParams = {
  merge_request_iid: param.integer().required(),
  title: param.string(),
  description: param.string(),
  state_event: param.string().values(['close', 'reopen']),
  target_branch: param.string(),
  assignee_id: param.integer(),
  assignee_ids: param.array(),
  reviewer_ids: param.array(),
};

// GitLab's update_params_at_least_one_of, in its order, for the parameters Runway takes: setting only
// assignees or reviewers is an update.
export const updateMrRules = {
  atLeastOneOf: [['assignee_id', 'assignee_ids', 'reviewer_ids', 'description', 'target_branch', 'title', 'state_event']],
};

/** PUT /projects/:id/merge_requests/:merge_request_iid: update_merge_request (author, assignee, Developer+). */
export async function updateMrHandler(ctx: RequestContext<typeof updateMrParams>) {
  const actor = ctx.user();
  const { project, viewer, mr } = await mergeRequestWithAccess(actor, ctx.pathParams.id, ctx.input.merge_request_iid ?? '', 'update');
  const i = ctx.input;
  const updated = await updateMergeRequest(project, mr, actor.user.id, {
    title: i.title ?? undefined,
    description: i.description ?? undefined,
    targetBranch: i.target_branch ?? undefined,
    stateEvent: (i.state_event ?? undefined) as 'close' | 'reopen' | undefined,
    // Only admin_merge_request (Developer+, admins) changes people; an author or assignee below that has
    // these parameters ignored, as GitLab's filter_params drops them.
    ...(canAdminMergeRequest(viewer) ? participantParams(i) : {}),
  });
  const data = await loadMrPageData(project.id, [updated]);
  return mergeRequestEntity(updated, project, data, { viewerId: viewer.userId, canMerge: viewer.admin || viewer.level >= AccessLevel.DEVELOPER });
}

/** DELETE /projects/:id/merge_requests/:merge_request_iid: project Owners and admins (destroy_merge_request); 204. */
export async function deleteMrHandler(ctx: RequestContext<typeof mrIidParams>) {
  const { viewer, mr } = await mergeRequestWithAccess(ctx.user(), ctx.pathParams.id, ctx.input.merge_request_iid ?? '', 'read');
  if (!canDeleteMergeRequest(viewer)) throw forbidden();
  await deleteMergeRequest(mr);
  return noContent();
}
