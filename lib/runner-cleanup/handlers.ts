// Runway extension endpoints of the stale-runner cleanup (admins): GET /runners/cleanup (preview),
// POST /runners/cleanup (run, dry_run by default) and GET /runners/cleanup/runs (the last runs).
import { auditIp } from '../audit/service';
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { forbidden } from '../api/errors';
import { param } from '../api/params';
import { json } from '../api/response';
import { db } from '../db/client';
import { findGroup, findProject } from '../namespaces/resolve';
import { runnerListResponse } from '../runners/list-handlers';
import { canCleanUpRunners } from '../runners/policy';
import { cleanupRunEntity } from './entity';
import { ruleFilters, ruleFromInput, ruleRules, ruleShape, type CleanupRule } from './rule';
import { runCleanup } from './service';

// GitLab's authenticated_as_admin! runs before parameter validation.
const requireCleanupAccess = (ctx: RequestContext) => {
  if (!canCleanUpRunners(ctx.user())) throw forbidden();
};

/** A rule naming a group or project that does not exist is GitLab's 404, not an empty preview. */
async function checkedRule(ctx: RequestContext, input: Parameters<typeof ruleFromInput>[0]): Promise<CleanupRule> {
  const rule = ruleFromInput(input);
  if (rule.ownerGroupId !== null) await findGroup(ctx.actor, rule.ownerGroupId);
  if (rule.ownerProjectId !== null) await findProject(ctx.actor, rule.ownerProjectId);
  return rule;
}

/** GET /runners/cleanup: the runners a run of the rule would remove now, paginated (X-Total is the count). */
export const previewCleanupEndpoint = endpoint({
  before: requireCleanupAccess,
  params: { ...ruleShape, with_details: param.boolean().default(false) },
  rules: ruleRules,
  handle: async (ctx) => {
    const rule = await checkedRule(ctx, ctx.input);
    const input = { order_by: 'id' as const, sort: 'asc' as const, with_details: ctx.input.with_details };
    return runnerListResponse(ctx, { kind: 'all' }, input, ruleFilters(rule));
  },
});

/** POST /runners/cleanup: applies the rule now; `dry_run` (default true) only reports what it would remove. */
export const runCleanupEndpoint = endpoint({
  before: requireCleanupAccess,
  params: { ...ruleShape, dry_run: param.boolean().default(true) },
  rules: ruleRules,
  handle: async (ctx) => {
    const rule = await checkedRule(ctx, ctx.input);
    const runId = await runCleanup(rule, { dryRun: ctx.input.dry_run !== false, trigger: 'manual', userId: ctx.user().user.id, ip: auditIp(ctx.req) });
    const run = await db().runnerCleanupRun.findUniqueOrThrow({ where: { id: runId }, include: { user: true } });
    return json(cleanupRunEntity(run), 201);
  },
});

/** GET /runners/cleanup/runs: the runs, newest first, each with its per-runner results. */
export const listCleanupRunsEndpoint = endpoint({
  before: requireCleanupAccess,
  params: { dry_run: param.boolean() },
  handle: async (ctx) => {
    const where = typeof ctx.input.dry_run === 'boolean' ? { dryRun: ctx.input.dry_run } : {};
    const page = await ctx.paginate({
      fetch: (skip, take) => db().runnerCleanupRun.findMany({ where, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], skip, take, include: { user: true } }),
      count: () => db().runnerCleanupRun.count({ where }),
    });
    return paginated(page, cleanupRunEntity);
  },
});
