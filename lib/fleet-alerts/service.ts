// Writes of fleet alert rules: create, update, delete and a test delivery, each one transaction with its
// audit event. A webhook URL is checked at save as GitLab checks a hook's URL (the URL blocker, with
// allow_local_requests_from_web_hooks_and_services), and again at each delivery.
import type { AuditActor } from '../audit/service';
import { recordFleetAlertAudit } from '../audit/service';
import { validationError } from '../api/errors';
import { db } from '../db/client';
import type { RunnerAlertRule, RunnerType } from '../db/generated/client';
import { maskedUrl } from '../repositories/masked-url';
import { parseRemoteUrl, RemoteUrlError } from '../repositories/remote-url';
import { BlockedUrlError, checkRemote } from '../repositories/url-blocker';
import { localRequestsAllowed } from '../settings/application';
import { transition } from './evaluate';
import { defaultWindow, ruleErrors, type AlertKind, type RuleSettings } from './rule';
import { sealSecret } from './secret-box';
import { enqueueDelivery } from './webhook';

export interface RuleInput {
  name?: string | null;
  kind?: AlertKind | null;
  threshold?: number | null;
  window_minutes?: number | null;
  runner_type?: RunnerType | null;
  tag?: string | null;
  enabled?: boolean | null;
  webhook_url?: string | null;
  webhook_secret?: string | null;
}

export interface Author {
  actor: AuditActor;
  ip: string | null;
}

async function webhookUrlErrors(url: string | null): Promise<string[]> {
  if (url === null) return [];
  try {
    const remote = parseRemoteUrl(url);
    if (remote.scheme !== 'http' && remote.scheme !== 'https') return ['is blocked: Only allowed schemes are http, https'];
    await checkRemote(remote, { allowLocalNetwork: await localRequestsAllowed(), mode: 'request' });
    return [];
  } catch (err) {
    if (err instanceof RemoteUrlError || err instanceof BlockedUrlError) return [`is blocked: ${err.message}`];
    throw err;
  }
}

const blankToNull = (s: string | null | undefined) => (s === undefined ? undefined : s === null || s.trim() === '' ? null : s.trim());

/** The settings after applying `input` to `current` (or to the defaults of a new rule). */
function settingsFrom(input: RuleInput, current: RuleSettings | null): RuleSettings {
  const kind = input.kind ?? current!.kind;
  const kindChanged = current !== null && kind !== current.kind;
  const window = input.window_minutes !== undefined ? input.window_minutes : kindChanged || !current ? defaultWindow(kind) : current.windowMinutes;
  // Online share is of instance runners unless the rule says otherwise (runner_type: null for every runner).
  const runnerType =
    input.runner_type !== undefined ? input.runner_type : current ? current.runnerType : kind === 'online_share_below' ? 'instance_type' : null;
  return {
    name: input.name ?? current?.name ?? '',
    kind,
    threshold: input.threshold !== undefined ? input.threshold : (current?.threshold ?? null),
    windowMinutes: window,
    runnerType,
    tag: blankToNull(input.tag) !== undefined ? blankToNull(input.tag)! : (current?.tag ?? null),
    enabled: input.enabled ?? current?.enabled ?? true,
    webhookUrl: blankToNull(input.webhook_url) !== undefined ? blankToNull(input.webhook_url)! : (current?.webhookUrl ?? null),
  };
}

async function validated(input: RuleInput, current: RuleSettings | null): Promise<RuleSettings> {
  if (!current && !input.kind) throw validationError({ kind: ["can't be blank"] });
  const settings = settingsFrom(input, current);
  const errors = ruleErrors(settings, input.webhook_secret);
  // The URL is checked when it is set or changed (a stored one may be blocked since; its deliveries say so).
  if (settings.webhookUrl !== (current?.webhookUrl ?? null)) {
    const urlErrors = await webhookUrlErrors(settings.webhookUrl);
    if (urlErrors.length) errors.webhook_url = [...(errors.webhook_url ?? []), ...urlErrors];
  }
  if (Object.keys(errors).length) throw validationError(errors);
  return settings;
}

