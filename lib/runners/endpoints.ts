// The /runners/:id family (details, update, delete, jobs, managers, projects) and enabling/disabling a
// runner in a project. Each handler: validate params, find the runner (404), ask the policy (403), then
// call the query or service and shape the entity.
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { ApiError, forbidden } from '../api/errors';
import { param } from '../api/params';
import { created, json, noContent } from '../api/response';
import type { Actor } from '../auth/authenticate';
import { externalUrl } from '../config/env';
import { jobBasicWithProject } from '../jobs/entity';
import { countRunnerJobs, JOB_COUNT_LIMIT, JOB_STATUSES, listRunnerJobs, loadJobRelations, type RunnerJobsQuery } from '../jobs/queries';
import { basicGroupDetails, basicProjectDetails } from '../namespaces/entity';
import { loadGroupRecords, loadProjectRecords } from '../namespaces/records';
import { findProject } from '../namespaces/resolve';
import { runnerDetails, runnerManagerEntity, runnerSummary } from './entity';
import { canAdminProjectRunners, canReadProjectRunners, canReadRunner, canReadRunnerJobs, canUpdateRunner } from './policy';
import { countRunnerProjects, listRunnerProjectIds, loadDetailRelations, loadSummaryRelations, runnerManagers, type RunnerRow } from './queries';
import { assignRunner, deleteRunner, findRunnerOr404, noAccess, unassignRunner, updateRunner } from './service';

const runnerScopes = ['manage_runner'];
const idShape = { id: param.integer().required() };

async function readableRunner(ctx: RequestContext<any>): Promise<{ actor: Actor; runner: RunnerRow }> {
  const actor = ctx.user();
  const runner = await findRunnerOr404(ctx.input.id);
  if (!(await canReadRunner(actor, runner))) throw noAccess();
  return { actor, runner };
}

/** RunnerDetails for this reader: projects/groups limited to theirs, maintenance_note only for updaters. */
export async function runnerDetailsFor(actor: Actor, runner: RunnerRow, includeProjects = true) {
  const visibleTo = actor.user.admin ? null : actor.user.id;
  const [rel, canUpdate] = await Promise.all([loadDetailRelations(runner, visibleTo), canUpdateRunner(actor, runner)]);
  const [projects, groups] = await Promise.all([
    includeProjects ? loadProjectRecords(rel.projectIds) : Promise.resolve([]),
    loadGroupRecords(rel.groupIds),
  ]);
  return runnerDetails(runner, rel, {
    tags: rel.tags,
    latestManager: rel.latestManager,
    showMaintenanceNote: canUpdate,
    projects: includeProjects ? projects.map(basicProjectDetails) : undefined,
    groups: groups.map(basicGroupDetails),
  });
}

/** GET /runners/:id */
export const showRunner = endpoint({
  scopes: runnerScopes,
  params: { ...idShape, include_projects: param.boolean().default(true) },
  handle: async (ctx) => {
    const { actor, runner } = await readableRunner(ctx);
    return runnerDetailsFor(actor, runner, ctx.input.include_projects !== false);
  },
});

const UPDATABLE = ['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'];

/** PUT /runners/:id (also pause/resume through `paused`). */
export const updateRunnerEndpoint = endpoint({
  scopes: runnerScopes,
  params: {
    ...idShape,
    description: param.string(),
    active: param.boolean(),
    paused: param.boolean(),
    tag_list: param.array(),
    run_untagged: param.boolean(),
    locked: param.boolean(),
    access_level: param.string().values(['not_protected', 'ref_protected'] as const),
    maximum_timeout: param.integer(),
    maintenance_note: param.string(),
  },
  rules: { mutuallyExclusive: [['active', 'paused']], atLeastOneOf: [UPDATABLE] },
  handle: async (ctx) => {
    const actor = ctx.user();
    const runner = await findRunnerOr404(ctx.input.id);
    if (!(await canUpdateRunner(actor, runner))) throw noAccess();
    const i = ctx.input;
    await updateRunner(runner.id, {
      description: i.description,
      active: i.active,
      paused: i.paused,
      tagList: ctx.raw.tag_list !== undefined ? ctx.raw.tag_list : undefined,
      runUntagged: i.run_untagged,
      locked: i.locked,
      accessLevel: i.access_level,
      maximumTimeout: i.maximum_timeout,
      maintenanceNote: i.maintenance_note,
    });
    return runnerDetailsFor(actor, (await findRunnerOr404(runner.id)));
  },
});

/** DELETE /runners/:id */
export const deleteRunnerEndpoint = endpoint({
  scopes: runnerScopes,
  params: idShape,
  handle: async (ctx) => {
    const actor = ctx.user();
    const runner = await findRunnerOr404(ctx.input.id);
    await deleteRunner(actor, runner, ctx.req);
    return noContent();
  },
});

/** GET /runners/:id/managers: not paginated. */
export const listRunnerManagers = endpoint({
  scopes: runnerScopes,
  params: idShape,
  handle: async (ctx) => {
    const { runner } = await readableRunner(ctx);
    const now = new Date();
    return (await runnerManagers(runner.id)).map(({ manager, executing }) => runnerManagerEntity(manager, executing, now));
  },
});

