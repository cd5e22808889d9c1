// The runner list endpoints: GET /runners, /runners/all, /projects/:id/runners, /groups/:id/runners.
// Route files import these handlers; each answers a paginated Runner array ordered by id ascending.
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { apiError, forbidden } from '../api/errors';
import { param } from '../api/params';
import { findGroup, findProject, type NamespaceRecord, type ProjectRecord } from '../namespaces/resolve';
import { runnerSummary } from './entity';
import { canReadGroupRunners, canReadProjectRunners } from './policy';
import {
  COUNT_LIMIT,
  listRunnersPage,
  summaryRelationsOf,
  RUNNER_SCOPES,
  RUNNER_TYPES,
  type RunnerFilters,
  type RunnerScope,
  type RunnerSet,
} from './queries';
import { STATUS_FILTER_VALUES } from './status';

const filterShape = {
  type: param.string().values(RUNNER_TYPES),
  paused: param.boolean(),
  status: param.string().values(STATUS_FILTER_VALUES),
  tag_list: param.array(),
  version_prefix: param.string().regexp(/^[\d+.]+/),
};
const scopedFilterShape = { scope: param.string().values(RUNNER_SCOPES), ...filterShape };

type FilterInput = { scope?: RunnerScope; type?: RunnerFilters['type']; paused?: boolean | null; status?: RunnerFilters['status']; tag_list?: string[]; version_prefix?: string | null };

function toFilters(i: FilterInput): RunnerFilters {
  return {
    scope: i.scope ?? undefined,
    type: i.type ?? undefined,
    status: i.status ?? undefined,
    paused: i.paused ?? undefined,
    tagList: i.tag_list,
    versionPrefix: i.version_prefix ?? undefined,
  };
}

/** One page of runners with GitLab's headers; X-Total is left out past Kaminari's count limit. */
export async function runnerListResponse(ctx: RequestContext<any>, set: RunnerSet, filters: RunnerFilters): Promise<Response> {
  // The page (plus one row, to know about a next page uncounted), its relations and the capped count
  // come from one statement.
  const { offset, perPage } = ctx.page();
  const { rows, total } = await listRunnersPage(set, filters, offset, perPage + 1);
  const page = await ctx.paginate({
    fetch: async (_offset, limit) => rows.slice(0, limit),
    count: total <= COUNT_LIMIT ? async () => total : undefined,
  });
  const rel = summaryRelationsOf(page.items);
  const now = new Date();
  return paginated(page, (r) => runnerSummary(r, rel, now));
}

/** The project or group a `before` hook resolved and authorised, handed to the handler. */
export const resolved = new WeakMap<object, ProjectRecord | NamespaceRecord>();

const OWNED_SCOPES: readonly string[] = STATUS_FILTER_VALUES;

/** GET /runners: the caller's project runners (Maintainer+) and group runners (Owner); never instance runners. */
export const listOwnedRunners = endpoint({
  params: scopedFilterShape,
  handle: (ctx) => {
    const actor = ctx.user();
    if (ctx.input.scope && !OWNED_SCOPES.includes(ctx.input.scope)) throw apiError(400, 'Scope contains invalid value');
    return runnerListResponse(ctx, { kind: 'owned', userId: actor.user.id }, toFilters(ctx.input));
  },
});

/** GET /runners/all: every runner, for admins. */
export const listAllRunners = endpoint({
  params: scopedFilterShape,
  // GitLab checks admin inside the endpoint, after parameter validation.
  handle: (ctx) => {
    if (!ctx.user().user.admin) throw forbidden();
    return runnerListResponse(ctx, { kind: 'all' }, toFilters(ctx.input));
  },
});

/** The project, for a Maintainer+ (read_runners) caller: 404 when unreadable, 403 below Maintainer. */
async function resolveProjectRunnersReader(ctx: RequestContext<any>): Promise<void> {
  const project = await findProject(ctx.actor, ctx.pathParams.id);
  if (!(await canReadProjectRunners(ctx.actor, project.id))) throw forbidden();
  resolved.set(ctx, project);
}

/** GET /projects/:id/runners (and /all): owned_or_instance_wide(project), Maintainer+. */
export const listProjectRunners = endpoint({
  params: scopedFilterShape,
  before: resolveProjectRunnersReader,
  handle: async (ctx) => {
    const project = resolved.get(ctx) as ProjectRecord;
    const set: RunnerSet = {
      kind: 'project',
      projectId: project.id,
      traversalIds: project.namespace.kind === 'group' ? project.namespace.traversalIds : [],
      groupRunnersEnabled: project.groupRunnersEnabled,
      sharedRunnersEnabled: project.sharedRunnersEnabled,
    };
    return runnerListResponse(ctx, set, toFilters(ctx.input));
  },
});

/** GET /groups/:id/runners (and /all): group runners of the group and its ancestors, plus instance runners. */
export const listGroupRunners = endpoint({
  params: filterShape,
  before: async (ctx) => {
    const group = await findGroup(ctx.actor, ctx.pathParams.id);
    if (!(await canReadGroupRunners(ctx.actor, group.id))) throw forbidden();
    resolved.set(ctx, group);
  },
  handle: async (ctx) => {
    const group = resolved.get(ctx) as NamespaceRecord;
    const set: RunnerSet = { kind: 'group', traversalIds: group.traversalIds, sharedRunnersEnabled: group.sharedRunnersEnabled };
    return runnerListResponse(ctx, set, toFilters(ctx.input));
  },
});

/**
 * Runway extension, GET /projects/:id/runners/assignable: the runners the caller may enable in the project
 * ("Other available runners" of GitLab's CI/CD settings, which GitLab computes server-side with no REST
 * equivalent). Maintainer+ of the project, as POST /projects/:id/runners.
 */
export const listAssignableProjectRunners = endpoint({
  params: filterShape,
  before: resolveProjectRunnersReader,
  handle: async (ctx) => {
    const project = resolved.get(ctx) as ProjectRecord;
    const actor = ctx.user();
    const set: RunnerSet = { kind: 'assignable', projectId: project.id, userId: actor.user.admin ? null : actor.user.id };
    return runnerListResponse(ctx, set, toFilters(ctx.input));
  },
});
