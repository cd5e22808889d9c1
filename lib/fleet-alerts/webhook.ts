// Fleet alert webhooks: each event (fired, resolved, test) is a delivery row holding the JSON body, sent by
// the background worker as GitLab sends its hooks: POST, through the URL blocker (http or https only; this
// host and the local network refused unless allow_local_requests_from_web_hooks_and_services is on; the host
// resolved once and the socket pinned to the address checked), 10 s timeout, no redirects followed. A
// failed attempt is tried again after 1, 2, 4, 8 and 16 minutes; after the sixth the delivery is failed.
// The row is its own retry queue: any instance's worker claims a due delivery with one UPDATE (a lease), so a
// delivery is attempted by one instance at a time, whatever the number of instances.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { enqueueJob } from '../background/queue';
import { buildInfo } from '../config/build-info';
import { externalUrl } from '../config/env';
import { db, type Prisma } from '../db/client';
import type { RunnerAlertDelivery, RunnerAlertRule } from '../db/generated/client';
import { queryRows } from '../db/query';
import { sql } from '../db/sql';
import { log } from '../log/log';
import { metrics } from '../metrics/registry';
import type { Ip } from '../repositories/ip-address';
import { maskedUrl } from '../repositories/masked-url';
import { parseRemoteUrl, RemoteUrlError, type RemoteUrl } from '../repositories/remote-url';
import { BlockedUrlError, checkRemote, pinnedLookup } from '../repositories/url-blocker';
import { localRequestsAllowed } from '../settings/application';
import { alertEntity, alertRuleEntity, type AlertWithRule } from './entity';
import { openSecret, SecretUnreadableError } from './secret-box';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export const WEBHOOK_JOB_KIND = 'fleet_alert_webhook';
export const WEBHOOK_EVENT_HEADER = 'Fleet Alert Hook';
export const MAX_ATTEMPTS = 6;
const TIMEOUT_MS = 10_000;
/**
 * How long an attempt holds its delivery: longer than any attempt takes (the timeout, plus the DNS check),
 * and longer than the first backoffs, so a delivery in flight is told from one waiting for its retry.
 */
const LEASE = '5 minutes';
const MAX_ERROR_LENGTH = 1000;

export type WebhookEvent = 'fired' | 'resolved' | 'test';

/** The minutes before attempt n + 1 after n attempts failed: 1, 2, 4, 8, 16. */
export const backoffMinutes = (attempts: number) => 2 ** (attempts - 1);

/** Refusals that no retry changes (a URL the blocker refuses, a secret that cannot be read). */
class PermanentFailure extends Error {}

/** The JSON body of an event, fields in the documented order. */
export function webhookBody(event: WebhookEvent, rule: RunnerAlertRule, alert: ReturnType<typeof alertEntity>): string {
  return JSON.stringify({ object_kind: 'runner_fleet_alert', event, alert, rule: alertRuleEntity(rule), instance_url: externalUrl() });
}

