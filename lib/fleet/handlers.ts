// Runway extension endpoints of the fleet overview (/admin/runners/dashboard), admins only:
//   GET /runners/fleet/status, /runners/fleet/status_history?days=, /runners/fleet/versions, /runners/fleet/jobs?days=
// and the runner usage export (CSV): GET /runners/usage (admins), GET /groups/:id/runners/usage (Owners).
import { endpoint, type RequestContext } from '../api/handler';
import { forbidden, paramError } from '../api/errors';
import { param } from '../api/params';
import { auditIp, recordRunnerUsageExport, userActor, type AuditScope } from '../audit/service';
import { db } from '../db/client';
import { findGroup, type NamespaceRecord } from '../namespaces/resolve';
import { RUNNER_TYPES } from '../settings/runner-constants';
import { fleetJobsEntity, fleetStatusEntity } from './entity';
import { canExportGroupUsage, canExportInstanceUsage, canReadFleet } from './policy';
import { jobDays, statusCounts, statusHistory, topRunners, usageRunnerCount, versionsInUse, type UsagePeriod, type UsageScope } from './queries';
import { usageCsvStream } from './usage-export';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function requireFleetReader(ctx: RequestContext): void {
  if (!canReadFleet(ctx.user())) throw forbidden();
}

export const fleetStatus = endpoint({
  before: requireFleetReader,
  handle: async () => fleetStatusEntity(await statusCounts()),
});

export const fleetStatusHistory = endpoint({
  before: requireFleetReader,
  params: { days: param.integer().values(range(1, 90)).default(30) },
  handle: async (ctx) => statusHistory(ctx.input.days ?? 30),
});

export const fleetVersions = endpoint({
  before: requireFleetReader,
  handle: () => versionsInUse(),
});

export const fleetJobs = endpoint({
  before: requireFleetReader,
  params: { days: param.integer().values(range(1, 30)).default(7) },
  handle: async (ctx) => {
    const days = ctx.input.days ?? 7;
    const [work, top] = await Promise.all([jobDays(days), topRunners(days)]);
    return fleetJobsEntity(days, work, top);
  },
});

/** The usage export's period: `from` and `to` (UTC days, both included); unset, the last full month. */
function usagePeriod(from: string | undefined, to: string | undefined, now = new Date()): { period: UsagePeriod; fromDate: string; toDate: string } {
  const day = (s: string) => new Date(`${s}T00:00:00.000Z`);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const lastMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const start = from ? day(from) : to ? new Date(Date.UTC(day(to).getUTCFullYear(), day(to).getUTCMonth(), 1)) : lastMonthStart;
  const last = to ? day(to) : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
  if (last < start) throw paramError(['to must be on or after from']);
  const end = new Date(last.getTime() + 86_400_000);
  if (end.getTime() - start.getTime() > USAGE_MAX_DAYS * 86_400_000) throw paramError([`the period is longer than ${USAGE_MAX_DAYS} days`]);
  return { period: { from: start, to: end }, fromDate: iso(start), toDate: iso(last) };
}

/** A year and a day: any calendar year, and a month of any year, fit. */
const USAGE_MAX_DAYS = 366;

const usageParams = { from: param.date(), to: param.date(), runner_type: param.string().values(RUNNER_TYPES) };

async function usageResponse(ctx: RequestContext, scope: UsageScope, auditScope: AuditScope, name: string): Promise<Response> {
  const input = ctx.input as { from?: string; to?: string; runner_type?: string };
  const { period, fromDate, toDate } = usagePeriod(input.from, input.to);
  const actor = ctx.user();
  await db().$transaction((tx) =>
    recordRunnerUsageExport(tx, { actor: userActor(actor), ip: auditIp(ctx.req), scope: auditScope, fromDate, toDate, runnerType: scope.runnerType }),
  );
  const runners = await usageRunnerCount(scope, period);
  return new Response(ctx.method === 'HEAD' ? null : usageCsvStream(scope, period), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}-runner-usage-${fromDate}-to-${toDate}.csv"`,
      'Cache-Control': 'no-store',
      // How many runners the file holds rows for: a client shows its progress against it.
      'X-Runway-Usage-Runners': String(runners),
    },
  });
}

/** GET /runners/usage (Runway extension, admins): the instance's runner usage as CSV. */
export const runnerUsage = endpoint({
  params: usageParams,
  before: (ctx) => {
    if (!canExportInstanceUsage(ctx.user())) throw forbidden();
  },
  handle: (ctx) => usageResponse(ctx, { kind: 'instance', runnerType: ctx.input.runner_type ?? null }, { type: 'instance' }, 'instance'),
});

/** GET /groups/:id/runners/usage (Runway extension, group Owners): the usage of the runners the group owns. */
export const groupRunnerUsage = endpoint({
  params: usageParams,
  before: async (ctx) => {
    const group = await findGroup(ctx.actor, ctx.pathParams.id);
    if (!(await canExportGroupUsage(ctx.actor, group.id))) throw forbidden();
    usageGroup.set(ctx, group);
  },
  handle: (ctx) => {
    const group = usageGroup.get(ctx)!;
    return usageResponse(
      ctx,
      { kind: 'group', groupId: group.id, runnerType: ctx.input.runner_type ?? null },
      { type: 'group', id: group.id },
      group.fullPath.replace(/\//g, '-'),
    );
  },
});

const usageGroup = new WeakMap<RequestContext, NamespaceRecord>();
