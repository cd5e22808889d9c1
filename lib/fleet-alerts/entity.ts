// Fleet alert rules, alerts and webhook deliveries as the API returns them (Runway extension).
import type { RunnerAlert, RunnerAlertDelivery, RunnerAlertRule } from '../db/generated/client';
import { maskedUrl } from '../repositories/masked-url';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function alertRuleEntity(r: RunnerAlertRule) {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    threshold: r.threshold,
    window_minutes: r.windowMinutes,
    runner_type: r.runnerType,
    tag: r.tag,
    enabled: r.enabled,
    webhook_url: maskedUrl(r.webhookUrl),
    webhook_secret_set: r.webhookSecretEncrypted !== null,
    state: r.state,
    last_value: r.lastValue,
    last_checked_at: iso(r.lastCheckedAt),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export type AlertWithRule = RunnerAlert & { rule: Pick<RunnerAlertRule, 'id' | 'name' | 'kind'> };

export function alertEntity(a: AlertWithRule) {
  return {
    id: a.id,
    rule: { id: a.rule.id, name: a.rule.name, kind: a.rule.kind },
    state: a.state,
    value: a.value,
    threshold: a.threshold,
    message: a.message,
    fired_at: a.firedAt.toISOString(),
    resolved_at: iso(a.resolvedAt),
  };
}

export function alertDeliveryEntity(d: RunnerAlertDelivery) {
  return {
    id: d.id,
    alert_id: d.alertId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    response_status: d.responseStatus,
    error: d.error,
    next_attempt_at: iso(d.nextAttemptAt),
    created_at: d.createdAt.toISOString(),
    delivered_at: iso(d.deliveredAt),
  };
}
