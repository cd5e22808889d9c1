// Demo runners and CI history (part of `RUNWAY_DEMO=true` / `runway seed`), built on the platform demo's
// users, groups and projects. Runners of every type and every status (online, offline, stale,
// never_contacted, paused), tags, managers with versions (current ones, old ones whose upgrade is recommended
// and a development build whose version is invalid, against GitLab 18.6), and a few thousand jobs across pipelines,
// projects, users and statuses. Pipelines point at imported commits when the repositories seed has run,
// otherwise at synthetic but well-formed SHAs. Idempotent: a second run finds the demo runners and stops.
// Rows go in with a handful of set-based INSERTs (unnest), never one by one.
import { createHash } from 'node:crypto';
import { friendlyToken, digest } from '../auth/secrets';
import { db, type Prisma } from '../db/client';
import { sql } from '../db/sql';
import { lockDemoSeed } from './lock';
import { demoProjectPaths, platformDemoIds, type DemoProjectKey } from './platform';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Owner = { kind: 'instance' } | { kind: 'group'; path: string } | { kind: 'project'; keys: DemoProjectKey[] };

interface DemoRunner {
  description: string;
  owner: Owner;
  tags: string[];
  /** ms since last contact; null = never contacted. */
  contactedAgo: number | null;
  createdAgo: number;
  paused?: boolean;
  locked?: boolean;
  runUntagged?: boolean;
  accessLevel?: 'not_protected' | 'ref_protected';
  maximumTimeout?: number;
  note?: string;
  creator?: 'alice.owner' | 'mark.maintainer' | 'ada.admin';
  managers: { system: string; version: string; platform: string; arch: string; executor: string }[];
}

const linux = (system: string, version: string, executor = 'docker') => ({ system, version, platform: 'linux', arch: 'amd64', executor });

