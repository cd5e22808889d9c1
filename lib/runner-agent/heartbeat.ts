// Runner contact: what an authenticated runner request records. GitLab caches heartbeats in Redis and
// writes contacted_at to the database every 40-55 minutes; Runway's API and pages read contacted_at from
// the database, so each process buffers its polls' heartbeats (runner contact, creation state, the
// manager and its version/platform/executor/ip) and writes them all in one statement every
// RUNWAY_HEARTBEAT_FLUSH_SECONDS (flushHeartbeats; also at shutdown, lib/server/drain.ts). What the API
// shows then lags the truth by at most that. With the setting at 0 each poll writes its heartbeat as it
// arrives, at most once a minute per runner and per manager (heartbeatIfDue decides from the row it read).
import { db } from '../db/client';
import { integerSetting } from '../config/env';
import { executeStatement } from '../db/query';
import { sql, type Sql } from '../db/sql';
import { log } from '../log/log';
import type { RunnerContactState } from '../runners/tokens';

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
 * The heartbeat of a runner poll, given the state findRunnerForContact read: each write runs only when
 * its own guard would let it change something (a minute passed, the creation state must advance, the
 * reported info or ip changed), so most polls write nothing. The writes keep their guards, so a
 * concurrent poll that already wrote makes them no-ops.
 */
export async function heartbeatIfDue(state: RunnerContactState, c: ManagerContact): Promise<void> {
  if (state.contactDue || (c.finish && state.creationState !== 'finished')) await touchRunner(state.id, { finish: c.finish });
  const m = state.manager;
  const changed =
    !m ||
    m.contactDue ||
    (c.finish && m.creationState !== 'finished') ||
    MANAGER_INFO_FIELDS.some((f) => c.info[f] !== undefined && c.info[f] !== m[f]) ||
    (c.info.executor !== undefined && c.info.executor !== m.executorType) ||
    (c.ip !== null && c.ip !== m.ipAddress);
  if (changed) await touchManager(state.id, c);
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
  /** Runner id -> the latest contact and whether a poll asked to finish its creation. */
  runners: Map<number, { at: Date; finish: boolean }>;
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

/** Records a poll's heartbeat in this process's buffer; the next flush writes it. */
export function bufferHeartbeat(runnerId: number, c: ManagerContact): void {
  const b = buffer();
  const at = new Date();
  const r = b.runners.get(runnerId);
  b.runners.set(runnerId, { at, finish: c.finish || (r?.finish ?? false) });
  const key = `${runnerId}\n${c.systemXid}`;
  const m = b.managers.get(key);
  // A field one poll did not send keeps what an earlier poll of the same window sent, as the COALESCEs do.
  b.managers.set(key, {
    runnerId,
    systemXid: c.systemXid,
    at,
    finish: c.finish || (m?.finish ?? false),
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
 * Writes one chunk of the buffer: the runners' contact (and creation state), then their managers, in one
 * statement, so one transaction (a data-modifying WITH always runs in full).
 */
async function writeChunk(runners: Array<[number, { at: Date; finish: boolean }]>, managers: PendingManager[]): Promise<void> {
  await executeStatement(sql`
    WITH touched AS (
      UPDATE ci_runners r
         SET contacted_at = GREATEST(r.contacted_at, u.at),
             creation_state = CASE WHEN u.finish THEN 'finished'::"RunnerCreationState" ELSE r.creation_state END
        FROM unnest(${runners.map(([id]) => id)}::int[], ${runners.map(([, v]) => iso(v.at))}::timestamptz[],
                    ${runners.map(([, v]) => v.finish)}::bool[]) AS u(id, at, finish)
       WHERE r.id = u.id
         AND (r.contacted_at IS NULL OR r.contacted_at < u.at OR (u.finish AND r.creation_state <> 'finished'::"RunnerCreationState")))
    ${managersUpsertSql(managers)}`);
}

/** Puts a failed chunk back, unless a newer poll of the same runner or manager was buffered meanwhile. */
function requeue(runners: Array<[number, { at: Date; finish: boolean }]>, managers: PendingManager[]): void {
  const b = buffer();
  for (const [id, v] of runners) {
    const now = b.runners.get(id);
    b.runners.set(id, now ? { at: now.at, finish: now.finish || v.finish } : v);
  }
  for (const m of managers) {
    const key = `${m.runnerId}\n${m.systemXid}`;
    const now = b.managers.get(key);
    b.managers.set(key, now ? { ...now, finish: now.finish || m.finish, info: { ...m.info, ...now.info }, ip: now.ip ?? m.ip } : m);
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
