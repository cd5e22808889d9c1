// Demo data for fleet alerts (part of `RUNWAY_DEMO=true` / `runway seed`): four rules, some past alerts
// with their durations, and the webhook deliveries of the rule that has a webhook; then the worker's check
// runs once, so the rules the demo fleet breaks fire now (the never-contacted `shared-gpu` leaves the tag
// gpu without an online runner; few instance runners are online) and the banner shows at once rather than
// after the worker's first minute. The webhook's host is under .invalid (RFC 2606): a delivery a demo user
// starts fails at the name lookup and reaches nobody. Idempotent: a second run finds its first rule and stops.
import { db, type Prisma } from '../db/client';
import { checkAlertRules } from '../fleet-alerts/evaluate';
import { alertEntity } from '../fleet-alerts/entity';
import { alertMessage, type RuleSettings } from '../fleet-alerts/rule';
import { webhookBody } from '../fleet-alerts/webhook';
import { lockDemoSeed } from './lock';

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;
const MARKER = 'Instance runners online';

interface DemoRule extends RuleSettings {
  /** Past alerts: when they fired, for how long, at which value. */
  past: Array<{ ago: number; lasted: number; value: number }>;
}

const RULES: DemoRule[] = [
  {
    name: MARKER,
    kind: 'online_share_below',
    threshold: 80,
    windowMinutes: null,
    runnerType: 'instance_type',
    tag: null,
    enabled: true,
    webhookUrl: null,
    past: [
      { ago: 6 * DAY, lasted: 47 * MINUTE, value: 62.5 },
      { ago: 2 * DAY, lasted: 12 * MINUTE, value: 75 },
    ],
  },
  {
    name: 'GPU runners',
    kind: 'tag_without_online_runner',
    threshold: null,
    windowMinutes: null,
    runnerType: null,
    tag: 'gpu',
    enabled: true,
    webhookUrl: null,
    past: [],
  },
  {
    name: 'Runners going offline',
    kind: 'went_offline',
    threshold: 5,
    windowMinutes: 10,
    runnerType: null,
    tag: null,
    enabled: true,
    webhookUrl: 'https://chat.example.invalid/hooks/runner-fleet',
    past: [{ ago: 3 * DAY, lasted: 9 * MINUTE, value: 7 }],
  },
  {
    name: 'Slow job pickup',
    kind: 'queue_wait_p95_above',
    threshold: 300,
    windowMinutes: 60,
    runnerType: null,
    tag: null,
    enabled: false,
    webhookUrl: null,
    past: [{ ago: 9 * DAY, lasted: 95 * MINUTE, value: 412 }],
  },
];

export async function seedFleetAlertsDemo(): Promise<void> {
  const now = Date.now();
  const seeded = await db().$transaction(async (tx: Prisma.TransactionClient) => {
    await lockDemoSeed(tx);
    if (await tx.runnerAlertRule.findFirst({ where: { name: MARKER }, select: { id: true } })) return false;
    for (const r of RULES) {
      const { past, ...settings } = r;
      const rule = await tx.runnerAlertRule.create({ data: { ...settings, createdAt: new Date(now - 14 * DAY), updatedAt: new Date(now - 14 * DAY) } });
      for (const a of past) {
        const firedAt = new Date(now - a.ago);
        const resolvedAt = new Date(now - a.ago + a.lasted);
        const alert = await tx.runnerAlert.create({
          data: { ruleId: rule.id, state: 'resolved', value: a.value, threshold: r.threshold, message: alertMessage(r, a.value), firedAt, resolvedAt },
          include: { rule: true },
        });
        if (!r.webhookUrl) continue;
        // Delivered at once when it fired; the resolution went through at the second attempt.
        await tx.runnerAlertDelivery.createMany({
          data: [
            { event: 'fired' as const, at: firedAt, attempts: 1 },
            { event: 'resolved' as const, at: resolvedAt, attempts: 2 },
          ].map((d) => ({
            ruleId: rule.id,
            alertId: alert.id,
            event: d.event,
            body: webhookBody(d.event, rule, alertEntity(alert)),
            status: 'delivered',
            attempts: d.attempts,
            responseStatus: 200,
            error: null,
            nextAttemptAt: null,
            createdAt: d.at,
            deliveredAt: new Date(d.at.getTime() + (d.attempts - 1) * MINUTE + 300),
          })),
        });
      }
    }
    return true;
  });
  // The worker's check, now (forced: the demo's first minute has no cycle to wait for).
  if (seeded) await checkAlertRules({ force: true });
}
