// Runner contact: what an authenticated runner request records. GitLab caches heartbeats in Redis and
// writes the row rarely; Runway has no cache, so it writes at most once a minute per runner and per
// manager (the WHERE clauses below), which keeps `online` (2 h window) exact and polling cheap.
import { db } from '../db/client';
import type { RunnerContactState } from './tokens';

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
 * Find-or-create the manager (runner, system_xid) and record its contact. Concurrent first requests meet
 * on the unique (runner_id, system_xid); the row is rewritten only when a minute has passed, the
 * creation state must advance, or the reported version/platform/executor/ip changed.
 */
export async function touchManager(runnerId: number, c: ManagerContact): Promise<void> {
  const i = c.info;
  const config = i.config === undefined ? null : JSON.stringify(i.config);
  const state = c.finish ? 'finished' : 'started';
  await db().$executeRaw`
    INSERT INTO ci_runner_machines AS m
           (runner_id, system_xid, version, revision, platform, architecture, executor_type, ip_address, config,
            creation_state, contacted_at, created_at, updated_at)
    VALUES (${runnerId}, ${c.systemXid}, ${i.version ?? null}, ${i.revision ?? null}, ${i.platform ?? null},
            ${i.architecture ?? null}, ${i.executor ?? null}, ${c.ip}, ${config}::jsonb,
            ${state}::"RunnerCreationState", now(), now(), now())
    ON CONFLICT (runner_id, system_xid) DO UPDATE SET
           version = COALESCE(EXCLUDED.version, m.version),
           revision = COALESCE(EXCLUDED.revision, m.revision),
           platform = COALESCE(EXCLUDED.platform, m.platform),
           architecture = COALESCE(EXCLUDED.architecture, m.architecture),
           executor_type = COALESCE(EXCLUDED.executor_type, m.executor_type),
           ip_address = COALESCE(EXCLUDED.ip_address, m.ip_address),
           config = COALESCE(EXCLUDED.config, m.config),
           creation_state = CASE WHEN ${c.finish} THEN 'finished'::"RunnerCreationState" ELSE m.creation_state END,
           contacted_at = now(),
           updated_at = now()
     WHERE m.contacted_at IS NULL OR m.contacted_at < now() - interval '1 minute'
        OR (${c.finish} AND m.creation_state <> 'finished'::"RunnerCreationState")
        OR m.version IS DISTINCT FROM COALESCE(EXCLUDED.version, m.version)
        OR m.revision IS DISTINCT FROM COALESCE(EXCLUDED.revision, m.revision)
        OR m.platform IS DISTINCT FROM COALESCE(EXCLUDED.platform, m.platform)
        OR m.architecture IS DISTINCT FROM COALESCE(EXCLUDED.architecture, m.architecture)
        OR m.executor_type IS DISTINCT FROM COALESCE(EXCLUDED.executor_type, m.executor_type)
        OR m.ip_address IS DISTINCT FROM COALESCE(EXCLUDED.ip_address, m.ip_address)`;
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
