// The /runners/:id family (details, update, delete, jobs, managers, projects) and enabling/disabling a
// runner in a project. Each handler: validate params, find the runner (404), ask the policy (403), then
// call the query or service and shape the entity.
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { ApiError, forbidden } from '../api/errors';
import { ANY_SAFE_INTEGER, param } from '../api/params';
import { keysetUnavailable } from '../api/pagination';
import { created, json, noContent } from '../api/response';
import type { Actor } from '../api/authenticate';
import { externalUrl } from '../config/env';
import { clampToInt4, isRowId } from '../db/ids';
import { db } from '../db/client';
import { jobBasicWithProject } from '../jobs/entity';
import { JOB_COUNT_LIMIT, JOB_STATUSES, jobRelationsOf, listRunnerJobs, listRunnerJobsPage, type RunnerJobsQuery } from '../jobs/queries';
import { basicGroupDetails, basicProjectDetails } from '../namespaces/entity';
import { loadProjectRecords, type ProjectRecord } from '../namespaces/records';
import { findProject } from '../namespaces/resolve';
import { runnerDetails, runnerManagerEntity, runnerSummary } from './entity';
import { canAdminProjectRunners, canReadProjectRunners, canReadRunner, canReadRunnerJobs, canUpdateRunner, ownerProjectId, runnerPermissions } from './policy';
import {
  countRunnerProjects,
  findRunnerDetails,
  listRunnerProjectIds,
  loadSummaryRelations,
  runnerManagers,
  summaryRelationsOf,
  type RunnerDetailsRow,
  type RunnerRow,
} from './queries';
import { assignRunner, deleteRunner, findRunnerOr404, noAccess, runnerNotFound, unassignRunner, updateRunner, type ChangeOrigin } from './service';
import { auditIp, userActor } from '../audit/service';

/** The audit origin of a user's request. */
const origin = (actor: Actor, req: Request): ChangeOrigin => ({ actor: userActor(actor), ip: auditIp(req) });

const runnerScopes = ['manage_runner'];
const idShape = { id: param.integer().required() };

async function readableRunner(ctx: RequestContext<typeof idShape>): Promise<{ actor: Actor; runner: RunnerRow }> {
  const actor = ctx.user();
  const runner = await findRunnerOr404(ctx.input.id);
  if (!(await canReadRunner(actor, runner))) throw noAccess();
  return { actor, runner };
}

/** The runner with its details relations as `actor` may see them (projects/groups limited to theirs); 404 when missing. */
async function runnerDetailsRowOr404(actor: Actor, id: unknown): Promise<RunnerDetailsRow> {
  // A null id (JSON null passes Grape's presence check) or one beyond the integer column finds nothing,
  // as find_by_id does.
  const row = isRowId(id) ? await findRunnerDetails(id, actor.user.admin ? null : actor.user.id) : null;
  if (!row) throw runnerNotFound();
  return row;
}

/** RunnerDetails for this reader from a loaded row: maintenance_note only for updaters. */
async function runnerDetailsOf(actor: Actor, row: RunnerDetailsRow, includeProjects = true) {
  const canUpdate = await canUpdateRunner(actor, row);
  return runnerDetails(row, summaryRelationsOf([row]), {
    tags: row.tags,
    latestManager: row.latestManager,
    showMaintenanceNote: canUpdate,
    // BasicProjectDetails reads only the project and namespace fields findRunnerDetails loads.
    projects: includeProjects ? row.projects.map((p) => basicProjectDetails(p as unknown as ProjectRecord)) : undefined,
    groups: row.group ? [basicGroupDetails(row.group)] : [],
    upgradeStatus: row.upgradeStatus,
  });
}

/** RunnerDetails of runner `id` for this reader (one statement, plus policy queries for non-admins). */
export async function runnerDetailsFor(actor: Actor, id: number, includeProjects = true) {
  return runnerDetailsOf(actor, await runnerDetailsRowOr404(actor, id), includeProjects);
}

/** GET /runners/:id */
export const showRunner = endpoint({
  scopes: runnerScopes,
  // with_permissions: a Runway extension (docs/api.md); without it the body is GitLab's RunnerDetails exactly.
  params: { ...idShape, include_projects: param.boolean().default(true), with_permissions: param.boolean().default(false) },
  handle: async (ctx) => {
    const actor = ctx.user();
    const row = await runnerDetailsRowOr404(actor, ctx.input.id);
    if (!(await canReadRunner(actor, row))) throw noAccess();
    const details = await runnerDetailsOf(actor, row, ctx.input.include_projects !== false);
    if (!ctx.input.with_permissions) return details;
    // The owner project (GitLab's runner page flags it in the projects list): the first assignment.
    const [owner, permissions, token] = await Promise.all([
      row.runnerType === 'project_type' ? ownerProjectId(row) : null,
      runnerPermissions(actor, row),
      // Token expiry, which GitLab's runner page shows (GraphQL tokenExpiresAt) and RunnerDetails lacks.
      db().runner.findUnique({ where: { id: row.id }, select: { tokenExpiresAt: true } }),
    ]);
    return {
      ...details,
      _runway_permissions: permissions,
      _runway_owner_project_id: owner,
      _runway_token_expires_at: token?.tokenExpiresAt?.toISOString() ?? null,
    };
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
    maximum_timeout: param.integer().range(ANY_SAFE_INTEGER),
    maintenance_note: param.string(),
  },
  rules: { mutuallyExclusive: [['active', 'paused']], atLeastOneOf: [UPDATABLE] },
  handle: async (ctx) => {
    const actor = ctx.user();
    const runner = await findRunnerOr404(ctx.input.id);
    if (!(await canUpdateRunner(actor, runner))) throw noAccess();
    const i = ctx.input;
    await updateRunner(
      runner.id,
      {
        description: i.description,
        active: i.active,
        paused: i.paused,
        tagList: ctx.raw.tag_list !== undefined ? ctx.raw.tag_list : undefined,
        runUntagged: i.run_untagged,
        locked: i.locked,
        accessLevel: i.access_level,
        maximumTimeout: i.maximum_timeout,
        maintenanceNote: i.maintenance_note,
      },
      origin(actor, ctx.req),
    );
    return runnerDetailsFor(actor, runner.id);
  },
});

