// The runner list endpoints: GET /runners, /runners/all, /projects/:id/runners, /groups/:id/runners.
// Route files import these handlers; each answers a paginated Runner array ordered by id ascending.
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { apiError, forbidden } from '../api/errors';
import { keysetRequest, keysetShape, type PageResult } from '../api/pagination';
import { param } from '../api/params';
import { findGroup, findProject, type NamespaceRecord, type ProjectRecord } from '../namespaces/resolve';
import { runnerListDetails, runnerSummary } from './entity';
import { canReadGroupRunners, canReadProjectRunners, runnerPermissionsFromFacts } from './policy';
import {
  COUNT_LIMIT,
  GROUP_MEMBERSHIPS,
  listRunnersPage,
  loadRunnerListDetails,
  RUNNER_ORDERS,
  type RunnerOrder,
  summaryRelationsOf,
  RUNNER_SCOPES,
  type RunnerFilters,
  type RunnerScope,
  type RunnerSet,
  type RunnerSummaryRow,
} from './queries';
import { RUNNER_TYPES } from '../settings/runner-constants';
import { STATUS_FILTER_VALUES } from './status';
import { UPGRADE_STATUSES } from './upgrade-status';
import { USERNAME_RE } from '../users/service';

export const filterShape = {
  type: param.string().values(RUNNER_TYPES),
  paused: param.boolean(),
  status: param.string().values(STATUS_FILTER_VALUES),
  tag_list: param.array(),
  version_prefix: param.string().regexp(/^[\d+.]+/),
  // GitLab filters by upgrade status through GraphQL only (`upgradeStatus`; lower-case here, as the entities say it).
  upgrade_status: param.string().values(UPGRADE_STATUSES),
  // Runway extensions (docs/api.md): GitLab's REST lists have no search, order or per-row details.
  search: param.string(),
  // GitLab's runner list filters by creator through GraphQL (`creatorUsername`) only; a value that cannot
  // be a username is a 400 here, an unknown one matches nothing.
  creator_username: param.string().regexp(USERNAME_RE),
  order_by: param.string().values(RUNNER_ORDERS).default('id'),
  sort: param
    .string()
    .values(['asc', 'desc'] as const)
    .default('asc'),
  with_details: param.boolean().default(false),
  // GitLab's keyset pagination (Runway extension here: GitLab offers it on GET /projects only); the
  // cursors also filter offset pages.
  ...keysetShape,
};
const scopedFilterShape = { scope: param.string().values(RUNNER_SCOPES), ...filterShape };
// Runway extension (docs/api.md): GitLab's REST lists cannot filter by the owning group or project.
export const ownerFilterShape = { ...scopedFilterShape, owner_group_id: param.integer(), owner_project_id: param.integer() };
export const ownerFilterRules = { mutuallyExclusive: [['owner_group_id', 'owner_project_id']] };

export type FilterInput = {
  scope?: RunnerScope;
  type?: RunnerFilters['type'];
  paused?: boolean | null;
  status?: RunnerFilters['status'];
  tag_list?: string[];
  version_prefix?: string | null;
  upgrade_status?: RunnerFilters['upgradeStatus'] | null;
  search?: string | null;
  creator_username?: string | null;
  order_by: RunnerOrder['by'];
  sort: RunnerOrder['dir'];
  with_details: boolean | null;
  owner_group_id?: number | null;
  owner_project_id?: number | null;
  pagination?: 'offset' | 'keyset' | null;
  id_after?: number | null;
  id_before?: number | null;
};

export function toFilters(i: FilterInput): RunnerFilters {
  return {
    scope: i.scope ?? undefined,
    type: i.type ?? undefined,
    status: i.status ?? undefined,
    paused: i.paused ?? undefined,
    tagList: i.tag_list,
    versionPrefix: i.version_prefix ?? undefined,
    upgradeStatus: i.upgrade_status ?? undefined,
    search: i.search?.trim() || undefined,
    creatorUsername: i.creator_username ?? undefined,
    ownerGroupId: i.owner_group_id ?? undefined,
    ownerProjectId: i.owner_project_id ?? undefined,
    idAfter: i.id_after ?? undefined,
    idBefore: i.id_before ?? undefined,
  };
}