/** Queues a delivery of `event` (in the caller's transaction) and wakes the worker to send it. */
export async function enqueueDelivery(tx: Client, rule: RunnerAlertRule, event: WebhookEvent, alert: AlertWithRule | null): Promise<RunnerAlertDelivery> {
  const shown = alert
    ? alertEntity(alert)
    : // A test event carries an example alert built from the rule (no alert row: id null).
      {
        id: null as unknown as number,
        rule: { id: rule.id, name: rule.name, kind: rule.kind },
        state: 'firing',
        value: rule.lastValue,
        threshold: rule.threshold,
        message: `Test delivery of the fleet alert rule ${rule.name}`,
        fired_at: new Date().toISOString(),
        resolved_at: null,
      };
  const delivery = await tx.runnerAlertDelivery.create({ data: { ruleId: rule.id, alertId: alert?.id ?? null, event, body: webhookBody(event, rule, shown) } });
  await enqueueJob(WEBHOOK_JOB_KIND, { delivery_id: delivery.id }, tx);
  return delivery;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` */
export function signature(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
}

async function checkedTarget(url: string): Promise<{ remote: RemoteUrl; address: Ip }> {
  let remote: RemoteUrl;
  try {
    remote = parseRemoteUrl(url.trim());
  } catch (err) {
    if (err instanceof RemoteUrlError) throw new PermanentFailure(`${maskedUrl(url)} is blocked: ${err.message}`);
    throw err;
  }
  if (remote.scheme !== 'http' && remote.scheme !== 'https') throw new PermanentFailure(`${maskedUrl(url)} is blocked: Only allowed schemes are http, https`);
  try {
    const address = await checkRemote(remote, { allowLocalNetwork: await localRequestsAllowed(), mode: 'fetch' });
    return { remote, address: address! };
  } catch (err) {
    if (err instanceof BlockedUrlError) throw new PermanentFailure(`${maskedUrl(url)} is blocked: ${err.message}`);
    throw err;
  }
}

/** POSTs the body to the checked address; resolves with the answer's status (a redirect is an answer, not followed). */
function post(remote: RemoteUrl, address: Ip, body: string, headers: Record<string, string>): Promise<number> {
  const href = remote.href!;
  const client = href.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      href,
      { method: 'POST', lookup: pinnedLookup(address), headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(body);
  });
}

async function send(delivery: RunnerAlertDelivery, rule: RunnerAlertRule): Promise<number> {
  if (!rule.webhookUrl) throw new PermanentFailure('the rule has no webhook URL');
  const { remote, address } = await checkedTarget(rule.webhookUrl);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `Runway/${buildInfo().version}`,
    'X-Runway-Event': WEBHOOK_EVENT_HEADER,
    'X-Runway-Delivery': String(delivery.id),
  };
  if (rule.webhookSecretEncrypted) {
    try {
      headers['X-Runway-Signature'] = signature(await openSecret(rule.webhookSecretEncrypted), delivery.body);
    } catch (err) {
      if (err instanceof SecretUnreadableError) throw new PermanentFailure(err.message);
      throw err;
    }
  }
  return post(remote, address, delivery.body, headers);
}

/**
 * One attempt at a delivery, if it is pending and due and no other attempt holds it; returns its status
 * afterwards (null when it was not attempted).
 */
export async function attemptDelivery(id: number): Promise<string | null> {
  const [claimed] = await queryRows<{ id: number }>(sql`
    UPDATE runner_alert_deliveries SET attempts = attempts + 1, next_attempt_at = now() + ${LEASE}::interval
     WHERE id = ${id} AND status = 'pending' AND next_attempt_at <= now()
     RETURNING id`);
  if (!claimed) return null;
  const delivery = await db().runnerAlertDelivery.findUniqueOrThrow({ where: { id }, include: { rule: true } });
  let responseStatus: number | null = null;
  let error: string | null = null;
  let permanent = false;
  try {
    responseStatus = await send(delivery, delivery.rule);
    if (responseStatus < 200 || responseStatus > 299) error = `the webhook answered ${responseStatus}`;
  } catch (err) {
    permanent = err instanceof PermanentFailure;
    error = err instanceof Error ? err.message : String(err);
  }
  const status = error === null ? 'delivered' : permanent || delivery.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
  await db().$executeRaw(sql`
    UPDATE runner_alert_deliveries
       SET status = ${status}, response_status = ${responseStatus}, error = ${error?.slice(0, MAX_ERROR_LENGTH) ?? null},
           delivered_at = ${status === 'delivered' ? sql`now()` : sql`NULL`},
           next_attempt_at = ${status === 'pending' ? sql`now() + ${backoffMinutes(delivery.attempts)} * interval '1 minute'` : sql`NULL`}
     WHERE id = ${id}`);
  metrics().fleetAlertDeliveries.inc({ status: status === 'pending' ? 'retrying' : status });
  const level = status === 'delivered' ? 'info' : 'warn';
  log(level, 'fleet alert webhook attempt', {
    delivery_id: id,
    rule_id: delivery.ruleId,
    attempt: delivery.attempts,
    status,
    response_status: responseStatus,
    error,
  });
  return status;
}

/** The worker's sweep (every instance, every few seconds): attempts the deliveries whose time has come. */
export async function deliverDueWebhooks(limit = 20): Promise<number> {
  const due = await queryRows<{ id: number }>(sql`
    SELECT id FROM runner_alert_deliveries WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at, id LIMIT ${limit}`);
  let attempted = 0;
  for (const d of due) if ((await attemptDelivery(d.id)) !== null) attempted++;
  return attempted;
}

/** The queued job of a new delivery: its first attempt, at once. */
export async function runWebhookJob(payload: Record<string, unknown>): Promise<void> {
  const id = Number(payload.delivery_id);
  if (Number.isInteger(id)) await attemptDelivery(id);
}