/** DELETE /runners/:id */
export const deleteRunnerEndpoint = endpoint({
  scopes: runnerScopes,
  params: idShape,
  handle: async (ctx) => {
    const actor = ctx.user();
    const runner = await findRunnerOr404(ctx.input.id);
    await deleteRunner(actor, runner, ctx.req, origin(actor, ctx.req));
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
    return (await runnerManagers(runner.id)).map(({ manager, executing, upgradeStatus }) => runnerManagerEntity(manager, executing, upgradeStatus, now));
  },
});

/** GET /runners/:id/projects: paginated BasicProjectDetails of the projects the reader can see. */
export const listRunnerProjects = endpoint({
  scopes: runnerScopes,
  params: { ...idShape, search: param.string() },
  handle: async (ctx) => {
    const { actor, runner } = await readableRunner(ctx);
    const visibleTo = actor.user.admin ? null : actor.user.id;
    const page = await ctx.paginate({
      fetch: async (offset, limit) => loadProjectRecords(await listRunnerProjectIds(runner.id, visibleTo, offset, limit, ctx.input.search)),
      count: () => countRunnerProjects(runner.id, visibleTo, ctx.input.search),
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
    return Number.isSafeInteger(id) ? clampToInt4(id) : undefined;
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
    sort: param
      .string()
      .values(['asc', 'desc'] as const)
      .default('desc'),
    cursor: param.string(),
  },
  handle: async (ctx) => {
    const actor = ctx.user();
    // An admin may read any runner's jobs, so the runner row only has to exist: a non-empty page proves
    // it (ci_builds.runner_id references it). It is looked up only for an empty page or an error, which
    // keeps GitLab's order (404 before parameter and pagination errors) without a statement per request.
    const adminFast = actor.user.admin && isRowId(ctx.input.id);
    let runnerId: number;
    if (adminFast) {
      runnerId = ctx.input.id as number;
    } else {
      const runner = await findRunnerOr404(ctx.input.id);
      if (!(await canReadRunnerJobs(actor, runner))) throw noAccess();
      runnerId = runner.id;
    }
    const ensureRunner = async (pageRows: number) => {
      if (adminFast && pageRows === 0) await findRunnerOr404(runnerId);
    };
    try {
      return await runnerJobsPage(ctx, actor, runnerId, ensureRunner);
    } catch (err) {
      await ensureRunner(0);
      throw err;
    }
  },
});

type JobsInput = { system_id?: string | null; status?: string | null; order_by?: 'id' | null; sort?: 'asc' | 'desc' | null; cursor?: string | null };

async function runnerJobsPage(ctx: RequestContext, actor: Actor, runnerId: number, ensureRunner: (pageRows: number) => Promise<void>): Promise<Response> {
  const i = ctx.input as JobsInput;
  const q: RunnerJobsQuery = {
    runnerId,
    systemId: i.system_id ?? undefined,
    status: i.status ?? undefined,
    orderBy: i.order_by ?? undefined,
    sort: i.sort ?? 'desc',
    visibleToUserId: actor.user.admin ? null : actor.user.id,
  };
  const now = new Date();
  if (ctx.raw.pagination === 'keyset') {
    if (i.order_by !== 'id') throw keysetUnavailable();
    return keysetJobs(ctx, { ...q, afterId: decodeCursor(i.cursor) }, now, ensureRunner);
  }
  const { page, perPage } = ctx.page();
  if (page * perPage > OFFSET_LIMIT) {
    throw methodNotAllowed(
      `Offset pagination has a maximum allowed offset of ${OFFSET_LIMIT} for requests that return objects of type Ci::Build. Remaining records can be retrieved using keyset pagination.`,
    );
  }
  // With system_id GitLab paginates without a count (no X-Total / X-Total-Pages). The page (plus one
  // row, for paginating uncounted past the count limit) and the capped count come from one statement.
  const { jobs, total } = await listRunnerJobsPage(q, (page - 1) * perPage, perPage + 1, q.systemId === undefined);
  await ensureRunner(jobs.length);
  const result = await ctx.paginate({
    fetch: async (_offset, limit) => jobs.slice(0, limit),
    count: total !== undefined && total <= JOB_COUNT_LIMIT ? async () => total : undefined,
  });
  const rel = jobRelationsOf(result.items);
  return paginated(result, (j) => jobBasicWithProject(j, rel, now));
}

async function keysetJobs(ctx: RequestContext, q: RunnerJobsQuery, now: Date, ensureRunner: (pageRows: number) => Promise<void>): Promise<Response> {
  const { perPage } = ctx.page();
  const rows = await listRunnerJobs(q, 0, perPage + 1);
  await ensureRunner(rows.length);
  const items = rows.slice(0, perPage);
  const rel = jobRelationsOf(items);
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
  return json(
    items.map((j) => jobBasicWithProject(j, rel, now)),
    200,
    headers,
  );
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
    const runner = await assignRunner(actor, project.id, ctx.input.runner_id, origin(actor, ctx.req));
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
    await unassignRunner(actor, project.id, ctx.input.runner_id, ctx.req, origin(actor, ctx.req));
    return noContent();
  },
});