/** GET /runners/:id/projects: paginated BasicProjectDetails of the projects the reader can see. */
export const listRunnerProjects = endpoint({
  scopes: runnerScopes,
  params: idShape,
  handle: async (ctx) => {
    const { actor, runner } = await readableRunner(ctx);
    const visibleTo = actor.user.admin ? null : actor.user.id;
    const page = await ctx.paginate({
      fetch: async (offset, limit) => loadProjectRecords(await listRunnerProjectIds(runner.id, visibleTo, offset, limit)),
      count: () => countRunnerProjects(runner.id, visibleTo),
    });
    return paginated(page, basicProjectDetails);
  },
});

const OFFSET_LIMIT = 50_000;
const methodNotAllowed = (error: string) => new ApiError(405, { error });

function decodeCursor(cursor: string | undefined | null): number | undefined {
  if (!cursor) return undefined;
  try {
    const id = Number(JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')).id);
    return Number.isSafeInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** GET /runners/:id/jobs */
export const listRunnerJobsEndpoint = endpoint({
  scopes: runnerScopes,
  params: {
    ...idShape,
    system_id: param.string(),
    status: param.string().values(JOB_STATUSES),
    order_by: param.string().values(['id'] as const),
    sort: param.string().values(['asc', 'desc'] as const).default('desc'),
    cursor: param.string(),
  },
  handle: async (ctx) => {
    const actor = ctx.user();
    const runner = await findRunnerOr404(ctx.input.id);
    if (!(await canReadRunnerJobs(actor, runner))) throw noAccess();
    const i = ctx.input;
    const q: RunnerJobsQuery = {
      runnerId: runner.id,
      systemId: i.system_id ?? undefined,
      status: i.status ?? undefined,
      orderBy: i.order_by ?? undefined,
      sort: i.sort ?? 'desc',
      visibleToUserId: actor.user.admin ? null : actor.user.id,
    };
    const now = new Date();
    if (ctx.raw.pagination === 'keyset') {
      if (i.order_by !== 'id') throw methodNotAllowed('Keyset pagination is not yet available for this type of request');
      return keysetJobs(ctx, { ...q, afterId: decodeCursor(i.cursor) }, now);
    }
    const { page, perPage } = ctx.page();
    if (page * perPage > OFFSET_LIMIT) {
      throw methodNotAllowed(
        `Offset pagination has a maximum allowed offset of ${OFFSET_LIMIT} for requests that return objects of type Ci::Build. Remaining records can be retrieved using keyset pagination.`,
      );
    }
    // With system_id GitLab paginates without a count (no X-Total / X-Total-Pages).
    const total = q.systemId !== undefined ? undefined : await countRunnerJobs(q);
    const result = await ctx.paginate({
      fetch: (offset, limit) => listRunnerJobs(q, offset, limit),
      count: total !== undefined && total <= JOB_COUNT_LIMIT ? async () => total : undefined,
    });
    const rel = await loadJobRelations(result.items);
    return paginated(result, (j) => jobBasicWithProject(j, rel, now));
  },
});

async function keysetJobs(ctx: RequestContext<any>, q: RunnerJobsQuery, now: Date): Promise<Response> {
  const { perPage } = ctx.page();
  const rows = await listRunnerJobs(q, 0, perPage + 1);
  const items = rows.slice(0, perPage);
  const rel = await loadJobRelations(items);
  const headers: Record<string, string> = { 'X-Per-Page': String(perPage) };
  if (rows.length > perPage) {
    const cursor = Buffer.from(JSON.stringify({ id: String(items[items.length - 1].id), _kd: 'n' })).toString('base64');
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(ctx.linkParams)) if (k !== 'cursor' && k !== 'id' && typeof v === 'string') params.set(k, v);
    params.set('cursor', cursor);
    params.set('per_page', String(perPage));
    const base = new URL(externalUrl());
    headers.Link = `<${base.origin}${base.pathname.replace(/\/+$/, '')}${ctx.path}?${params}>; rel="next"`;
  }
  return json(items.map((j) => jobBasicWithProject(j, rel, now)), 200, headers);
}

const projectRunnerShape = { runner_id: param.integer().required() };

/** POST /projects/:id/runners: enable a project runner in the project; 201 with the Runner entity. */
export const assignRunnerEndpoint = endpoint({
  params: projectRunnerShape,
  before: async (ctx) => {
    const project = await findProject(ctx.actor, ctx.pathParams.id);
    if (!(await canReadProjectRunners(ctx.actor, project.id))) throw forbidden();
  },
  handle: async (ctx) => {
    const actor = ctx.user();
    const project = await findProject(actor, ctx.pathParams.id);
    if (!(await canAdminProjectRunners(actor, project.id))) throw forbidden();
    const runner = await assignRunner(actor, project.id, ctx.input.runner_id);
    const rel = await loadSummaryRelations([runner]);
    return created(runnerSummary(runner, rel));
  },
});

/** DELETE /projects/:id/runners/:runner_id: disable the runner in the project (never its owner project). */
export const unassignRunnerEndpoint = endpoint({
  params: { runner_id: param.integer().required() },
  before: async (ctx) => {
    const project = await findProject(ctx.actor, ctx.pathParams.id);
    if (!(await canReadProjectRunners(ctx.actor, project.id))) throw forbidden();
  },
  handle: async (ctx) => {
    const actor = ctx.user();
    const project = await findProject(actor, ctx.pathParams.id);
    await unassignRunner(actor, project.id, ctx.input.runner_id, ctx.req);
    return noContent();
  },
});
