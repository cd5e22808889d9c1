// Runner contact: what an authenticated runner request records. GitLab caches repeat heartbeats in Redis
// and writes contacted_at to the database every 40-55 minutes, but writes a runner's first contact at once
// (Ci::Runner#heartbeat persists when the stored contacted_at is null) and creates the manager during the
// request (ensure_manager). Runway's API and pages read contacted_at from the database, so a poll writes
// at once what is new (recordContact): a first contact, the creation state, a new manager, a manager's
// changed version/revision/platform/architecture/executor/IP. What only moves contacted_at forward on a
// runner and manager already known goes to this process's buffer, written for all of them in one
// statement every RUNWAY_HEARTBEAT_FLUSH_SECONDS (flushHeartbeats; also at shutdown, lib/server/drain.ts);
// that lags the truth by at most the interval. With the setting at 0 each poll writes its heartbeat as
// it arrives, at most once a minute per runner and per manager (heartbeatIfDue decides from the row it read).
import { enqueueJob } from '../background/queue';
import { db } from '../db/client';
import { integerSetting } from '../config/env';
import { executeStatement } from '../db/query';
import { sql, type Sql } from '../db/sql';
import { log } from '../log/log';
import type { RunnerContactState } from '../runners/tokens';
import { RUNNER_VERSIONS_JOB_KIND } from '../runners/upgrade-status';
import { rememberContact, type KnownManager, type PollingContact } from './contact-cache';

/** GitLab's system_xid for runners that send no system_id. */
export const LEGACY_SYSTEM_XID = '<legacy>';
export const SYSTEM_XID_MAX_LENGTH = 64;

const EXECUTORS = new Set([
  'unknown',
  'custom',
  'shell',
  'docker',
  'docker-windows',
  'docker-ssh',
  'ssh',
  'parallels',
  'virtualbox',
  'docker+machine',
  'docker-ssh+machine',
  'kubernetes',
  'docker-autoscaler',
  'instance',
]);

export interface RunnerInfo {
  version?: string;
  revision?: string;
  platform?: string;
  architecture?: string;
  executor?: string;
  config?: unknown;
}

const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, max) : null);

/** The `info` hash as a runner sends it, reduced to what managers store (limits as GitLab's validations). */
export function runnerInfo(raw: unknown): RunnerInfo {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const i = raw as Record<string, unknown>;
  return {
    version: str(i.version, 2048) ?? undefined,
    revision: str(i.revision, 255) ?? undefined,
    platform: str(i.platform, 255) ?? undefined,
    architecture: str(i.architecture, 255) ?? undefined,
    executor: typeof i.executor === 'string' && i.executor ? (EXECUTORS.has(i.executor) ? i.executor : 'unknown') : undefined,
    config: i.config && typeof i.config === 'object' ? i.config : undefined,
  };
}

/** Runner heartbeat: contacted_at = now (throttled), and creation_state = finished when asked. */
export async function touchRunner(runnerId: number, opts: { finish: boolean }): Promise<void> {
  await db().$executeRaw`
    UPDATE ci_runners
       SET contacted_at = now(),
           creation_state = CASE WHEN ${opts.finish} THEN 'finished'::"RunnerCreationState" ELSE creation_state END
     WHERE id = ${runnerId}
       AND (contacted_at IS NULL OR contacted_at < now() - interval '1 minute'
            OR (${opts.finish} AND creation_state <> 'finished'::"RunnerCreationState"))`;
}

export interface ManagerContact {
  systemXid: string;
  info: RunnerInfo;
  ip: string | null;
  finish: boolean;
}

/**
 * Find-or-create the manager (runner, system_xid) and record its contact now: the flush's statement for
 * one manager. Concurrent first requests meet on the unique (runner_id, system_xid).
 */
export async function touchManager(runnerId: number, c: ManagerContact): Promise<void> {
  await executeStatement(managersUpsertSql([{ runnerId, systemXid: c.systemXid, at: new Date(), finish: c.finish, info: c.info, ip: c.ip }]));
}

/** Everything an authenticated runner call records (GitLab's authenticate_runner! heartbeat). */
export async function heartbeat(runnerId: number, c: ManagerContact): Promise<void> {
  await touchRunner(runnerId, { finish: c.finish });
  await touchManager(runnerId, c);
}

const MANAGER_INFO_FIELDS = ['version', 'revision', 'platform', 'architecture'] as const;

/**
 * A version the manager did not report before, which no manager reported before either (its row, added by
 * the manager's trigger, has no status yet): the worker computes its upgrade status at once, as GitLab's
 * heartbeat schedules ProcessRunnerVersionUpdateWorker for a new version. The periodic reconcile would
 * otherwise within a minute.
 */
