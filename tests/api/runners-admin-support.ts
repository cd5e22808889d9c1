// Fixtures for the runners-admin tests: runners made through POST /user/runners, then shaped directly
// in the database (contacted_at, created_at, links, managers, jobs) the way time and agents would.
import pg from 'pg';
import { inject } from 'vitest';
import { api, rootToken, uniq } from '../support/api';

export async function dbQuery<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('inspectUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

export type RunnerKind = 'instance_type' | 'group_type' | 'project_type';

export interface RunnerOpts {
  token?: string;
  groupId?: number;
  projectId?: number;
  tags?: string[];
  description?: string;
  paused?: boolean;
  locked?: boolean;
  runUntagged?: boolean;
  maintenanceNote?: string;
}

/** POST /user/runners (root by default); returns the runner id. */
export async function createRunner(type: RunnerKind, o: RunnerOpts = {}): Promise<number> {
  const json: Record<string, unknown> = { runner_type: type, description: o.description ?? uniq('runner') };
  if (o.groupId !== undefined) json.group_id = o.groupId;
  if (o.projectId !== undefined) json.project_id = o.projectId;
  if (o.tags) json.tag_list = o.tags;
  if (o.paused !== undefined) json.paused = o.paused;
  if (o.locked !== undefined) json.locked = o.locked;
  if (o.runUntagged !== undefined) json.run_untagged = o.runUntagged;
  if (o.maintenanceNote !== undefined) json.maintenance_note = o.maintenanceNote;
  const res = await api('POST', '/user/runners', { token: o.token ?? rootToken(), json });
  if (res.status !== 201) throw new Error(`POST /user/runners: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Sets contacted_at / created_at as "N milliseconds ago" (null = never). */
export async function setRunnerTimes(id: number, t: { contactedAgoMs?: number | null; createdAgoMs?: number }) {
  if (t.contactedAgoMs !== undefined) {
    await dbQuery(
      `UPDATE ci_runners SET contacted_at = CASE WHEN $2::bigint IS NULL THEN NULL ELSE now() - ($2::bigint * interval '1 millisecond') END WHERE id = $1`,
      [id, t.contactedAgoMs],
    );
  }
  if (t.createdAgoMs !== undefined) {
    await dbQuery(`UPDATE ci_runners SET created_at = now() - ($2::bigint * interval '1 millisecond') WHERE id = $1`, [id, t.createdAgoMs]);
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Links a project runner to one more project (as an earlier assignment would have). */
export async function linkProject(runnerId: number, projectId: number) {
  await dbQuery('INSERT INTO ci_runner_projects (runner_id, project_id) VALUES ($1, $2)', [runnerId, projectId]);
}

export async function addManager(runnerId: number, m: { systemId: string; version?: string; contactedAgoMs?: number | null; finished?: boolean }) {
  const rows = await dbQuery<{ id: number }>(
    `INSERT INTO ci_runner_machines (runner_id, system_xid, version, revision, platform, architecture, ip_address, creation_state, contacted_at, updated_at)
     VALUES ($1, $2, $3, 'abc123', 'linux', 'amd64', '10.0.0.1', $4::"RunnerCreationState",
             CASE WHEN $5::bigint IS NULL THEN NULL ELSE now() - ($5::bigint * interval '1 millisecond') END, now())
     RETURNING id`,
    [runnerId, m.systemId, m.version ?? null, m.finished === false ? 'started' : 'finished', m.contactedAgoMs === undefined ? 0 : m.contactedAgoMs],
  );
  return rows[0].id;
}

/** Inserts a pipeline and `n` jobs of the runner in one project; returns the job ids (ascending). */
export async function addJobs(
  runnerId: number,
  projectId: number,
  n: number,
  o: { status?: string; managerId?: number | null; userId?: number | null } = {},
): Promise<number[]> {
  const [pipeline] = await dbQuery<{ id: number }>(
    `INSERT INTO ci_pipelines (iid, project_id, sha, ref, status, source, updated_at)
     VALUES ((SELECT COALESCE(MAX(iid), 0) + 1 FROM ci_pipelines WHERE project_id = $1), $1, md5(random()::text) || substr(md5(random()::text), 1, 8), 'main', 'success', 'push', now())
     RETURNING id`,
    [projectId],
  );
  const rows = await dbQuery<{ id: number }>(
    `INSERT INTO ci_builds (runner_id, runner_manager_id, project_id, pipeline_id, user_id, status, stage, name, ref, started_at, finished_at, queued_duration, failure_reason)
     SELECT $1, $2, $3, $4, $5, $6, 'test', 'job ' || g, 'main', now() - interval '10 minutes', CASE WHEN $6 IN ('running', 'pending') THEN NULL ELSE now() END, 1.5,
            CASE WHEN $6 = 'failed' THEN 'script_failure' END
       FROM generate_series(1, $7::int) g ORDER BY g
     RETURNING id`,
    [runnerId, o.managerId ?? null, projectId, pipeline.id, o.userId ?? null, o.status ?? 'success', n],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
