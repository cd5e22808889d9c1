// Runway extension endpoints behind the runner list page's tabs and counters, so one request answers
// what GitLab's UI asks with one count query per tab and status:
//   GET /runners/all/counts (admins) and GET /groups/:id/runners/counts (group Maintainer+), with the list's
//   filters; GET /runners/tags?search= (admins): tag names for the list's tag suggestions, as GitLab's
//   admin-only tag list.
import { endpoint, type RequestContext } from '../api/handler';
import { forbidden } from '../api/errors';
import { param } from '../api/params';
import { queryRows } from '../db/query';
import { containsPattern, empty, sql } from '../db/sql';
import { findGroup, type NamespaceRecord } from '../namespaces/resolve';
import { filterShape, ownerFilterRules, ownerFilterShape, resolved, toFilters, type FilterInput } from './list-handlers';
import { canReadGroupRunners } from './policy';
import { RUNNER_TYPES } from '../settings/runner-constants';
import { countRunners, GROUP_MEMBERSHIPS, type RunnerFilters, type RunnerSet } from './queries';

/** The counters the list shows: one per type tab (keeping the status filter), one per status (keeping the type). */
export const COUNTED_STATUSES = ['online', 'offline', 'stale'] as const;

export interface RunnerListCounts {
  runner_type: Record<'all' | (typeof RUNNER_TYPES)[number], number>;
  status: Record<(typeof COUNTED_STATUSES)[number], number>;
}

async function listCounts(set: RunnerSet, input: FilterInput): Promise<RunnerListCounts> {
  const base: RunnerFilters = toFilters(input);
  const byType = [undefined, ...RUNNER_TYPES].map((type) => countRunners(set, { ...base, type }));
  const byStatus = COUNTED_STATUSES.map((status) => countRunners(set, { ...base, status }));
  const [all, instance, group, project, ...statuses] = await Promise.all([...byType, ...byStatus]);
  return {
    runner_type: { all, instance_type: instance, group_type: group, project_type: project },
    status: { online: statuses[0], offline: statuses[1], stale: statuses[2] },
  };
}

// The counts need no order or page: the list's parameters are accepted (and validated) as they are.
const countShape = { ...ownerFilterShape };

export const countAllRunners = endpoint({
  params: countShape,
  rules: ownerFilterRules,
  handle: (ctx) => {
    if (!ctx.user().user.admin) throw forbidden();
    return listCounts({ kind: 'all' }, ctx.input);
  },
});

export const countGroupRunners = endpoint({
  params: { ...filterShape, membership: param.string().values(GROUP_MEMBERSHIPS) },
  before: async (ctx: RequestContext) => {
    const group = await findGroup(ctx.actor, ctx.pathParams.id);
    if (!(await canReadGroupRunners(ctx.actor, group.id))) throw forbidden();
    resolved.set(ctx, group);
  },
  handle: (ctx) => {
    const group = resolved.get(ctx) as NamespaceRecord;
    const { membership } = ctx.input;
    const set: RunnerSet = membership
      ? { kind: 'group_membership', groupId: group.id, traversalIds: group.traversalIds, sharedRunnersEnabled: group.sharedRunnersEnabled, membership }
      : { kind: 'group', traversalIds: group.traversalIds, sharedRunnersEnabled: group.sharedRunnersEnabled };
    return listCounts(set, ctx.input);
  },
});

/** As many suggestions as GitLab's tag token shows. */
const TAG_SUGGESTIONS = 20;

/** Tags carried by at least one runner, by name; `search` matches anywhere in the name. */
export const listRunnerTags = endpoint({
  params: { search: param.string() },
  handle: async (ctx) => {
    if (!ctx.user().user.admin) throw forbidden();
    const search = ctx.input.search?.trim();
    return queryRows<{ id: number; name: string }>(
      sql`SELECT t.id, t.name FROM tags t
           WHERE EXISTS (SELECT 1 FROM ci_runner_taggings g WHERE g.tag_id = t.id)
             ${search ? sql`AND t.name ILIKE ${containsPattern(search)}` : empty}
           ORDER BY t.name LIMIT ${TAG_SUGGESTIONS}`,
    );
  },
});