/** One page of runners with GitLab's headers; X-Total is left out past Kaminari's count limit. */
export async function runnerListResponse(ctx: RequestContext, set: RunnerSet, input: FilterInput, extra: RunnerFilters = {}): Promise<Response> {
  // The page (plus one row, to know about a next page uncounted), its relations and the capped count
  // come from one statement.
  const filters = Object.assign(toFilters(input), extra);
  const keyset = keysetRequest(input, ctx.raw);
  let page: PageResult<RunnerSummaryRow>;
  if (keyset) {
    // Past the cursor in id order, one row more than the page: no offset and no count.
    const { rows } = await listRunnersPage(set, filters, 0, keyset.perPage + 1, { by: 'id', dir: keyset.dir }, false);
    page = ctx.keysetPage(keyset, rows);
  } else {
    const { offset, perPage } = ctx.page();
    const { rows, total } = await listRunnersPage(set, filters, offset, perPage + 1, { by: input.order_by, dir: input.sort });
    page = await ctx.paginate({
      fetch: async (_offset, limit) => rows.slice(0, limit),
      count: total !== null && total <= COUNT_LIMIT ? async () => total : undefined,
    });
  }
  const rel = summaryRelationsOf(page.items);
  const now = new Date();
  if (!input.with_details) return paginated(page, (r) => runnerSummary(r, rel, now));
  // One more statement for the whole page, never one per runner.
  const actor = ctx.user();
  const details = await loadRunnerListDetails(
    page.items.map((r) => r.id),
    actor.user.admin ? null : actor.user.id,
  );
  return paginated(page, (r) => {
    const d = details.get(r.id);
    return Object.assign(runnerSummary(r, rel, now), {
      _runway: d ? runnerListDetails(d) : null,
      _runway_permissions: runnerPermissionsFromFacts(actor, r, d?.facts ?? null),
    });
  });
}

/** The project or group a `before` hook resolved and authorised, handed to the handler. */
export const resolved = new WeakMap<object, ProjectRecord | NamespaceRecord>();

const OWNED_SCOPES: readonly string[] = STATUS_FILTER_VALUES;

/** GET /runners: the caller's project runners (Maintainer+) and group runners (Owner); never instance runners. */
export const listOwnedRunners = endpoint({
  params: ownerFilterShape,
  rules: ownerFilterRules,
  handle: (ctx) => {
    const actor = ctx.user();
    if (ctx.input.scope && !OWNED_SCOPES.includes(ctx.input.scope)) throw apiError(400, 'Scope contains invalid value');
    return runnerListResponse(ctx, { kind: 'owned', userId: actor.user.id }, ctx.input);
  },
});

/** GET /runners/all: every runner, for admins. */
export const listAllRunners = endpoint({
  params: ownerFilterShape,
  rules: ownerFilterRules,
  // GitLab checks admin inside the endpoint, after parameter validation.
  handle: (ctx) => {
    if (!ctx.user().user.admin) throw forbidden();
    return runnerListResponse(ctx, { kind: 'all' }, ctx.input);
  },
});

/** The project, for a Maintainer+ (read_runners) caller: 404 when unreadable, 403 below Maintainer. */
async function resolveProjectRunnersReader(ctx: RequestContext): Promise<void> {
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
    return runnerListResponse(ctx, set, ctx.input);
  },
});

/** GET /groups/:id/runners (and /all): group runners of the group and its ancestors, plus instance runners. */
export const listGroupRunners = endpoint({
  params: { ...filterShape, membership: param.string().values(GROUP_MEMBERSHIPS) },
  before: async (ctx) => {
    const group = await findGroup(ctx.actor, ctx.pathParams.id);
    if (!(await canReadGroupRunners(ctx.actor, group.id))) throw forbidden();
    resolved.set(ctx, group);
  },
  handle: async (ctx) => {
    const group = resolved.get(ctx) as NamespaceRecord;
    const { membership } = ctx.input;
    // Without `membership` the set is GitLab's REST one (the group, its ancestors, instance runners).
    const set: RunnerSet = membership
      ? { kind: 'group_membership', groupId: group.id, traversalIds: group.traversalIds, sharedRunnersEnabled: group.sharedRunnersEnabled, membership }
      : { kind: 'group', traversalIds: group.traversalIds, sharedRunnersEnabled: group.sharedRunnersEnabled };
    return runnerListResponse(ctx, set, ctx.input);
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
    return runnerListResponse(ctx, set, ctx.input);
  },
});
