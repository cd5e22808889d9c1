// The check of the fleet alert rules, every minute from the background worker. One instance checks each
// cycle: it claims the cycle with one upsert on runner_alert_cycles (no session lock, which a transaction
// pooler would not keep). Each rule is checked in its own transaction holding the rule row (FOR UPDATE SKIP
// LOCKED), so a check that overlaps another (a manual `runway fleet-alerts check`, an instance whose cycle
// ran long) never fires or clears a rule twice. A transition ok -> firing opens an alert, firing -> ok
// resolves it; both are audited and queue a webhook delivery when the rule has a URL.
import { recordFleetAlertAudit, type AuditActor } from '../audit/service';
import { db, type Prisma } from '../db/client';
import type { RunnerAlertRule } from '../db/generated/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { logError } from '../log/log';
import { metrics } from '../metrics/registry';
import { measure } from './queries';
import { alertMessage, isFiring, type AlertKind } from './rule';
import { enqueueDelivery } from './webhook';

type Tx = Prisma.TransactionClient;

export const CHECK_EVERY_MS = 60_000;
/** A cycle is claimed when the last one started longer ago than this (a little under the period, for timer drift). */
const CYCLE_CLAIM_AFTER = '50 seconds';

export const ALERT_ACTOR: AuditActor = { kind: 'system', name: 'Fleet alerts' };

export interface CycleResult {
  checked: number;
  fired: number;
  cleared: number;
  seconds: number;
}

/** Claims this minute's cycle for this instance; false when another instance has it. */
async function claimCycle(): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(sql`
    INSERT INTO runner_alert_cycles (id, started_at) VALUES (1, now())
    ON CONFLICT (id) DO UPDATE SET started_at = now() WHERE runner_alert_cycles.started_at < now() - ${CYCLE_CLAIM_AFTER}::interval
    RETURNING id`);
  return rows.length > 0;
}

type Outcome = 'fired' | 'cleared' | null;

/** Opens the rule's alert (firing) or resolves its open one (clearing), audited, with its webhook delivery. */
export async function transition(tx: Tx, rule: RunnerAlertRule, to: 'firing' | 'ok', value: number | null, reason?: string): Promise<Outcome> {
  if (to === 'firing') {
    const message = alertMessage({ ...rule, kind: rule.kind as AlertKind }, value);
    const alert = await tx.runnerAlert.create({ data: { ruleId: rule.id, value, threshold: rule.threshold, message }, include: { rule: true } });
    await recordFleetAlertAudit(tx, {
      actor: ALERT_ACTOR,
      ip: null,
      event: 'runner_alert_fired',
      rule,
      message: `Fleet alert fired: ${message}`,
      details: { alert_id: alert.id, kind: rule.kind, value, threshold: rule.threshold },
    });
    if (rule.webhookUrl) await enqueueDelivery(tx, rule, 'fired', alert);
    return 'fired';
  }
  const open = await tx.runnerAlert.findMany({ where: { ruleId: rule.id, state: 'firing' }, include: { rule: true } });
  for (const a of open) {
    const alert = await tx.runnerAlert.update({ where: { id: a.id }, data: { state: 'resolved', resolvedAt: new Date() }, include: { rule: true } });
    await recordFleetAlertAudit(tx, {
      actor: ALERT_ACTOR,
      ip: null,
      event: 'runner_alert_cleared',
      rule,
      message: `Fleet alert cleared: ${rule.name}${reason ? ` (${reason})` : ''}`,
      details: { alert_id: alert.id, kind: rule.kind, value, threshold: rule.threshold, ...(reason ? { reason } : {}) },
    });
    if (rule.webhookUrl) await enqueueDelivery(tx, rule, 'resolved', alert);
  }
  return open.length ? 'cleared' : null;
}

/** Checks one rule now, unless another check holds it; returns what changed. */
export async function checkRule(ruleId: number): Promise<Outcome | 'skipped'> {
  return db().$transaction(async (tx) => {
    const [rule] = await tx.$queryRaw<{ id: number }[]>(sql`SELECT id FROM runner_alert_rules WHERE id = ${ruleId} AND enabled FOR UPDATE SKIP LOCKED`);
    if (!rule) return 'skipped';
    const current = await tx.runnerAlertRule.findUniqueOrThrow({ where: { id: ruleId } });
    const value = await measure(tx, current);
    const firing = isFiring(current.kind as AlertKind, current.threshold, value);
    let outcome: Outcome = null;
    if (firing && current.state !== 'firing') outcome = await transition(tx, current, 'firing', value);
    else if (!firing && current.state === 'firing') outcome = await transition(tx, current, 'ok', value);
    // updated_at is the rule's settings' time: a check leaves it alone.
    await tx.$executeRaw(sql`
      UPDATE runner_alert_rules SET state = ${firing ? 'firing' : 'ok'}, last_value = ${value}, last_checked_at = now() WHERE id = ${ruleId}`);
    return outcome;
  });
}

/**
 * One check cycle: every enabled rule, each its own transaction. `force` skips the cycle claim (the CLI and
 * tests check now; the rule locks still keep two checks from firing twice). Null when another instance has the cycle.
 */
export async function checkAlertRules(opts: { force?: boolean } = {}): Promise<CycleResult | null> {
  if (!opts.force && !(await claimCycle())) return null;
  const started = process.hrtime.bigint();
  const rules = await db().runnerAlertRule.findMany({ where: { enabled: true }, select: { id: true }, orderBy: { id: 'asc' } });
  const result: CycleResult = { checked: 0, fired: 0, cleared: 0, seconds: 0 };
  for (const { id } of rules) {
    try {
      const outcome = await checkRule(id);
      if (outcome === 'skipped') continue;
      result.checked++;
      if (outcome === 'fired') result.fired++;
      if (outcome === 'cleared') result.cleared++;
    } catch (err) {
      logError('fleet alert rule check failed', err, { rule_id: id });
    }
  }
  result.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  metrics().fleetAlertCheckSeconds.observe(result.seconds);
  return result;
}

/** The worker's periodic task. */
export const scheduledAlertCheck = () => checkAlertRules();