/** webhook_secret: a new one is sealed, an empty one removes it, an absent one keeps it. */
async function secretColumn(secret: string | null | undefined): Promise<{ webhookSecretEncrypted?: string | null }> {
  if (secret === undefined) return {};
  if (secret === null || secret === '') return { webhookSecretEncrypted: null };
  return { webhookSecretEncrypted: await sealSecret(secret) };
}

const shown = (s: RuleSettings) => ({
  name: s.name,
  kind: s.kind,
  threshold: s.threshold,
  window_minutes: s.windowMinutes,
  runner_type: s.runnerType,
  tag: s.tag,
  enabled: s.enabled,
  webhook_url: maskedUrl(s.webhookUrl),
});

export async function createRule(input: RuleInput, by: Author): Promise<RunnerAlertRule> {
  const s = await validated(input, null);
  const secret = await secretColumn(input.webhook_secret);
  return db().$transaction(async (tx) => {
    const rule = await tx.runnerAlertRule.create({ data: { ...s, ...secret } });
    await recordFleetAlertAudit(tx, {
      ...by,
      event: 'runner_alert_rule_created',
      rule,
      message: `Created fleet alert rule ${rule.name}`,
      details: { rule: shown(s), webhook_signed: rule.webhookSecretEncrypted !== null },
    });
    return rule;
  });
}

export async function updateRule(current: RunnerAlertRule, input: RuleInput, by: Author): Promise<RunnerAlertRule> {
  const before: RuleSettings = { ...current, kind: current.kind as AlertKind };
  const s = await validated(input, before);
  const secret = await secretColumn(input.webhook_secret);
  return db().$transaction(async (tx) => {
    // The rule's row lock: a check of this rule waits (or skips it), so disabling cannot race a firing.
    await tx.$queryRaw`SELECT id FROM runner_alert_rules WHERE id = ${current.id} FOR UPDATE`;
    const locked = await tx.runnerAlertRule.findUniqueOrThrow({ where: { id: current.id } });
    let rule = await tx.runnerAlertRule.update({ where: { id: current.id }, data: { ...s, ...secret } });
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const [a, b] = [shown(before), shown(s)];
    for (const k of Object.keys(b) as (keyof typeof b)[]) if (a[k] !== b[k]) changes[k] = { from: a[k], to: b[k] };
    await recordFleetAlertAudit(tx, {
      ...by,
      event: 'runner_alert_rule_updated',
      rule,
      message: `Updated fleet alert rule ${rule.name}`,
      details: { changes, ...(secret.webhookSecretEncrypted !== undefined ? { webhook_signing_changed: true } : {}) },
    });
    // A disabled rule is not checked: its open alert is resolved now and its state is unknown until enabled again.
    if (!s.enabled && locked.enabled) {
      if (locked.state === 'firing') await transition(tx, rule, 'ok', locked.lastValue, 'rule disabled');
      rule = await tx.runnerAlertRule.update({ where: { id: rule.id }, data: { state: 'unknown', updatedAt: rule.updatedAt } });
    }
    return rule;
  });
}

export async function deleteRule(rule: RunnerAlertRule, by: Author): Promise<void> {
  await db().$transaction(async (tx) => {
    await recordFleetAlertAudit(tx, {
      ...by,
      event: 'runner_alert_rule_deleted',
      rule,
      message: `Deleted fleet alert rule ${rule.name}`,
      details: { rule: shown({ ...rule, kind: rule.kind as AlertKind }), was_firing: rule.state === 'firing' },
    });
    // Its alerts and deliveries go with it (the audit trail keeps when it fired and cleared).
    await tx.runnerAlertRule.delete({ where: { id: rule.id } });
  });
}

/** Queues a test delivery of the rule's webhook. */
export async function queueTestDelivery(rule: RunnerAlertRule) {
  if (!rule.webhookUrl) throw validationError({ webhook_url: ["can't be blank"] });
  return db().$transaction((tx) => enqueueDelivery(tx, rule, 'test', null));
}