async function queueNewVersion(m: KnownManager | null, c: ManagerContact): Promise<void> {
  const version = c.info.version;
  if (version === undefined || version === m?.version) return;
  const rows = await db().$queryRaw<{ pending: boolean }[]>`SELECT status IS NULL AS pending FROM ci_runner_versions WHERE version = ${version}`;
  if (rows[0]?.pending) await enqueueJob(RUNNER_VERSIONS_JOB_KIND, {});
}

/** Whether a poll reports something its stored manager does not hold (creation to finish, info, ip). */
function managerChanged(m: KnownManager, c: ManagerContact): boolean {
  return (
    (c.finish && m.creationState !== 'finished') ||
    MANAGER_INFO_FIELDS.some((f) => c.info[f] !== undefined && c.info[f] !== m[f]) ||
    (c.info.executor !== undefined && c.info.executor !== m.executorType) ||
    (c.ip !== null && c.ip !== m.ipAddress)
  );
}

/**
 * The heartbeat of a runner poll, given the state findRunnerForContact read: each write runs only when
 * its own guard would let it change something (a minute passed, the creation state must advance, the
 * reported info or ip changed), so most polls write nothing. The writes keep their guards, so a
 * concurrent poll that already wrote makes them no-ops.
 */
export async function heartbeatIfDue(state: RunnerContactState, c: ManagerContact): Promise<void> {
  if (state.contactDue || (c.finish && state.creationState !== 'finished')) await touchRunner(state.id, { finish: c.finish });
  const m = state.manager;
  if (!m || m.contactDue || managerChanged(m, c)) {
    await touchManager(state.id, c);
    await queueNewVersion(m, c);
  }
}

/** The manager as a contact leaves it: what was reported over what was known (unreported fields keep theirs). */
function managerAfter(m: KnownManager | null, c: ManagerContact): KnownManager {
  return {
    creationState: c.finish ? 'finished' : (m?.creationState ?? 'started'),
    version: c.info.version ?? m?.version ?? null,
    revision: c.info.revision ?? m?.revision ?? null,
    platform: c.info.platform ?? m?.platform ?? null,
    architecture: c.info.architecture ?? m?.architecture ?? null,
    executorType: c.info.executor ?? m?.executorType ?? null,
    ipAddress: c.ip ?? m?.ipAddress ?? null,
  };
}

/**
 * A poll's contact on the buffered path (runner from lib/runner-agent/contact-cache): what is new is
 * written before the poll is answered, so the API, the filters, the manager list and DELETE
 * /runners/managers see it at once: the runner's first contact or the creation state it finishes
 * (touchRunner, whose change notification also drops the runner's cached entry everywhere), a manager this
 * process has not seen or whose report changed (touchManager). The move of contacted_at is buffered too,
 * so the flush keeps it current.
 */
export async function recordContact(token: string, runner: PollingContact, c: ManagerContact): Promise<void> {
  const runnerNew = !runner.contacted || (c.finish && runner.creationState !== 'finished');
  const managerNew = !runner.manager || managerChanged(runner.manager, c);
  if (runnerNew) await touchRunner(runner.id, { finish: c.finish });
  if (managerNew) {
    await touchManager(runner.id, c);
    await queueNewVersion(runner.manager, c);
  }
  if (runnerNew || managerNew) {
    rememberContact(token, runner.id, { finished: c.finish, systemXid: c.systemXid, manager: managerNew ? managerAfter(runner.manager, c) : null });
  }
  bufferHeartbeat(runner.id, c);
}

/**
 * The value runners echo back as `last_update` (X-GitLab-Last-Update): it changes whenever the runner
 * row changes, as GitLab's runner queue value does.
 */
export function lastUpdateValue(runner: { id: number; updatedAt: Date }): string {
  return `${runner.id.toString(16)}${runner.updatedAt.getTime().toString(16)}`;
}

/** RUNWAY_HEARTBEAT_FLUSH_SECONDS: 0 when each poll writes its own heartbeat. */
export const heartbeatFlushSeconds = (): number => integerSetting('RUNWAY_HEARTBEAT_FLUSH_SECONDS');

interface PendingManager {
  runnerId: number;
  systemXid: string;
  at: Date;
  finish: boolean;
  info: RunnerInfo;
  ip: string | null;
}

interface BufferState {
  /** Runner id -> the latest contact. */
  runners: Map<number, Date>;
  /** `runnerId \n systemXid` -> the manager's latest contact. */
  managers: Map<string, PendingManager>;
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}

// One per process, whichever bundle (Next.js or the fast path) loaded this module.
const holder = globalThis as typeof globalThis & { __runwayHeartbeats?: BufferState };
const buffer = (): BufferState => (holder.__runwayHeartbeats ??= { runners: new Map(), managers: new Map() });

/** Rows per statement: a flush of a large fleet is a few statements of bounded size. */
const FLUSH_CHUNK = 5_000;

