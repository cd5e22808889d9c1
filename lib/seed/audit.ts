// Demo audit history (part of the demo seed, after the runners): a month of runner changes by the demo
// users and by runners themselves, written with the same recordRunnerAudit the API uses, then dated back.
// Idempotent: a second run finds the history and stops.
import { db, type Prisma } from '../db/client';
import { lockDemoSeed } from './lock';
import { recordRegistrationTokenReset, recordRunnerAudit, type AuditActor, type RunnerAuditAction } from '../audit/service';

const DAY = 24 * 3_600_000;

type Who = 'ada.admin' | 'alice.owner' | 'mark.maintainer' | 'runner' | 'registration';

interface DemoEvent {
  runner: string;
  who: Who;
  action: RunnerAuditAction;
  daysAgo: number;
  ip: string;
  details?: Record<string, unknown>;
}

const EVENTS: DemoEvent[] = [
  { runner: 'ci-autoscaler', who: 'alice.owner', action: 'create', daysAgo: 30, ip: '198.51.100.23' },
  {
    runner: 'platform-k8s',
    who: 'alice.owner',
    action: 'update',
    daysAgo: 27,
    ip: '198.51.100.23',
    details: { changes: { maximum_timeout: { from: null, to: 3600 }, tag_list: { from: ['kubernetes'], to: ['kubernetes', 'linux'] } } },
  },
  { runner: 'web-builder', who: 'registration', action: 'register', daysAgo: 20, ip: '10.20.0.41' },
  { runner: 'shared-build-box', who: 'registration', action: 'register', daysAgo: 15, ip: '10.20.0.52' },
  { runner: 'shared-build-box', who: 'mark.maintainer', action: 'assign', daysAgo: 14, ip: '198.51.100.7', details: { project: 'pipelineLibrary' } },
  { runner: 'fleet-canary', who: 'mark.maintainer', action: 'create', daysAgo: 10, ip: '198.51.100.7' },
  {
    runner: 'fleet-canary',
    who: 'mark.maintainer',
    action: 'update',
    daysAgo: 9,
    ip: '198.51.100.7',
    details: { changes: { locked: { from: false, to: true }, maintenance_note: { from: null, to: 'Runs the canary fleet; keep locked' } } },
  },
  { runner: 'shared-macos', who: 'ada.admin', action: 'pause', daysAgo: 6, ip: '198.51.100.2', details: { changes: { paused: { from: false, to: true } } } },
  { runner: 'fleet-canary', who: 'runner', action: 'reset_authentication_token', daysAgo: 5, ip: '10.20.0.58', details: { via: 'token' } },
  { runner: 'shared-arm64', who: 'ada.admin', action: 'pause', daysAgo: 4, ip: '198.51.100.2', details: { changes: { paused: { from: false, to: true } } } },
  { runner: 'shared-arm64', who: 'ada.admin', action: 'resume', daysAgo: 4, ip: '198.51.100.2', details: { changes: { paused: { from: true, to: false } } } },
  { runner: 'web-builder', who: 'alice.owner', action: 'pause', daysAgo: 2, ip: '198.51.100.23', details: { changes: { paused: { from: false, to: true } } } },
  { runner: 'shared-gpu', who: 'ada.admin', action: 'create', daysAgo: 1, ip: '198.51.100.2' },
  { runner: 'shared-gpu', who: 'ada.admin', action: 'reset_authentication_token', daysAgo: 1, ip: '198.51.100.2', details: { via: 'id' } },
  { runner: 'api-deployer', who: 'mark.maintainer', action: 'create', daysAgo: 0.1, ip: '198.51.100.7' },
];

/** Dates the event just written in this transaction back to `daysAgo`. */
async function backdate(tx: Prisma.TransactionClient, daysAgo: number, order: number) {
  const at = new Date(Date.now() - daysAgo * DAY + order * 60_000);
  await tx.$executeRaw`UPDATE audit_events SET created_at = ${at} WHERE id = (SELECT MAX(id) FROM audit_events)`;
}

export async function seedAuditDemo(): Promise<void> {
  const runners = await db().runner.findMany({
    where: { description: { in: [...new Set(EVENTS.map((e) => e.runner))] } },
    select: { id: true, description: true, runnerType: true, groupId: true, ownerProjectId: true },
  });
  if (!runners.length) return; // the runners seed has not run
  const byName = new Map(runners.map((r) => [r.description!, r.id]));
  const scopeOf = new Map(
    runners.map((r) => [
      r.id,
      r.runnerType === 'group_type'
        ? { type: 'group' as const, id: r.groupId! }
        : r.runnerType === 'project_type'
          ? { type: 'project' as const, id: r.ownerProjectId! }
          : { type: 'instance' as const },
    ]),
  );
  const users = new Map(
    (
      await db().user.findMany({
        where: { username: { in: ['ada.admin', 'alice.owner', 'mark.maintainer'] } },
        select: { id: true, username: true, name: true, email: true },
      })
    ).map((u) => [u.username, u]),
  );
  const pipelineLibrary = await db().project.findUnique({ where: { fullPath: 'acme/platform/ci/pipeline-library' }, select: { id: true } });
  const ada = users.get('ada.admin');
  await db().$transaction(async (tx) => {
    await lockDemoSeed(tx);
    if (await tx.auditEvent.findFirst({ where: { targetType: 'Ci::Runner', targetId: { in: runners.map((r) => r.id) } }, select: { id: true } })) return;
    if (ada) {
      await recordRegistrationTokenReset(tx, {
        actor: { kind: 'user', id: ada.id, name: ada.name, email: ada.email },
        ip: '198.51.100.2',
        scope: { type: 'instance' },
      });
      await backdate(tx, 29, 0);
    }
    for (const [i, e] of EVENTS.entries()) {
      const runnerId = byName.get(e.runner);
      if (!runnerId) continue;
      const user = users.get(e.who);
      const actor: AuditActor =
        e.who === 'runner'
          ? { kind: 'runner', runnerId }
          : e.who === 'registration'
            ? { kind: 'registration_token', scope: scopeOf.get(runnerId)! }
            : user
              ? { kind: 'user', id: user.id, name: user.name, email: user.email }
              : { kind: 'system', name: 'Runway' };
      const { project, ...rest } = e.details ?? {};
      const details = project === 'pipelineLibrary' ? (pipelineLibrary ? { ...rest, project_id: pipelineLibrary.id } : null) : rest;
      if (!details) continue;
      await recordRunnerAudit(tx, { actor, ip: e.ip, runnerId, action: e.action, details });
      await backdate(tx, e.daysAgo, i);
    }
  });
}
