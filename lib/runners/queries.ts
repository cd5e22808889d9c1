// Runner reads. Filters become SQL on `ci_runners r` (index-backed: type/id, active/id, contacted_at, the
// tag and manager indexes); lists are ordered by id ascending like GitLab's offset pagination; the
// relations of a page (creators, running jobs, tags, managers, projects, groups) load in a fixed number
// of queries whatever the page size.
import { db, type Prisma } from '../db/client';
import type { RunnerType, User } from '../db/generated/client';
import { empty, join, sql, type Sql } from '../db/sql';
import { authorizedGroupIdsSql, authorizedProjectIdsSql, AccessLevel } from '../namespaces/access';
import { statusCondition, type StatusFilter } from './status';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
/** GitLab's AVAILABLE_SCOPES: legacy types, types, then statuses including the deprecated ones. */
export const RUNNER_SCOPES = ['specific', 'shared', ...RUNNER_TYPES, 'active', 'paused', 'online', 'offline', 'never_contacted', 'stale'] as const;
export type RunnerScope = (typeof RUNNER_SCOPES)[number];

export interface RunnerRow {
  id: number;
  runnerType: RunnerType;
  description: string | null;
  name: string | null;
  active: boolean;
  runUntagged: boolean;
  locked: boolean;
  accessLevel: 'not_protected' | 'ref_protected';
  maximumTimeout: number | null;
  maintenanceNote: string | null;
  contactedAt: Date | null;
  creatorId: number | null;
  groupId: number | null;
  ownerProjectId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = sql`r.id, r.runner_type::text AS "runnerType", r.description, r.name, r.active,
  r.run_untagged AS "runUntagged", r.locked, r.access_level::text AS "accessLevel",
  r.maximum_timeout AS "maximumTimeout", r.maintenance_note AS "maintenanceNote",
  r.contacted_at AS "contactedAt", r.creator_id AS "creatorId", r.group_id AS "groupId",
  r.owner_project_id AS "ownerProjectId", r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;

export async function findRunner(id: number, client: Client = db()): Promise<RunnerRow | null> {
  const rows = await client.$queryRaw<RunnerRow[]>(sql`SELECT ${COLUMNS} FROM ci_runners r WHERE r.id = ${id}`);
  return rows[0] ?? null;
}

/** Locks the runner row for the rest of the transaction (serialises link changes of one runner). */
export async function lockRunner(id: number, tx: Prisma.TransactionClient): Promise<RunnerRow | null> {
  const rows = await tx.$queryRaw<RunnerRow[]>(sql`SELECT ${COLUMNS} FROM ci_runners r WHERE r.id = ${id} FOR UPDATE`);
  return rows[0] ?? null;
}

// ------------------------------------------------------------------ which runners a list starts from

export type RunnerSet =
  | { kind: 'all' }
  /** GET /runners: project runners of Maintainer+ projects, group runners of Owner groups (and descendants). */
  | { kind: 'owned'; userId: number }
  /** GET /projects/:id/runners: Ci::Runner.owned_or_instance_wide(project). */
  | { kind: 'project'; projectId: number; traversalIds: number[]; groupRunnersEnabled: boolean; sharedRunnersEnabled: boolean }
  /** GET /groups/:id/runners: group runners of the group and its ancestors, plus instance runners if enabled. */
  | { kind: 'group'; traversalIds: number[]; sharedRunnersEnabled: boolean };

function setCondition(set: RunnerSet): Sql {
  switch (set.kind) {
    case 'all':
      return sql`TRUE`;
    case 'owned':
      return sql`(r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp
                  WHERE rp.project_id IN (${authorizedProjectIdsSql(set.userId, AccessLevel.MAINTAINER)}))
               OR (r.runner_type = 'group_type' AND r.group_id IN (${authorizedGroupIdsSql(set.userId, AccessLevel.OWNER)})))`;
    case 'project': {
      const parts = [sql`r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp WHERE rp.project_id = ${set.projectId})`];
      if (set.groupRunnersEnabled && set.traversalIds.length) {
        parts.push(sql`(r.runner_type = 'group_type' AND r.group_id = ANY(${set.traversalIds}::int[]))`);
      }
      if (set.sharedRunnersEnabled) parts.push(sql`r.runner_type = 'instance_type'`);
      return sql`(${join(parts, ' OR ')})`;
    }
    case 'group': {
      const parts = [sql`(r.runner_type = 'group_type' AND r.group_id = ANY(${set.traversalIds}::int[]))`];
      if (set.sharedRunnersEnabled) parts.push(sql`r.runner_type = 'instance_type'`);
      return sql`(${join(parts, ' OR ')})`;
    }
  }
}

// ------------------------------------------------------------------ filters

export interface RunnerFilters {
  scope?: RunnerScope;
  type?: RunnerType;
  status?: StatusFilter;
  paused?: boolean;
  tagList?: string[];
  versionPrefix?: string;
}

function scopeCondition(scope: RunnerScope): Sql {
  if (scope === 'shared') return sql`r.runner_type = 'instance_type'`;
  if (scope === 'specific') return sql`r.runner_type IN ('group_type', 'project_type')`;
  if ((RUNNER_TYPES as readonly string[]).includes(scope)) return sql`r.runner_type = ${scope}::"RunnerType"`;
  return statusCondition(scope as StatusFilter);
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** RunnerManager.with_version_prefix: any manager's version starts with the (normalised) prefix. */
function versionCondition(prefix: string): Sql {
  let match: Sql;
  if (/^\d+\.\d+\.\d+$/.test(prefix)) {
    // A full major.minor.patch must equal the version's own major.minor.patch.
    match = sql`m.version ~ ${`^${prefix.replace(/\./g, '\\.')}([^0-9]|$)`}`;
  } else if (/^\d+\.\d+\.?$/.test(prefix) || /^\d+$/.test(prefix)) {
    const dotted = prefix.endsWith('.') ? prefix : `${prefix}.`;
    match = sql`m.version LIKE ${`${likeEscape(dotted)}%`}`;
  } else {
    match = sql`m.version LIKE ${`${likeEscape(prefix)}%`}`;
  }
  return sql`EXISTS (SELECT 1 FROM ci_runner_machines m WHERE m.runner_id = r.id AND ${match})`;
}

/** Every requested tag must be on the runner (AND), matched by exact name. */
function tagCondition(tag: string): Sql {
  return sql`EXISTS (SELECT 1 FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id
                      WHERE rt.runner_id = r.id AND t.name = ${tag})`;
}

/** The WHERE clause of a list, filters applied in GitLab's order: scope, type, status, paused, version, tags. */
export function whereClause(set: RunnerSet, f: RunnerFilters): Sql {
  const conds: Sql[] = [setCondition(set)];
  if (f.scope) conds.push(scopeCondition(f.scope));
  if (f.type) conds.push(sql`r.runner_type = ${f.type}::"RunnerType"`);
  if (f.status) conds.push(statusCondition(f.status));
  if (f.paused !== undefined) conds.push(sql`r.active = ${!f.paused}`);
  if (f.versionPrefix) conds.push(versionCondition(f.versionPrefix));
  for (const tag of [...new Set((f.tagList ?? []).filter((t) => t !== ''))]) conds.push(tagCondition(tag));
  return join(conds, ' AND ');
}

export async function listRunners(set: RunnerSet, f: RunnerFilters, offset: number, limit: number): Promise<RunnerRow[]> {
  return db().$queryRaw<RunnerRow[]>(sql`
    SELECT ${COLUMNS} FROM ci_runners r WHERE ${whereClause(set, f)} ORDER BY r.id ASC LIMIT ${limit} OFFSET ${offset}`);
}

/** Kaminari stops counting past 10,000: X-Total is then left out (the caller paginates without count). */
export const COUNT_LIMIT = 10_000;

/** The number of matching runners, counting at most COUNT_LIMIT + 1 rows. */
export async function countRunners(set: RunnerSet, f: RunnerFilters): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>(sql`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM ci_runners r WHERE ${whereClause(set, f)} LIMIT ${COUNT_LIMIT + 1}) x`);
  return rows[0]?.n ?? 0;
}

// ------------------------------------------------------------------ relations of a page

export interface SummaryRelations {
  creators: Map<number, User>;
  /** Runners with at least one running job (job_execution_status "active"). */
  executing: Set<number>;
}

export async function loadSummaryRelations(rows: RunnerRow[]): Promise<SummaryRelations> {
  const ids = rows.map((r) => r.id);
  const creatorIds = [...new Set(rows.map((r) => r.creatorId).filter((x): x is number => x !== null))];
  const [creators, running] = await Promise.all([
    creatorIds.length ? db().user.findMany({ where: { id: { in: creatorIds } } }) : Promise.resolve([] as User[]),
    ids.length
      ? db().$queryRaw<{ runner_id: number }[]>(sql`
          SELECT r.id AS runner_id FROM unnest(${ids}::int[]) AS r(id)
           WHERE EXISTS (SELECT 1 FROM ci_builds b WHERE b.runner_id = r.id AND b.status = 'running')`)
      : Promise.resolve([]),
  ]);
  return { creators: new Map(creators.map((u) => [u.id, u])), executing: new Set(running.map((x) => x.runner_id)) };
}

export interface ManagerInfo {
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
}

export interface ProjectRef {
  id: number;
}

export interface DetailRelations extends SummaryRelations {
  tags: string[];
  latestManager: ManagerInfo | null;
  projectIds: number[];
  groupIds: number[];
}

/**
 * What RunnerDetails needs beyond the summary. `visibleToUserId` limits projects and groups to the
 * user's memberships (null: an admin sees all).
 */
export async function loadDetailRelations(row: RunnerRow, visibleToUserId: number | null): Promise<DetailRelations> {
  const projectFilter = visibleToUserId === null ? empty : sql`AND rp.project_id IN (${authorizedProjectIdsSql(visibleToUserId, AccessLevel.GUEST)})`;
  const groupFilter = visibleToUserId === null ? empty : sql`AND r.group_id IN (${authorizedGroupIdsSql(visibleToUserId, AccessLevel.GUEST)})`;
  const [summary, tags, managers, projects, groups] = await Promise.all([
    loadSummaryRelations([row]),
    db().$queryRaw<{ name: string }[]>(sql`
      SELECT t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id WHERE rt.runner_id = ${row.id} ORDER BY rt.id`),
    db().$queryRaw<ManagerInfo[]>(sql`
      SELECT version, revision, platform, architecture FROM ci_runner_machines
       WHERE runner_id = ${row.id} ORDER BY contacted_at DESC NULLS LAST, id DESC LIMIT 1`),
    db().$queryRaw<{ project_id: number }[]>(sql`
      SELECT rp.project_id FROM ci_runner_projects rp WHERE rp.runner_id = ${row.id} ${projectFilter} ORDER BY rp.id`),
    row.groupId
      ? db().$queryRaw<{ id: number }[]>(sql`SELECT r.group_id AS id FROM ci_runners r WHERE r.id = ${row.id} ${groupFilter}`)
      : Promise.resolve([]),
  ]);
  return {
    ...summary,
    tags: tags.map((t) => t.name),
    latestManager: managers[0] ?? null,
    projectIds: projects.map((p) => p.project_id),
    groupIds: groups.map((g) => g.id),
  };
}

export async function runnerManagers(runnerId: number) {
  const managers = await db().runnerManager.findMany({ where: { runnerId }, orderBy: { id: 'asc' } });
  const ids = managers.map((m) => m.id);
  const running = ids.length
    ? await db().$queryRaw<{ id: number }[]>(sql`
        SELECT m.id FROM unnest(${ids}::int[]) AS m(id)
         WHERE EXISTS (SELECT 1 FROM ci_builds b WHERE b.runner_manager_id = m.id AND b.status = 'running')`)
    : [];
  const executing = new Set(running.map((x) => x.id));
  return managers.map((m) => ({ manager: m, executing: executing.has(m.id) }));
}

/** Runner projects the user can see (ProjectsFinder: public, internal, or member; all for admins). */
function visibleRunnerProjects(runnerId: number, visibleToUserId: number | null): Sql {
  const filter = visibleToUserId === null
    ? empty
    : sql`AND (p.visibility IN ('public', 'internal') OR p.id IN (${authorizedProjectIdsSql(visibleToUserId, AccessLevel.GUEST)}))`;
  return sql`FROM ci_runner_projects rp JOIN projects p ON p.id = rp.project_id WHERE rp.runner_id = ${runnerId} ${filter}`;
}

/** A page of GET /runners/:id/projects, ProjectsFinder's default order (id descending). */
export async function listRunnerProjectIds(runnerId: number, visibleToUserId: number | null, offset: number, limit: number): Promise<number[]> {
  const rows = await db().$queryRaw<{ id: number }[]>(sql`
    SELECT p.id ${visibleRunnerProjects(runnerId, visibleToUserId)} ORDER BY p.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => r.id);
}

export async function countRunnerProjects(runnerId: number, visibleToUserId: number | null): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n ${visibleRunnerProjects(runnerId, visibleToUserId)}`);
  return rows[0]?.n ?? 0;
}