const defined = (info: RunnerInfo): RunnerInfo => Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined && v !== null)) as RunnerInfo;

/**
 * Records a poll's heartbeat in this process's buffer; the next flush moves contacted_at forward on the
 * runner and manager, if they exist and were contacted already (what is new was written by recordContact).
 */
export function bufferHeartbeat(runnerId: number, c: ManagerContact): void {
  const b = buffer();
  const at = new Date();
  b.runners.set(runnerId, at);
  const key = `${runnerId}\n${c.systemXid}`;
  const m = b.managers.get(key);
  // A field one poll did not send keeps what an earlier poll of the same window sent, as the COALESCEs do.
  b.managers.set(key, {
    runnerId,
    systemXid: c.systemXid,
    at,
    finish: false,
    info: { ...m?.info, ...defined(c.info) },
    ip: c.ip ?? m?.ip ?? null,
  });
  b.timer ??= setTimeout(() => void flushHeartbeats(), Math.max(1, heartbeatFlushSeconds()) * 1000).unref();
}

const iso = (d: Date) => d.toISOString();

/**
 * Managers' contact: each (runner, system_xid) created when new, its info rewritten only where it changed
 * (a field not reported keeps its value), contacted_at only moved forward (GREATEST: several instances
 * flush the same runner in any order). Managers of a runner deleted meanwhile are skipped.
 */
function managersUpsertSql(managers: PendingManager[]): Sql {
  return sql`
    INSERT INTO ci_runner_machines AS m
           (runner_id, system_xid, version, revision, platform, architecture, executor_type, ip_address, config,
            creation_state, contacted_at, created_at, updated_at)
    SELECT u.runner_id, u.xid, u.version, u.revision, u.platform, u.architecture, u.executor, u.ip, u.config::jsonb,
           (CASE WHEN u.finish THEN 'finished' ELSE 'started' END)::"RunnerCreationState", u.at, now(), now()
      FROM unnest(${managers.map((m) => m.runnerId)}::int[], ${managers.map((m) => m.systemXid)}::text[],
                  ${managers.map((m) => iso(m.at))}::timestamptz[], ${managers.map((m) => m.finish)}::bool[],
                  ${managers.map((m) => m.info.version ?? null)}::text[], ${managers.map((m) => m.info.revision ?? null)}::text[],
                  ${managers.map((m) => m.info.platform ?? null)}::text[], ${managers.map((m) => m.info.architecture ?? null)}::text[],
                  ${managers.map((m) => m.info.executor ?? null)}::text[], ${managers.map((m) => m.ip)}::text[],
                  ${managers.map((m) => (m.info.config === undefined ? null : JSON.stringify(m.info.config)))}::text[])
           AS u(runner_id, xid, at, finish, version, revision, platform, architecture, executor, ip, config)
     WHERE EXISTS (SELECT 1 FROM ci_runners r WHERE r.id = u.runner_id)
     ORDER BY u.runner_id, u.xid
    ON CONFLICT (runner_id, system_xid) DO UPDATE SET
           version = COALESCE(EXCLUDED.version, m.version),
           revision = COALESCE(EXCLUDED.revision, m.revision),
           platform = COALESCE(EXCLUDED.platform, m.platform),
           architecture = COALESCE(EXCLUDED.architecture, m.architecture),
           executor_type = COALESCE(EXCLUDED.executor_type, m.executor_type),
           ip_address = COALESCE(EXCLUDED.ip_address, m.ip_address),
           config = COALESCE(EXCLUDED.config, m.config),
           creation_state = CASE WHEN EXCLUDED.creation_state = 'finished' THEN EXCLUDED.creation_state ELSE m.creation_state END,
           contacted_at = GREATEST(m.contacted_at, EXCLUDED.contacted_at),
           updated_at = now()
     WHERE m.contacted_at IS NULL OR m.contacted_at < EXCLUDED.contacted_at
        OR (EXCLUDED.creation_state = 'finished' AND m.creation_state <> 'finished')
        OR m.version IS DISTINCT FROM COALESCE(EXCLUDED.version, m.version)
        OR m.revision IS DISTINCT FROM COALESCE(EXCLUDED.revision, m.revision)
        OR m.platform IS DISTINCT FROM COALESCE(EXCLUDED.platform, m.platform)
        OR m.architecture IS DISTINCT FROM COALESCE(EXCLUDED.architecture, m.architecture)
        OR m.executor_type IS DISTINCT FROM COALESCE(EXCLUDED.executor_type, m.executor_type)
        OR m.ip_address IS DISTINCT FROM COALESCE(EXCLUDED.ip_address, m.ip_address)`;
}

/**
 * Writes one chunk of the buffer in one statement, so one transaction (a data-modifying WITH always runs
 * in full): contacted_at moved forward (GREATEST: instances flush the same runner in any order) on the
 * runners already contacted, then on their managers that exist, with any info that changed. A runner
 * deleted or never contacted, or a manager removed meanwhile (DELETE /runners/managers), is not brought
 * back: only a poll's own contact writes those, at once.
 */
