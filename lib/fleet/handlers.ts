// Runway extension endpoints of the fleet overview (/admin/runners/dashboard), admins only:
//   GET /runners/fleet/status, /runners/fleet/status_history?days=, /runners/fleet/versions, /runners/fleet/jobs?days=
import { endpoint, type RequestContext } from '../api/handler';
import { forbidden } from '../api/errors';
import { param } from '../api/params';
import { fleetJobsEntity, fleetStatusEntity } from './entity';
import { canReadFleet } from './policy';
import { jobDays, statusCounts, statusHistory, topRunners, versionsInUse } from './queries';

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