const RUNNERS: DemoRunner[] = [
  {
    description: 'shared-docker-linux',
    owner: { kind: 'instance' },
    tags: ['docker', 'linux'],
    contactedAgo: 2 * MINUTE,
    createdAgo: 120 * DAY,
    creator: 'ada.admin',
    managers: [linux('s_5b1e4c0a9f21', '18.6.6'), linux('s_7d2a90b3c4e8', '18.6.6')],
  },
  {
    description: 'shared-windows',
    owner: { kind: 'instance' },
    tags: ['windows', 'shell'],
    contactedAgo: 5 * HOUR,
    createdAgo: 90 * DAY,
    managers: [{ system: 's_0c9e1f2a3b4d', version: '17.11.0', platform: 'windows', arch: 'amd64', executor: 'shell' }],
  },
  {
    description: 'shared-arm64',
    owner: { kind: 'instance' },
    tags: ['docker', 'arm64'],
    contactedAgo: 12 * DAY,
    createdAgo: 200 * DAY,
    managers: [{ system: 's_a1b2c3d4e5f6', version: '16.11.1', platform: 'linux', arch: 'arm64', executor: 'docker' }],
  },
  {
    description: 'shared-gpu',
    owner: { kind: 'instance' },
    tags: ['gpu', 'cuda'],
    contactedAgo: null,
    createdAgo: 1 * DAY,
    creator: 'ada.admin',
    runUntagged: false,
    managers: [],
  },
  {
    description: 'shared-macos',
    owner: { kind: 'instance' },
    tags: ['macos', 'xcode'],
    contactedAgo: 20 * MINUTE,
    createdAgo: 60 * DAY,
    paused: true,
    note: 'Paused while the build host is re-imaged',
    managers: [{ system: 's_f00dfeedbeef', version: '18.0.1', platform: 'darwin', arch: 'arm64', executor: 'shell' }],
  },
  {
    description: 'platform-k8s',
    owner: { kind: 'group', path: 'acme/platform' },
    tags: ['kubernetes', 'linux'],
    contactedAgo: 1 * MINUTE,
    createdAgo: 45 * DAY,
    creator: 'alice.owner',
    maximumTimeout: 3600,
    managers: [
      linux('s_k8s000000001', '18.6.6', 'kubernetes'),
      linux('s_k8s000000002', '18.6.6', 'kubernetes'),
      // One machine missed the last patches: the runner's upgrade status is the most urgent of its managers'.
      linux('s_k8s000000003', '18.6.2', 'kubernetes'),
    ],
  },
  {
    description: 'ci-autoscaler',
    owner: { kind: 'group', path: 'acme/platform/ci' },
    tags: ['docker', 'autoscale'],
    contactedAgo: 4 * MINUTE,
    createdAgo: 30 * DAY,
    creator: 'alice.owner',
    managers: [linux('s_as0000000001', '19.3.0', 'docker-autoscaler')],
  },
  { description: 'ci-legacy', owner: { kind: 'group', path: 'acme/platform/ci' }, tags: ['docker'], contactedAgo: null, createdAgo: 40 * DAY, managers: [] },
  {
    description: 'web-builder',
    owner: { kind: 'group', path: 'acme/web' },
    tags: ['node', 'docker'],
    contactedAgo: 3 * HOUR,
    createdAgo: 20 * DAY,
    paused: true,
    managers: [linux('s_web000000001', '17.9.2')],
  },
  {
    description: 'fleet-canary',
    owner: { kind: 'project', keys: ['runnerFleet'] },
    tags: ['canary', 'docker'],
    contactedAgo: 30 * 1000,
    createdAgo: 10 * DAY,
    locked: true,
    creator: 'mark.maintainer',
    note: 'Runs the canary fleet; keep locked',
    // A gitlab-runner built from source reports no version number: its upgrade status is invalid.
    managers: [linux('s_canary000001', 'development version')],
  },
  {
    description: 'shared-build-box',
    owner: { kind: 'project', keys: ['runnerFleet', 'pipelineLibrary'] },
    tags: ['shell', 'linux'],
    contactedAgo: 26 * HOUR,
    createdAgo: 15 * DAY,
    managers: [linux('s_buildbox0001', '17.11.3', 'shell')],
  },
  {
    description: 'api-deployer',
    owner: { kind: 'project', keys: ['api'] },
    tags: ['deploy', 'production'],
    contactedAgo: null,
    createdAgo: 2 * HOUR,
    accessLevel: 'ref_protected',
    creator: 'mark.maintainer',
    managers: [],
  },
  {
    description: 'website-preview',
    owner: { kind: 'project', keys: ['website'] },
    tags: ['node'],
    contactedAgo: 9 * MINUTE,
    createdAgo: 5 * DAY,
    managers: [linux('s_preview00001', '18.6.6')],
  },
];

const MARKER = 'shared-docker-linux';