async function writeChunk(runners: Array<[number, Date]>, managers: PendingManager[]): Promise<void> {
  await executeStatement(sql`
    WITH touched AS (
      UPDATE ci_runners r
         SET contacted_at = GREATEST(r.contacted_at, u.at)
        FROM unnest(${runners.map(([id]) => id)}::int[], ${runners.map(([, at]) => iso(at))}::timestamptz[]) AS u(id, at)
       WHERE r.id = u.id AND r.contacted_at IS NOT NULL AND r.contacted_at < u.at)
    UPDATE ci_runner_machines m
       SET contacted_at = GREATEST(m.contacted_at, u.at),
           version = COALESCE(u.version, m.version),
           revision = COALESCE(u.revision, m.revision),
           platform = COALESCE(u.platform, m.platform),
           architecture = COALESCE(u.architecture, m.architecture),
           executor_type = COALESCE(u.executor, m.executor_type),
           ip_address = COALESCE(u.ip, m.ip_address),
           updated_at = now()
      FROM unnest(${managers.map((m) => m.runnerId)}::int[], ${managers.map((m) => m.systemXid)}::text[],
                  ${managers.map((m) => iso(m.at))}::timestamptz[],
                  ${managers.map((m) => m.info.version ?? null)}::text[], ${managers.map((m) => m.info.revision ?? null)}::text[],
                  ${managers.map((m) => m.info.platform ?? null)}::text[], ${managers.map((m) => m.info.architecture ?? null)}::text[],
                  ${managers.map((m) => m.info.executor ?? null)}::text[], ${managers.map((m) => m.ip)}::text[])
           AS u(runner_id, xid, at, version, revision, platform, architecture, executor, ip)
     WHERE m.runner_id = u.runner_id AND m.system_xid = u.xid
       AND (m.contacted_at IS NULL OR m.contacted_at < u.at
            OR m.version IS DISTINCT FROM COALESCE(u.version, m.version)
            OR m.revision IS DISTINCT FROM COALESCE(u.revision, m.revision)
            OR m.platform IS DISTINCT FROM COALESCE(u.platform, m.platform)
            OR m.architecture IS DISTINCT FROM COALESCE(u.architecture, m.architecture)
            OR m.executor_type IS DISTINCT FROM COALESCE(u.executor, m.executor_type)
            OR m.ip_address IS DISTINCT FROM COALESCE(u.ip, m.ip_address))`);
}

/** Puts a failed chunk back, unless a newer poll of the same runner or manager was buffered meanwhile. */
function requeue(runners: Array<[number, Date]>, managers: PendingManager[]): void {
  const b = buffer();
  for (const [id, at] of runners) if (!b.runners.has(id)) b.runners.set(id, at);
  for (const m of managers) {
    const key = `${m.runnerId}\n${m.systemXid}`;
    const now = b.managers.get(key);
    b.managers.set(key, now ? { ...now, info: { ...m.info, ...now.info }, ip: now.ip ?? m.ip } : m);
  }
}

async function flushOnce(): Promise<void> {
  const b = buffer();
  if (b.timer) clearTimeout(b.timer);
  b.timer = undefined;
  const runners = [...b.runners];
  const managers = [...b.managers.values()];
  b.runners = new Map();
  b.managers = new Map();
  // Sorted, so that instances flushing the same runners lock their rows in the same order.
  runners.sort(([a], [c]) => a - c);
  managers.sort((a, c) => a.runnerId - c.runnerId || (a.systemXid < c.systemXid ? -1 : 1));
  for (let i = 0; i < Math.max(runners.length, managers.length); i += FLUSH_CHUNK) {
    const rs = runners.slice(i, i + FLUSH_CHUNK);
    const ms = managers.slice(i, i + FLUSH_CHUNK);
    try {
      await writeChunk(rs, ms);
    } catch (err) {
      // Kept for the next flush (a deadlock with another instance's flush, a database restart).
      log('warn', 'heartbeat flush failed', { runners: rs.length, managers: ms.length, error: (err as Error).message });
      requeue(rs, ms);
    }
  }
  if ((b.runners.size || b.managers.size) && !b.timer) {
    b.timer = setTimeout(() => void flushHeartbeats(), Math.max(1, heartbeatFlushSeconds()) * 1000).unref();
  }
}

/** Writes every buffered heartbeat now (the timer, shutdown, tests); one flush at a time. */
export async function flushHeartbeats(): Promise<void> {
  const b = buffer();
  while (b.flushing) await b.flushing;
  if (!b.runners.size && !b.managers.size) return;
  b.flushing = flushOnce().finally(() => (b.flushing = undefined));
  await b.flushing;
}
