// A runner's jobs (GitLab's Ci::RunnerJobsFinder): optional manager (system_id) and status filters, id
// order, and for non-admins only jobs of projects where the reader is Reporter+. A page's users,
// pipelines, projects and commits come with the page, in the same statement.
import { queryRows } from '../db/query';
import type { Commit, Job, Pipeline, User } from '../db/generated/client';
import { empty, join, sql, type Sql } from '../db/sql';
import { AccessLevel, authorizedProjectIdsSql } from '../namespaces/access';
import { hydrateProjectInfo, PROJECT_INFO_JSON, type RunnerProjectInfo } from '../namespaces/project-info';

/** Ci::HasStatus AVAILABLE_STATUSES (18.x). */
export const JOB_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
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

// Job rows under the Prisma model's field names, so the page comes back as `Job`s without a second query.
const JOB_COLUMNS = sql`b.id, b.runner_id AS "runnerId", b.runner_manager_id AS "runnerManagerId", b.project_id AS "projectId",
  b.pipeline_id AS "pipelineId", b.user_id AS "userId", b.status, b.stage, b.name, b.ref, b.tag, b.coverage,
  b.allow_failure AS "allowFailure", b.failure_reason AS "failureReason", b.created_at AS "createdAt",
  b.started_at AS "startedAt", b.finished_at AS "finishedAt", b.erased_at AS "erasedAt", b.queued_duration AS "queuedDuration"`;

/** What JobBasicWithProject shows of a job's user (UserDetails fields). */
export type JobUser = Pick<
  User,
  | 'id'
  | 'username'
  | 'name'
  | 'publicEmail'
  | 'state'
  | 'createdAt'
  | 'bio'
  | 'location'
  | 'jobTitle'
  | 'organization'
  | 'websiteUrl'
  | 'skype'
  | 'linkedin'
  | 'twitter'
  | 'discord'
  | 'pronouns'
>;

/** A job with its user, pipeline, project (with namespace) and the pipeline's commit, from the same statement. */
export interface JobRow extends Job {
  user: JobUser | null;
  pipeline: Pipeline | null;
  project: RunnerProjectInfo | null;
  commit: Commit | null;
}

// The relations as correlated subqueries of a page `b` (cut first, so they run for the page's rows only):
// a page and everything it shows in one statement.
const JOB_RELATION_COLUMNS = sql`
  (SELECT json_build_object('id', u.id, 'username', u.username, 'name', u.name, 'publicEmail', u.public_email,
                            'state', u.state::text, 'createdAt', u.created_at, 'bio', u.bio, 'location', u.location,
                            'jobTitle', u.job_title, 'organization', u.organization, 'websiteUrl', u.website_url,
                            'skype', u.skype, 'linkedin', u.linkedin, 'twitter', u.twitter, 'discord', u.discord,
                            'pronouns', u.pronouns)
     FROM users u WHERE u.id = b."userId") AS "user",
  (SELECT json_build_object('id', pl.id, 'iid', pl.iid, 'projectId', pl.project_id, 'sha', pl.sha, 'ref', pl.ref,
                            'status', pl.status, 'source', pl.source, 'userId', pl.user_id,
                            'createdAt', pl.created_at, 'updatedAt', pl.updated_at)
     FROM ci_pipelines pl WHERE pl.id = b."pipelineId") AS "pipeline",
  (SELECT ${PROJECT_INFO_JSON} FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id WHERE p.id = b."projectId") AS "project",
  (SELECT json_build_object('id', c.id, 'projectId', c.project_id, 'sha', c.sha, 'parentShas', c.parent_shas,
                            'authorName', c.author_name, 'authorEmail', c.author_email, 'authoredDate', c.authored_date,
                            'authoredTzOffset', c.authored_tz_offset, 'committerName', c.committer_name,
                            'committerEmail', c.committer_email, 'committedDate', c.committed_date,
                            'committedTzOffset', c.committed_tz_offset, 'title', c.title, 'message', c.message,
                            'trailers', c.trailers, 'extendedTrailers', c.extended_trailers)
     FROM ci_pipelines pl JOIN commits c ON c.project_id = pl.project_id AND c.sha = pl.sha
    WHERE pl.id = b."pipelineId") AS "commit"`;