/** A small deterministic PRNG so every demo database looks the same. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const syntheticSha = (projectId: number, n: number) => createHash('sha1').update(`runway-demo:${projectId}:${n}`).digest('hex');

export async function seedRunnersDemo(): Promise<void> {
  const { projects, users } = await platformDemoIds();
  if (!Object.keys(projects).length) return; // the platform seed has not run
  const groups = new Map(
    (await db().namespace.findMany({ where: { kind: 'group', fullPath: { startsWith: 'acme' } }, select: { id: true, fullPath: true } })).map((g) => [
      g.fullPath,
      g.id,
    ]),
  );
  await db().$transaction(
    async (tx) => {
      await lockDemoSeed(tx);
      if (await tx.runner.findFirst({ where: { description: MARKER, runnerType: 'instance_type' }, select: { id: true } })) return;
      await seed(tx, projects, users, groups);
    },
    { timeout: 120_000 },
  );
}

async function seed(
  tx: Prisma.TransactionClient,
  projects: Partial<Record<DemoProjectKey, number>>,
  users: Partial<Record<string, number>>,
  groups: Map<string, number>,
): Promise<void> {
  const now = Date.now();
  const runnerIds: number[] = [];
  const available = new Map<number, number[]>(); // project id -> runner ids that may run its jobs
  const managersOf = new Map<number, number[]>();
  const contacted = new Map<number, number | null>();

  for (const r of RUNNERS) {
    const type = r.owner.kind === 'instance' ? 'instance_type' : r.owner.kind === 'group' ? 'group_type' : 'project_type';
    const groupId = r.owner.kind === 'group' ? groups.get(r.owner.path) : undefined;
    const projectIds = r.owner.kind === 'project' ? r.owner.keys.map((k) => projects[k]).filter((x): x is number => !!x) : [];
    if ((r.owner.kind === 'group' && !groupId) || (r.owner.kind === 'project' && !projectIds.length)) continue;
    const created = await tx.runner.create({
      data: {
        runnerType: type,
        description: r.description,
        active: !r.paused,
        runUntagged: r.runUntagged ?? true,
        locked: r.locked ?? false,
        accessLevel: r.accessLevel ?? 'not_protected',
        maximumTimeout: r.maximumTimeout ?? null,
        maintenanceNote: r.note ?? null,
        tokenDigest: digest(`glrt-demo-${friendlyToken(20)}`),
        contactedAt: r.contactedAgo === null ? null : new Date(now - r.contactedAgo),
        creatorId: r.creator ? (users[r.creator] ?? null) : null,
        registrationType: r.creator ? 'authenticated_user' : 'registration_token',
        creationState: r.contactedAgo === null ? 'started' : 'finished',
        groupId: groupId ?? null,
        ownerProjectId: projectIds[0] ?? null,
        createdAt: new Date(now - r.createdAgo),
      },
      select: { id: true },
    });
    runnerIds.push(created.id);
    contacted.set(created.id, r.contactedAgo);
    if (projectIds.length) await tx.runnerProject.createMany({ data: projectIds.map((projectId) => ({ runnerId: created.id, projectId })) });
    await tx.$executeRaw`INSERT INTO tags (name) SELECT unnest(${r.tags}::text[]) ON CONFLICT (name) DO NOTHING`;
    await tx.$executeRaw`
      INSERT INTO ci_runner_taggings (runner_id, tag_id)
      SELECT ${created.id}, t.id FROM unnest(${r.tags}::text[]) WITH ORDINALITY n(name, ord) JOIN tags t ON t.name = n.name ORDER BY n.ord`;
    if (r.managers.length) {
      const m = await tx.runnerManager.createManyAndReturn({
        data: r.managers.map((x, i) => ({
          runnerId: created.id,
          systemXid: x.system,
          version: x.version,
          revision: createHash('sha1').update(x.version).digest('hex').slice(0, 8),
          platform: x.platform,
          architecture: x.arch,
          executorType: x.executor,
          ipAddress: `10.20.0.${10 + runnerIds.length * 4 + i}`,
          creationState: r.contactedAgo === null ? 'started' : 'finished',
          contactedAt: r.contactedAgo === null ? null : new Date(now - r.contactedAgo - i * 7 * MINUTE),
          createdAt: new Date(now - r.createdAgo),
        })),
        select: { id: true },
      });
      managersOf.set(
        created.id,
        m.map((x) => x.id),
      );
    }
    // Which projects this runner serves, for the job history below.
    const served =
      r.owner.kind === 'instance'
        ? (Object.values(projects) as number[])
        : r.owner.kind === 'project'
          ? projectIds
          : (Object.entries(demoProjectPaths) as [DemoProjectKey, string][])
              .filter(([, path]) => path.startsWith(`${(r.owner as { path: string }).path}/`))
              .map(([k]) => projects[k])
              .filter((x): x is number => !!x);
    if (r.contactedAgo !== null) for (const p of served) available.set(p, [...(available.get(p) ?? []), created.id]);
  }

  await seedJobs(tx, projects, users, available, managersOf, contacted, now);
}

const STAGES: [string, string[]][] = [
  ['build', ['compile', 'docker-image']],
  ['test', ['unit', 'integration', 'lint']],
  ['deploy', ['staging']],
];

async function seedJobs(
  tx: Prisma.TransactionClient,
  projects: Partial<Record<DemoProjectKey, number>>,
  users: Partial<Record<string, number>>,
  available: Map<number, number[]>,
  managersOf: Map<number, number[]>,
  contacted: Map<number, number | null>,
  now: number,
) {
  const rand = prng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const userIds = Object.values(users).filter((x): x is number => !!x);
  const projectIds = (Object.values(projects) as number[]).filter((p) => available.has(p));
  const commitShas = new Map<number, string[]>();
  for (const row of await tx.$queryRaw<{ project_id: number; shas: string[] }[]>(sql`
      SELECT project_id, array_agg(sha ORDER BY committed_date DESC) AS shas FROM commits
       WHERE project_id = ANY(${projectIds}::int[]) GROUP BY project_id`)) {
    commitShas.set(row.project_id, row.shas.slice(0, 200));
  }

  const PIPELINES_PER_PROJECT = 160;
  const pl = {
    iid: [] as number[],
    project: [] as number[],
    sha: [] as string[],
    ref: [] as string[],
    status: [] as string[],
    source: [] as string[],
    user: [] as number[],
    created: [] as Date[],
  };
  for (const p of projectIds) {
    const base = (await tx.pipeline.aggregate({ where: { projectId: p }, _max: { iid: true } }))._max.iid ?? 0;
    const shas = commitShas.get(p);
    for (let i = 0; i < PIPELINES_PER_PROJECT; i++) {
      pl.iid.push(base + i + 1);
      pl.project.push(p);
      pl.sha.push(shas?.length ? shas[i % shas.length] : syntheticSha(p, i));
      pl.ref.push(rand() < 0.7 ? 'main' : pick(['feature/runner-tags', 'fix/timeout', 'release/18.1']));
      pl.status.push('success');
      pl.source.push(pick(['push', 'push', 'merge_request_event', 'schedule', 'web']));
      pl.user.push(pick(userIds));
      // Spread over 30 days, newest last so ids follow time.
      pl.created.push(new Date(now - ((PIPELINES_PER_PROJECT - i - 1) / PIPELINES_PER_PROJECT) * 30 * DAY - 5 * MINUTE));
    }
  }
  const pipelines = await tx.$queryRaw<{ id: number; project_id: number; user_id: number; created_at: Date; ref: string }[]>(sql`
    INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, user_id, created_at, updated_at)
    SELECT iid, project_id, sha, ref, status, source, user_id, created_at, created_at
      FROM unnest(${pl.iid}::int[], ${pl.project}::int[], ${pl.sha}::text[], ${pl.ref}::text[], ${pl.status}::text[],
                  ${pl.source}::text[], ${pl.user}::int[], ${pl.created}::timestamptz[])
           AS x(iid, project_id, sha, ref, status, source, user_id, created_at)
    RETURNING id, project_id, user_id, created_at, ref`);

  const j = {
    runner: [] as number[],
    manager: [] as (number | null)[],
    project: [] as number[],
    pipeline: [] as number[],
    user: [] as number[],
    status: [] as string[],
    stage: [] as string[],
    name: [] as string[],
    ref: [] as string[],
    created: [] as Date[],
    started: [] as (Date | null)[],
    finished: [] as (Date | null)[],
    queued: [] as number[],
    failure: [] as (string | null)[],
    coverage: [] as (number | null)[],
    allowFailure: [] as boolean[],
  };
  const pipelineStatus = new Map<number, string>();
  for (const p of pipelines) {
    // A runner only ran jobs while it was in contact: an online one any time, another only jobs that ended
    // before its last contact (so a stale runner shows no jobs from this week; a pipeline lasts under 45 min).
    const all = available.get(p.project_id)!;
    const inContact = all.filter((r) => {
      const ago = contacted.get(r);
      return ago !== null && ago !== undefined && (ago < 2 * HOUR || now - ago >= p.created_at.getTime() + 45 * MINUTE);
    });
    const runners = inContact.length ? inContact : all;
    const recent = now - p.created_at.getTime() < 30 * MINUTE;
    let status = 'success';
    // Stages run one after another, as GitLab's do: a stage's jobs start once the one before has finished.
    // The newest pipeline (minutes old) runs short jobs, so its deploy has started by now; nothing ends
    // after now, and a job that would start later has not been picked up by any runner yet (not listed).
    let stageStart = p.created_at.getTime() + 1000;
    for (const [stage, names] of STAGES) {
      let stageEnd = stageStart;
      for (const name of names) {
        // The first available runner (shared-docker-linux everywhere) is the workhorse: over 1,000 jobs, so
        // the runner list shows GitLab's "1,000+" cap.
        const runner = rand() < 0.35 ? runners[0] : pick(runners);
        const managers = managersOf.get(runner) ?? [];
        const roll = rand();
        let s = roll < 0.78 ? 'success' : roll < 0.9 ? 'failed' : roll < 0.95 ? 'canceled' : roll < 0.98 ? 'skipped' : 'manual';
        const isOnline = (contacted.get(runner) ?? Infinity) < 2 * HOUR;
        // The newest pipeline of each project is still deploying on an online runner.
        if (recent && isOnline && stage === 'deploy') s = 'running';
        const created = new Date(p.created_at.getTime() + 1000);
        const queued = Math.round(rand() * (recent ? 5 : 40) * 10) / 10;
        const length = (recent ? 10 + rand() * 50 : 30 + rand() * 600) * 1000;
        const ran = s !== 'skipped' && s !== 'manual';
        const startedAt = stageStart + queued * 1000;
        if (ran && startedAt >= now) continue;
        // A job still going now is running (on an online runner), or ended at the runner's last contact.
        let finishedAt = ran && s !== 'running' ? startedAt + length : null;
        if (finishedAt !== null && finishedAt >= now) {
          if (isOnline) {
            s = 'running';
            finishedAt = null;
          } else finishedAt = Math.min(now - 1000, Math.max(startedAt + 1000, now - (contacted.get(runner) ?? 0)));
        }
        if (s === 'failed' && status === 'success') status = 'failed';
        if (s === 'running') status = 'running';
        if (finishedAt !== null) stageEnd = Math.max(stageEnd, finishedAt);
        else if (ran) stageEnd = Infinity;
        j.runner.push(runner);
        j.manager.push(managers.length ? pick(managers) : null);
        j.project.push(p.project_id);
        j.pipeline.push(p.id);
        j.user.push(p.user_id);
        j.status.push(s);
        j.stage.push(stage);
        j.name.push(name);
        j.ref.push(p.ref);
        j.created.push(created);
        j.started.push(ran ? new Date(startedAt) : null);
        j.finished.push(finishedAt === null ? null : new Date(finishedAt));
        j.queued.push(queued);
        j.failure.push(s === 'failed' ? pick(['script_failure', 'script_failure', 'runner_system_failure', 'job_execution_timeout']) : null);
        j.coverage.push(name === 'unit' && s === 'success' ? Math.round((70 + rand() * 25) * 100) / 100 : null);
        j.allowFailure.push(name === 'lint');
      }
      // A stage still running holds the next one back: its jobs start after now, so none is listed.
      stageStart = stageEnd + 1000;
    }
    pipelineStatus.set(p.id, status);
  }
  await tx.$executeRaw(sql`
    INSERT INTO ci_builds (runner_id, runner_manager_id, project_id, pipeline_id, user_id, status, stage, name, ref, created_at,
                           started_at, finished_at, queued_duration, failure_reason, coverage, allow_failure)
    SELECT * FROM unnest(${j.runner}::int[], ${j.manager}::int[], ${j.project}::int[], ${j.pipeline}::int[], ${j.user}::int[],
                         ${j.status}::text[], ${j.stage}::text[], ${j.name}::text[], ${j.ref}::text[], ${j.created}::timestamptz[],
                         ${j.started}::timestamptz[], ${j.finished}::timestamptz[], ${j.queued}::float8[], ${j.failure}::text[],
                         ${j.coverage}::float8[], ${j.allowFailure}::boolean[])`);
  for (const status of ['failed', 'running']) {
    const ids = [...pipelineStatus].filter(([, s]) => s === status).map(([id]) => id);
    if (ids.length) await tx.$executeRaw`UPDATE ci_pipelines SET status = ${status} WHERE id = ANY(${ids}::int[])`;
  }
}

/** The demo runners' descriptions (tests check the demo's story on these, not on runners other tests made). */
export const DEMO_RUNNER_DESCRIPTIONS: readonly string[] = RUNNERS.map((r) => r.description);
