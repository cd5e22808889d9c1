// Demo data for the stale-runner cleanup (part of `RUNWAY_DEMO=true` / `runway seed`): long-forgotten
// runners (stale for months, or registered and never started) so the cleanup preview has something to
// show, and one past cleanup that removed two others. Idempotent: a second run finds its marker and stops.
import { friendlyToken, digest } from '../auth/secrets';
import { db, type Prisma } from '../db/client';
import type { RunnerType } from '../db/generated/client';
import { lockDemoSeed } from './lock';
import { platformDemoIds } from './platform';

const DAY = 86_400_000;
const MARKER = 'old-docker-01';

interface StaleRunner {
  description: string;
  type: RunnerType;
  group?: string;
  project?: 'website' | 'api';
  contactedAgo: number | null;
  createdAgo: number;
}

const STALE: StaleRunner[] = [
  { description: MARKER, type: 'instance_type', contactedAgo: 240 * DAY, createdAgo: 420 * DAY },
  { description: 'old-docker-02', type: 'instance_type', contactedAgo: 185 * DAY, createdAgo: 400 * DAY },
  { description: 'decommissioned-mac-mini', type: 'instance_type', contactedAgo: null, createdAgo: 210 * DAY },
  { description: 'legacy-shell-runner', type: 'group_type', group: 'acme/web', contactedAgo: 130 * DAY, createdAgo: 300 * DAY },
  { description: 'ci-spare', type: 'group_type', group: 'acme/platform/ci', contactedAgo: null, createdAgo: 160 * DAY },
  { description: 'website-old-preview', type: 'project_type', project: 'website', contactedAgo: 100 * DAY, createdAgo: 250 * DAY },
  { description: 'api-perf-lab', type: 'project_type', project: 'api', contactedAgo: 95 * DAY, createdAgo: 120 * DAY },
];

export async function seedRunnerCleanupDemo(): Promise<void> {
  const { projects, users } = await platformDemoIds();
  if (!Object.keys(projects).length) return;
  const groups = new Map(
    (await db().namespace.findMany({ where: { kind: 'group', fullPath: { startsWith: 'acme' } }, select: { id: true, fullPath: true } })).map((g) => [
      g.fullPath,
      g.id,
    ]),
  );
  const now = Date.now();
  await db().$transaction(async (tx: Prisma.TransactionClient) => {
    await lockDemoSeed(tx);
    if (await tx.runner.findFirst({ where: { description: MARKER }, select: { id: true } })) return;
    for (const r of STALE) {
      const groupId = r.group ? groups.get(r.group) : undefined;
      const projectId = r.project ? projects[r.project] : undefined;
      if ((r.group && !groupId) || (r.project && !projectId)) continue;
      const created = await tx.runner.create({
        data: {
          runnerType: r.type,
          description: r.description,
          tokenDigest: digest(`glrt-demo-${friendlyToken(20)}`),
          contactedAt: r.contactedAgo === null ? null : new Date(now - r.contactedAgo),
          creationState: r.contactedAgo === null ? 'started' : 'finished',
          groupId: groupId ?? null,
          ownerProjectId: projectId ?? null,
          createdAt: new Date(now - r.createdAgo),
        },
        select: { id: true },
      });
      if (projectId) await tx.runnerProject.create({ data: { runnerId: created.id, projectId } });
    }
    // A cleanup an admin ran two weeks ago; the runners it removed are gone, so their ids are past the end.
    const started = new Date(now - 14 * DAY);
    const removed = [
      { description: 'old-docker-00', contacted: 300 * DAY, created: 500 * DAY },
      { description: 'build-vm-temp', contacted: null, created: 200 * DAY },
    ].map((r, i) => ({
      runner_id: 900_001 + i,
      description: r.description,
      runner_type: 'instance_type',
      contacted_at: r.contacted === null ? null : new Date(started.getTime() - r.contacted).toISOString(),
      created_at: new Date(started.getTime() - r.created).toISOString(),
      result: 'deleted',
      message: null,
    }));
    await tx.runnerCleanupRun.create({
      data: {
        trigger: 'manual',
        userId: users['ada.admin'] ?? null,
        dryRun: false,
        staleDays: 180,
        runnerType: 'instance_type',
        matchedCount: removed.length,
        deletedCount: removed.length,
        results: removed,
        startedAt: started,
        finishedAt: new Date(started.getTime() + 2_000),
      },
    });
  });
}