const orderSql = (q: RunnerJobsQuery) => (jobsDirection(q) === 'ASC' ? sql`ASC` : sql`DESC`);

export const JOB_COUNT_LIMIT = 10_000;

const cappedCount = (q: RunnerJobsQuery) => sql`SELECT count(*)::int FROM (SELECT 1 FROM ci_builds b WHERE ${where(q)} LIMIT ${JOB_COUNT_LIMIT + 1}) x`;

/** JSON carries timestamps as ISO strings: back to Dates. */
function hydrate(row: JobRow & { total?: number }): JobRow {
  delete row.total;
  if (row.user) row.user.createdAt = new Date(row.user.createdAt);
  if (row.pipeline) {
    row.pipeline.createdAt = new Date(row.pipeline.createdAt);
    row.pipeline.updatedAt = new Date(row.pipeline.updatedAt);
  }
  if (row.project) hydrateProjectInfo(row.project);
  if (row.commit) {
    row.commit.authoredDate = new Date(row.commit.authoredDate);
    row.commit.committedDate = new Date(row.commit.committedDate);
  }
  return row;
}

async function selectJobs(q: RunnerJobsQuery, offset: number, limit: number, withCount: boolean): Promise<(JobRow & { total?: number })[]> {
  return queryRows<JobRow & { total?: number }>(sql`
    SELECT b.*, ${JOB_RELATION_COLUMNS} ${withCount ? sql`, (${cappedCount(q)}) AS "total"` : empty}
      FROM (SELECT ${JOB_COLUMNS} FROM ci_builds b WHERE ${where(q)} ORDER BY b.id ${orderSql(q)} LIMIT ${limit} OFFSET ${offset}) b
     ORDER BY b.id ${orderSql(q)}`);
}

/** A page of jobs with their relations. */
export async function listRunnerJobs(q: RunnerJobsQuery, offset: number, limit: number): Promise<JobRow[]> {
  return (await selectJobs(q, offset, limit, false)).map(hydrate);
}

export async function countRunnerJobs(q: RunnerJobsQuery): Promise<number> {
  const rows = await queryRows<{ n: number }>(sql`SELECT (${cappedCount(q)}) AS n`);
  return rows[0]?.n ?? 0;
}

/**
 * A page of jobs with their relations and, when `withCount`, the capped count of all matches, in one
 * statement (the count is an uncorrelated subquery, evaluated once). An empty page past the first
 * runs the count on its own.
 */
export async function listRunnerJobsPage(q: RunnerJobsQuery, offset: number, limit: number, withCount: boolean): Promise<{ jobs: JobRow[]; total?: number }> {
  const rows = await selectJobs(q, offset, limit, withCount);
  const total = !withCount ? undefined : rows.length ? rows[0].total : offset === 0 ? 0 : await countRunnerJobs(q);
  return { jobs: rows.map(hydrate), total };
}

export interface JobRelations {
  users: Map<number, JobUser>;
  pipelines: Map<number, Pipeline>;
  projects: Map<number, RunnerProjectInfo>;
  /** Keyed by `${projectId}:${sha}`. */
  commits: Map<string, Commit>;
}

/** JobRelations of rows that carry them (listRunnerJobs, listRunnerJobsPage). */
export function jobRelationsOf(rows: JobRow[]): JobRelations {
  const rel: JobRelations = { users: new Map(), pipelines: new Map(), projects: new Map(), commits: new Map() };
  for (const j of rows) {
    if (j.user) rel.users.set(j.user.id, j.user);
    if (j.pipeline) rel.pipelines.set(j.pipeline.id, j.pipeline);
    if (j.project) rel.projects.set(j.project.id, j.project);
    if (j.commit) rel.commits.set(`${j.commit.projectId}:${j.commit.sha}`, j.commit);
  }
  return rel;
}
