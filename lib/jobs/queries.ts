// A runner's jobs (GitLab's Ci::RunnerJobsFinder): optional manager (system_id) and status filters, id
// order, and for non-admins only jobs of projects where the reader is Reporter+. A page's users,
// pipelines, projects and commits load in one query each.
import { db } from '../db/client';
import type { Commit, Job, Pipeline, User } from '../db/generated/client';
import { join, sql, type Sql } from '../db/sql';
import { AccessLevel, authorizedProjectIdsSql } from '../namespaces/access';
import { loadProjectRecords, type ProjectRecord } from '../namespaces/records';

/** Ci::HasStatus AVAILABLE_STATUSES (18.x). */
export const JOB_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'success',
  'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;

export interface RunnerJobsQuery {
  runnerId: number;
  systemId?: string;
  status?: string;
  /** 'id' switches to explicit ordering (default desc); without it GitLab's pagination orders id ASC. */
  orderBy?: 'id';
  sort?: 'asc' | 'desc';
  /** Restrict to the user's Reporter+ projects; null for admins. */
  visibleToUserId: number | null;
  /** Keyset: only ids after (asc) or before (desc) this one. */
  afterId?: number;
}

export function jobsDirection(q: RunnerJobsQuery): 'ASC' | 'DESC' {
  return q.orderBy === 'id' && q.sort !== 'asc' ? 'DESC' : 'ASC';
}

function where(q: RunnerJobsQuery): Sql {
  const conds: Sql[] = [sql`b.runner_id = ${q.runnerId}`];
  if (q.systemId !== undefined) {
    conds.push(sql`b.runner_manager_id IN (SELECT m.id FROM ci_runner_machines m WHERE m.runner_id = ${q.runnerId} AND m.system_xid = ${q.systemId})`);
  }
  if (q.status) conds.push(sql`b.status = ${q.status}`);
  if (q.visibleToUserId !== null) conds.push(sql`b.project_id IN (${authorizedProjectIdsSql(q.visibleToUserId, AccessLevel.REPORTER)})`);
  if (q.afterId !== undefined) conds.push(jobsDirection(q) === 'ASC' ? sql`b.id > ${q.afterId}` : sql`b.id < ${q.afterId}`);
  return join(conds, ' AND ');
}

export async function listRunnerJobs(q: RunnerJobsQuery, offset: number, limit: number): Promise<Job[]> {
  const dir = jobsDirection(q) === 'ASC' ? sql`ASC` : sql`DESC`;
  const ids = await db().$queryRaw<{ id: number }[]>(sql`
    SELECT b.id FROM ci_builds b WHERE ${where(q)} ORDER BY b.id ${dir} LIMIT ${limit} OFFSET ${offset}`);
  if (!ids.length) return [];
  const jobs = await db().job.findMany({ where: { id: { in: ids.map((r) => r.id) } } });
  const byId = new Map(jobs.map((j) => [j.id, j]));
  return ids.map((r) => byId.get(r.id)).filter((j): j is Job => !!j);
}

export const JOB_COUNT_LIMIT = 10_000;

export async function countRunnerJobs(q: RunnerJobsQuery): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>(sql`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM ci_builds b WHERE ${where(q)} LIMIT ${JOB_COUNT_LIMIT + 1}) x`);
  return rows[0]?.n ?? 0;
}

export interface JobRelations {
  users: Map<number, User>;
  pipelines: Map<number, Pipeline>;
  projects: Map<number, ProjectRecord>;
  /** Keyed by `${projectId}:${sha}`. */
  commits: Map<string, Commit>;
}

export async function loadJobRelations(jobs: Job[]): Promise<JobRelations> {
  const uniq = <T>(xs: (T | null)[]) => [...new Set(xs.filter((x): x is T => x !== null))];
  const userIds = uniq(jobs.map((j) => j.userId));
  const pipelineIds = uniq(jobs.map((j) => j.pipelineId));
  const projectIds = uniq(jobs.map((j) => j.projectId));
  const [users, pipelines, projects] = await Promise.all([
    userIds.length ? db().user.findMany({ where: { id: { in: userIds } } }) : Promise.resolve([] as User[]),
    pipelineIds.length ? db().pipeline.findMany({ where: { id: { in: pipelineIds } } }) : Promise.resolve([] as Pipeline[]),
    loadProjectRecords(projectIds),
  ]);
  const pairs = pipelines.map((p) => sql`(${p.projectId}::int, ${p.sha}::text)`);
  const commits = pairs.length
    ? await db().$queryRaw<{ id: number }[]>(sql`
        SELECT c.id FROM commits c JOIN (VALUES ${join(pairs, ', ')}) AS v(project_id, sha)
          ON c.project_id = v.project_id AND c.sha = v.sha`)
    : [];
  const commitRows = commits.length ? await db().commit.findMany({ where: { id: { in: commits.map((c) => c.id) } } }) : [];
  return {
    users: new Map(users.map((u) => [u.id, u])),
    pipelines: new Map(pipelines.map((p) => [p.id, p])),
    projects: new Map(projects.map((p) => [p.id, p])),
    commits: new Map(commitRows.map((c) => [`${c.projectId}:${c.sha}`, c])),
  };
}

