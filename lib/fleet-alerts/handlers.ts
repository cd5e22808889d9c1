// Runway extension endpoints of fleet alerts (admins; GitLab has no equivalent):
//   GET|POST /runners/alert_rules, GET|PUT|DELETE /runners/alert_rules/:rule_id,
//   GET /runners/alert_rules/:rule_id/deliveries, POST /runners/alert_rules/:rule_id/test_webhook,
//   GET /runners/alerts?state=firing|resolved (the history).
import { auditIp, userActor } from '../audit/service';
import { endpoint, paginated, type RequestContext } from '../api/handler';
import { forbidden, notFound } from '../api/errors';
import { param } from '../api/params';
import { json, noContent } from '../api/response';
import { db } from '../db/client';
import type { RunnerAlertRule } from '../db/generated/client';
import { RUNNER_TYPES } from '../settings/runner-constants';
import { alertEntity, alertDeliveryEntity, alertRuleEntity } from './entity';
import { canManageFleetAlerts } from './policy';
import { ALERT_KINDS, ALERT_STATES } from './rule';
import { createRule, deleteRule, queueTestDelivery, updateRule, type Author, type RuleInput } from './service';

// GitLab's authenticated_as_admin! runs before parameter validation.
const requireAlertAdmin = (ctx: RequestContext) => {
  if (!canManageFleetAlerts(ctx.user())) throw forbidden();
};

const author = (ctx: RequestContext): Author => ({ actor: userActor(ctx.user()), ip: auditIp(ctx.req) });

const ruleFields = {
  threshold: param.number(),
  window_minutes: param.integer(),
  runner_type: param.string().values(RUNNER_TYPES),
  tag: param.string(),
  enabled: param.boolean(),
  webhook_url: param.string(),
  webhook_secret: param.string(),
};
const ruleIdShape = { rule_id: param.integer().required() };

async function findRule(id: number | null): Promise<RunnerAlertRule> {
  const rule = id === null ? null : await db().runnerAlertRule.findUnique({ where: { id } });
  if (!rule) throw notFound('Alert rule');
  return rule;
}

/** GET /runners/alert_rules: every rule, id order. */
export const listAlertRulesEndpoint = endpoint({
  before: requireAlertAdmin,
  handle: async (ctx) => {
    const page = await ctx.paginate({
      fetch: (skip, take) => db().runnerAlertRule.findMany({ orderBy: { id: 'asc' }, skip, take }),
      count: () => db().runnerAlertRule.count(),
    });
    return paginated(page, alertRuleEntity);
  },
});

/** POST /runners/alert_rules */
export const createAlertRuleEndpoint = endpoint({
  before: requireAlertAdmin,
  params: { name: param.string().required(), kind: param.string().values(ALERT_KINDS).required(), ...ruleFields },
  handle: async (ctx) => json(alertRuleEntity(await createRule(ctx.input as RuleInput, author(ctx))), 201),
});

/** GET /runners/alert_rules/:rule_id */
export const showAlertRuleEndpoint = endpoint({
  before: requireAlertAdmin,
  params: ruleIdShape,
  handle: async (ctx) => alertRuleEntity(await findRule(ctx.input.rule_id)),
});

/** PUT /runners/alert_rules/:rule_id: changes the parameters given. */
export const updateAlertRuleEndpoint = endpoint({
  before: requireAlertAdmin,
  params: { ...ruleIdShape, name: param.string(), kind: param.string().values(ALERT_KINDS), ...ruleFields },
  handle: async (ctx) => {
    const { rule_id, ...input } = ctx.input;
    return alertRuleEntity(await updateRule(await findRule(rule_id), input as RuleInput, author(ctx)));
  },
});

/** DELETE /runners/alert_rules/:rule_id: the rule, its alerts and deliveries. */
export const deleteAlertRuleEndpoint = endpoint({
  before: requireAlertAdmin,
  params: ruleIdShape,
  handle: async (ctx) => {
    await deleteRule(await findRule(ctx.input.rule_id), author(ctx));
    return noContent();
  },
});

/** GET /runners/alert_rules/:rule_id/deliveries: the rule's webhook deliveries, newest first. */
export const listAlertDeliveriesEndpoint = endpoint({
  before: requireAlertAdmin,
  params: ruleIdShape,
  handle: async (ctx) => {
    const rule = await findRule(ctx.input.rule_id);
    const where = { ruleId: rule.id };
    const page = await ctx.paginate({
      fetch: (skip, take) => db().runnerAlertDelivery.findMany({ where, orderBy: { id: 'desc' }, skip, take }),
      count: () => db().runnerAlertDelivery.count({ where }),
    });
    return paginated(page, alertDeliveryEntity);
  },
});

/** POST /runners/alert_rules/:rule_id/test_webhook: queues a `test` delivery; 400 when the rule has no webhook URL. */
export const testAlertWebhookEndpoint = endpoint({
  before: requireAlertAdmin,
  params: ruleIdShape,
  handle: async (ctx) => json(alertDeliveryEntity(await queueTestDelivery(await findRule(ctx.input.rule_id))), 201),
});

/** GET /runners/alerts: alerts of every rule, newest first; `state` keeps the firing or the resolved ones. */
export const listAlertsEndpoint = endpoint({
  before: requireAlertAdmin,
  params: { state: param.string().values(ALERT_STATES) },
  handle: async (ctx) => {
    const where = ctx.input.state ? { state: ctx.input.state } : {};
    const page = await ctx.paginate({
      fetch: (skip, take) =>
        db().runnerAlert.findMany({ where, orderBy: { id: 'desc' }, skip, take, include: { rule: { select: { id: true, name: true, kind: true } } } }),
      count: () => db().runnerAlert.count({ where }),
    });
    return paginated(page, alertEntity);
  },
});
