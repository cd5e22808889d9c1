// Runner reads. Filters become SQL on `ci_runners r` (index-backed: type/id, active/id, contacted_at, the
// tag and manager indexes); lists are ordered by id ascending like GitLab's offset pagination; the
// relations of a page (creators, running jobs, tags, managers, projects, groups) load in a fixed number
// of queries whatever the page size.
import { db, type Prisma } from '../db/client';
import { queryRows } from '../db/query';
import type { RunnerType, User } from '../db/generated/client';
import { containsPattern, empty, join, likeEscape, raw, sql, type Sql } from '../db/sql';
import { authorizedGroupIdsSql, authorizedProjectIdsSql, AccessLevel } from '../namespaces/access';
import { hydrateProjectInfo, NAMESPACE_FULL_NAME, PROJECT_INFO_JSON, type RunnerProjectInfo } from '../namespaces/project-info';
import { RUNNER_TYPES } from '../settings/runner-constants';
import { staleSince, statusCondition, type StatusFilter } from './status';
import { parseVersion, type UpgradeStatus } from './upgrade-status';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

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

export const RUNNER_COLUMNS = sql`r.id, r.runner_type::text AS "runnerType", r.description, r.name, r.active,
  r.run_untagged AS "runUntagged", r.locked, r.access_level::text AS "accessLevel",
  r.maximum_timeout AS "maximumTimeout", r.maintenance_note AS "maintenanceNote",
  r.contacted_at AS "contactedAt", r.creator_id AS "creatorId", r.group_id AS "groupId",
  r.owner_project_id AS "ownerProjectId", r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;

export async function findRunner(id: number, client: Client = db()): Promise<RunnerRow | null> {
  const rows = await client.$queryRaw<RunnerRow[]>(sql`SELECT ${RUNNER_COLUMNS} FROM ci_runners r WHERE r.id = ${id}`);
  return rows[0] ?? null;
}

/** Locks the runner row for the rest of the transaction (serialises link changes of one runner). */
export async function lockRunner(id: number, tx: Prisma.TransactionClient): Promise<RunnerRow | null> {
  const rows = await tx.$queryRaw<RunnerRow[]>(sql`SELECT ${RUNNER_COLUMNS} FROM ci_runners r WHERE r.id = ${id} FOR UPDATE`);
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
  | { kind: 'group'; traversalIds: number[]; sharedRunnersEnabled: boolean }
  /**
   * Runway's GET /projects/:id/runners/assignable: GitLab's `ci_owned_runners.assignable_for(project)`, the
   * unlocked project runners of the user's Maintainer+ projects (every project for admins, userId null)
   * that are not in the project yet.
   */
  | { kind: 'assignable'; projectId: number; userId: number | null }
  /**
   * GET /groups/:id/runners?membership= (a Runway extension, GitLab's GraphQL `membership`): `direct` the
   * group's own runners; `descendants` also its subgroups' runners and project runners of its projects;
   * `all_available` those plus the ancestors' group runners and instance runners (if enabled).
   */
  | { kind: 'group_membership'; groupId: number; traversalIds: number[]; sharedRunnersEnabled: boolean; membership: GroupMembership };

export const GROUP_MEMBERSHIPS = ['direct', 'descendants', 'all_available'] as const;
export type GroupMembership = (typeof GROUP_MEMBERSHIPS)[number];

/** The instance runners part of a set: a large share of the fleet, walked in order on (runner_type, id). */
const INSTANCE_RUNNERS = sql`r.runner_type = 'instance_type'`;

/**
 * The set as disjoint conditions (each part holds runners of one type, so no runner is in two), whose OR is
 * the set. A list counts and pages each part through its own index (the project's links, the group ids,
 * runner_type) and merges them, so a set whose parts are small costs what they hold, not the fleet: an OR of
 * them would make PostgreSQL walk every runner to count a set of a few.
 */
export function setParts(set: RunnerSet): Sql[] {
  switch (set.kind) {
    case 'all':
      return [sql`TRUE`];
    case 'owned':
      // Only project runners have project links (ci_runner_projects), so the two parts are disjoint.
      return [
        linkedRunners(sql`SELECT rp.runner_id FROM ci_runner_projects rp
                  WHERE rp.project_id IN (${authorizedProjectIdsSql(set.userId, AccessLevel.MAINTAINER)})`),
        // The group ids as an array first, for the same reason as linkedRunners.
        sql`(r.runner_type = 'group_type' AND r.group_id = ANY(ARRAY(${authorizedGroupIdsSql(set.userId, AccessLevel.OWNER)})))`,
      ];
    case 'project': {
      const parts = [linkedRunners(sql`SELECT rp.runner_id FROM ci_runner_projects rp WHERE rp.project_id = ${set.projectId}`)];
      if (set.groupRunnersEnabled && set.traversalIds.length) {
        parts.push(sql`(r.runner_type = 'group_type' AND r.group_id = ANY(${set.traversalIds}::int[]))`);
      }
      if (set.sharedRunnersEnabled) parts.push(INSTANCE_RUNNERS);
      return parts;
    }
    case 'assignable': {
      const owned =
        set.userId === null
          ? sql`TRUE`
          : sql`r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp
                        WHERE rp.project_id IN (${authorizedProjectIdsSql(set.userId, AccessLevel.MAINTAINER)}))`;
      return [
        sql`(r.runner_type = 'project_type' AND NOT r.locked AND ${owned}
                  AND NOT EXISTS (SELECT 1 FROM ci_runner_projects here WHERE here.runner_id = r.id AND here.project_id = ${set.projectId}))`,
      ];
    }
    case 'group': {
      const parts = [sql`(r.runner_type = 'group_type' AND r.group_id = ANY(${set.traversalIds}::int[]))`];
      if (set.sharedRunnersEnabled) parts.push(INSTANCE_RUNNERS);
      return parts;
    }
    case 'group_membership': {
      if (set.membership === 'direct') return [sql`(r.runner_type = 'group_type' AND r.group_id = ${set.groupId})`];
      const subtree = sql`SELECT ns.id FROM namespaces ns WHERE ${set.groupId} = ANY(ns.traversal_ids)`;
      const groups =
        set.membership === 'all_available'
          ? sql`(r.runner_type = 'group_type' AND r.group_id = ANY(ARRAY(${subtree} UNION SELECT unnest(${set.traversalIds}::int[]))))`
          : sql`(r.runner_type = 'group_type' AND r.group_id = ANY(ARRAY(${subtree})))`;
      const parts = [
        groups,
        linkedRunners(sql`SELECT rp.runner_id FROM ci_runner_projects rp
              JOIN projects p ON p.id = rp.project_id WHERE p.namespace_id IN (${subtree})`),
      ];
      if (set.membership === 'all_available' && set.sharedRunnersEnabled) parts.push(INSTANCE_RUNNERS);
      return parts;
    }
  }
}

/**
 * Project runners linked through `links` (a statement of runner ids). The ids are read first, as an array
 * that the primary key is probed with in id order: an IN would let the planner walk every link of the
 * fleet in runner order when it misjudges how few projects the caller has.
 */
function linkedRunners(links: Sql): Sql {
  return sql`(r.runner_type = 'project_type' AND r.id = ANY(ARRAY(${links})))`;
}

function setCondition(set: RunnerSet): Sql {
  const parts = setParts(set);
  return parts.length === 1 ? parts[0] : sql`(${join(parts, ' OR ')})`;
}

// ------------------------------------------------------------------ filters

export interface RunnerFilters {
  scope?: RunnerScope;
  type?: RunnerType;
  status?: StatusFilter;
  paused?: boolean;
  tagList?: string[];
  versionPrefix?: string;
  /** Runway extension `upgrade_status` (GitLab's GraphQL `upgradeStatus`): a manager's version has this status. */
  upgradeStatus?: UpgradeStatus;
  /** Runway extension: part of the description, case-insensitive (GitLab's finder `search`). */
  search?: string;
  /** Runway extension `creator_username`: runners created by this user (GitLab's GraphQL `creatorUsername`). */
  creatorUsername?: string;
  /** Runway extension `owner_group_id`: group runners whose owner is this group (not its subgroups). */
  ownerGroupId?: number;
  /** Runway extension `owner_project_id`: project runners whose owner project is this one. */
  ownerProjectId?: number;
  /** The stale-cleanup rule: not contacted (or, never contacted, created) for at least this many days. */
  staleDays?: number;
  /** Keyset cursors (GitLab's `id_after` / `id_before`): ids strictly above / below. */
  idAfter?: number;
  idBefore?: number;
}

/** Runway extension `order_by`/`sort`; GitLab's REST lists order by id ascending only. */
export const RUNNER_ORDERS = ['id', 'created_at', 'contacted_at'] as const;
export interface RunnerOrder {
  by: (typeof RUNNER_ORDERS)[number];
  dir: 'asc' | 'desc';
}
const DEFAULT_ORDER: RunnerOrder = { by: 'id', dir: 'asc' };

/** ORDER BY for a list; never-contacted runners last either way, id breaks ties so pages are stable. */
function orderClause(o: RunnerOrder): Sql {
  const dir = raw(o.dir === 'desc' ? 'DESC' : 'ASC');
  if (o.by === 'id') return sql`r.id ${dir}`;
  const column = raw(o.by === 'created_at' ? 'r.created_at' : 'r.contacted_at');
  return sql`${column} ${dir} NULLS LAST, r.id ${dir}`;
}

function scopeCondition(scope: RunnerScope): Sql {
  if (scope === 'shared') return sql`r.runner_type = 'instance_type'`;
  if (scope === 'specific') return sql`r.runner_type IN ('group_type', 'project_type')`;
  if ((RUNNER_TYPES as readonly string[]).includes(scope)) return sql`r.runner_type = ${scope}::"RunnerType"`;
  return statusCondition(scope as StatusFilter);
}

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

/**
 * GitLab's Ci::Runner.with_upgrade_status: a manager of the runner reports a version of this status
 * (ci_runner_versions, by its status index, joined on ci_runner_machines (version, runner_id)), so a runner
 * whose managers differ is found under each of their statuses, as in GitLab; its own status is the most
 * urgent (runnerUpgradeStatusSql).
 */
function upgradeStatusCondition(status: UpgradeStatus): Sql {
  return sql`EXISTS (SELECT 1 FROM ci_runner_machines m JOIN ci_runner_versions v ON v.version = m.version
                      WHERE m.runner_id = r.id AND v.status = ${status}::"RunnerUpgradeStatus")`;
}

/**
 * A runner's upgrade status (GitLab's CiRunner.upgradeStatus, Ci::RunnerManager.aggregate_upgrade_status_by_runner_id):
 * the most urgent status of its managers' versions (the enum's order: invalid < not_available < available
 * < recommended), versions not processed yet left out; null when none has one.
 */
export const runnerUpgradeStatusSql = (alias: string) => sql`(SELECT max(v.status)::text FROM ci_runner_machines m
    JOIN ci_runner_versions v ON v.version = m.version WHERE m.runner_id = ${raw(`${alias}.id`)})`;

/**
 * Every requested tag must be on the runner (AND), matched by exact name: the runner's tag id array
 * (kept by triggers from its taggings, GIN-indexed) contains every requested tag's id. A name no tag
 * carries gives a NULL element, and an array with a NULL is contained in none, so nothing matches.
 */
function tagsCondition(tags: string[]): Sql {
  const ids = tags.map((name) => sql`(SELECT id FROM tags WHERE name = ${name})`);
  return sql`r.tag_ids @> ARRAY[${join(ids, ', ')}]::int[]`;
}

const requestedTags = (f: RunnerFilters) => [...new Set((f.tagList ?? []).filter((t) => t !== ''))];

/** True when the filters hold tags and nothing else. */
function onlyTags(f: RunnerFilters): boolean {
  const { tagList: _tags, ...others } = f;
  return Object.values(others).every((v) => v === undefined);
}

/** The WHERE clause of a list, filters applied in GitLab's order: scope, type, status, paused, version, tags. */
export function whereClause(set: RunnerSet, f: RunnerFilters): Sql {
  return join([setCondition(set), filterCondition(f)], ' AND ');
}

/** The filters alone (TRUE when there are none). */
function filterCondition(f: RunnerFilters): Sql {
  const conds: Sql[] = [sql`TRUE`];
  if (f.scope) conds.push(scopeCondition(f.scope));
  if (f.type) conds.push(sql`r.runner_type = ${f.type}::"RunnerType"`);
  if (f.status) conds.push(statusCondition(f.status));
  if (f.paused !== undefined) conds.push(sql`r.active = ${!f.paused}`);
  if (f.versionPrefix) conds.push(versionCondition(f.versionPrefix));
  if (f.upgradeStatus) conds.push(upgradeStatusCondition(f.upgradeStatus));
  const tags = requestedTags(f);
  if (tags.length) conds.push(tagsCondition(tags));
  if (f.search) conds.push(sql`r.description ILIKE ${containsPattern(f.search)}`);
  // The user by the lower(username) index, then the runners by ci_runners_creator_id_idx; no such user
  // gives NULL, which equals no creator_id.
  if (f.creatorUsername !== undefined) conds.push(sql`r.creator_id = (SELECT u.id FROM users u WHERE lower(u.username) = lower(${f.creatorUsername}) LIMIT 1)`);
  if (f.ownerGroupId !== undefined) conds.push(sql`(r.runner_type = 'group_type' AND r.group_id = ${f.ownerGroupId})`);
  if (f.ownerProjectId !== undefined) conds.push(ownerProjectCondition(f.ownerProjectId));
  if (f.staleDays !== undefined) conds.push(staleForDaysCondition(f.staleDays));
  if (f.idAfter !== undefined) conds.push(sql`r.id > ${f.idAfter}`);
  if (f.idBefore !== undefined) conds.push(sql`r.id < ${f.idBefore}`);
  return conds.length === 1 ? conds[0] : join(conds.slice(1), ' AND ');
}

/**
 * The owner project is `owner_project_id` (index ci_runners.owner_project_id) or, once that project was
 * deleted, the earliest remaining link (index ci_runner_projects (project_id, runner_id)), as
 * policy.ownerProjectId decides it.
 */
function ownerProjectCondition(projectId: number): Sql {
  return sql`(r.runner_type = 'project_type' AND (r.owner_project_id = ${projectId}
    OR (r.owner_project_id IS NULL AND r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp WHERE rp.project_id = ${projectId})
        AND ${projectId} = (SELECT first.project_id FROM ci_runner_projects first WHERE first.runner_id = r.id ORDER BY first.id LIMIT 1))))`;
}

/** GitLab's `stale` with N days for its 7: created N days ago and not contacted since (the stale-since index). */
export function staleForDaysCondition(days: number): Sql {
  return sql`${staleSince('r')} <= now() - make_interval(days => ${days}::int)`;
}

/** The creator columns userBasic shows (a runner's `created_by`). */
export type CreatorRow = Pick<User, 'id' | 'username' | 'name' | 'publicEmail' | 'state'>;

/** A runner with what the Runner entity needs beyond its row, loaded by the same statement. */
export interface RunnerSummaryRow extends RunnerRow {
  creator: CreatorRow | null;
  /** At least one running job (job_execution_status "active"). */
  executing: boolean;
}

// The creator and the running-job probe as correlated subqueries of `ci_runners r`: a page and its
// relations come back in one statement (one round trip, one query for Prisma to build).
const SUMMARY_COLUMNS = sql`
  (SELECT json_build_object('id', u.id, 'username', u.username, 'name', u.name, 'publicEmail', u.public_email,
                            'state', u.state::text)
     FROM users u WHERE u.id = r.creator_id) AS "creator",
  EXISTS (SELECT 1 FROM ci_builds b WHERE b.runner_id = r.id AND b.status = 'running') AS "executing"`;

/** Kaminari stops counting past 10,000: X-Total is then left out (the caller paginates without count). */
export const COUNT_LIMIT = 10_000;

const cappedCount = (where: Sql) => sql`SELECT count(*)::int FROM (SELECT FROM ci_runners r WHERE ${where} LIMIT ${COUNT_LIMIT + 1}) x`;

/** The capped count of a set and filters: each disjoint part counted through its own index, then added. */
function cappedSetCount(set: RunnerSet, f: RunnerFilters): Sql {
  const filters = filterCondition(f);
  const parts = setParts(set);
  if (parts.length === 1) return cappedCount(sql`${parts[0]} AND ${filters}`);
  return sql`SELECT least(${COUNT_LIMIT + 1}, ${join(
    parts.map((part) => sql`(${cappedCount(sql`${part} AND ${filters}`)})`),
    ' + ',
  )})`;
}

/**
 * One page of runners with their summary relations and the capped count of all matches, in one
 * statement, whose cost follows the page and the capped count rather than the fleet. With a selective
 * filter whose own index finds its matches cheaply but not in the list's order (collectMatchesFirst: tags,
 * by the GIN index on tag_ids; status=online, by the (contacted_at, id) index):
 *
 * - `matches` collects at most COUNT_LIMIT + 1 matching runners in whatever order is cheapest (a bitmap
 *   of the GIN index, combined with the other filters' indexes; the online range of (contacted_at, id),
 *   index-only), carrying only what the order needs. Its size is the capped count (GitLab's Kaminari
 *   count with limit), so it reads what the capped count alone would read.
 * - When that is all of them (count <= COUNT_LIMIT), the page is ordered and cut among those few ids and
 *   only its rows are read. A plan that walks the primary key in id order until the page fills would
 *   read the whole table for a rare tag.
 * - When there are more, the matches are at least COUNT_LIMIT of the fleet, so walking the order's
 *   index and filtering fills the page soon: that branch runs instead (a one-time filter skips the other).
 *
 * The page is cut in a LIMIT subquery before the relation subqueries run, so they run per row of the
 * page only. An empty page past the first carries no count row, so the count then runs on its own.
 */
export async function listRunnersPage(
  set: RunnerSet,
  f: RunnerFilters,
  offset: number,
  limit: number,
  order: RunnerOrder = DEFAULT_ORDER,
  counted = true,
): Promise<{ rows: RunnerSummaryRow[]; total: number | null }> {
  const rows = await queryRows<RunnerSummaryRow & { total: number | null }>(runnerPageSql(set, f, offset, limit, order, counted));
  if (rows.length) return { rows, total: counted ? rows[0].total : null };
  return { rows, total: !counted ? null : offset === 0 ? 0 : await countRunners(set, f) };
}

/**
 * Whether a list collects its matches first (listRunnersPage's `matches`) rather than walking the order's
 * index: when a filter is selective and its own index hands over the matches cheaply, so that a walk in the
 * list's order would discard most of the rows it reads before the page fills. Decided by measurements on the
 * bench databases (docs/performance.md, "status=online: the page cut among its matches"):
 *
 * - Tags: the GIN index on tag_ids, whose matches come unordered (a tag may be on a few runners of a
 *   million: the walk would read the whole table).
 * - status=online (and GitLab's deprecated scope=online) on the whole fleet, ordered by id or by
 *   contacted_at descending: the runners that contacted within two hours, a small share of a fleet (about
 *   420 of 100,000 in the bench), are one range of the (contacted_at, id) index, read index-only: at most
 *   COUNT_LIMIT + 1 entries, the very ones the capped count reads anyway. The walk of the primary key
 *   discarded about 200 offline runners per online one (4,127 rows for a page of 20 at 100,000 runners:
 *   1.0 ms of execution, 0.29 ms with the matches), and contacted_at descending (NULLS LAST, which a
 *   backward walk of the index does not give) read every online runner's row to sort them (510 buffers
 *   against 168). The other cases keep the walk: contacted_at ascending walks the online range in the
 *   list's order and stops at the page; the created_at order needs every match's row from the heap either
 *   way (the matches form only added a second read of the page, 0.3 ms); a set's list (a group's, a
 *   project's) ANDs each part's index with the online range as bitmaps (64 buffers, where the matches
 *   checked the set on the heap rows of every online runner: 431).
 * - Not status=never_contacted, though its matches are one range of the same index: a fifth of the bench
 *   fleets, so at 100,000 runners the statement read 10,001 entries, passed the cap and walked anyway
 *   (3.4 ms against 1.4 ms), and at 1,000 the page cut among its 200 matches cost 0.5 ms against 0.2 ms
 *   for a walk that fills the page after 100 rows. offline, stale, paused and type match large shares too:
 *   the walk fills the page soon.
 */
function collectMatchesFirst(set: RunnerSet, f: RunnerFilters, order: RunnerOrder): boolean {
  if (requestedTags(f).length) return true;
  const online = f.status === 'online' || f.scope === 'online';
  return online && set.kind === 'all' && (order.by === 'id' || (order.by === 'contacted_at' && order.dir === 'desc'));
}

/** The statement of listRunnersPage (bench/runner-list-plans.ts shows its plans). */
export function runnerPageSql(set: RunnerSet, f: RunnerFilters, offset: number, limit: number, order: RunnerOrder = DEFAULT_ORDER, counted = true): Sql {
  const where = whereClause(set, f);
  const orderBy = orderClause(order);
  // Keyset pages count nothing (their cost follows the page alone).
  const setCount = counted ? cappedSetCount(set, f) : sql`NULL::int`;
  if (!collectMatchesFirst(set, f, order)) {
    // Without a selective filter every filter has an index (type/id, active/id, (contacted_at, id), the
    // stale expression, the manager versions, the description trigrams, the set's keys) and matches a share
    // of the fleet large enough that the page fills after a short walk: the capped count runs on those
    // indexes and the page walks the order's index, both bounded by the cap and the page, so the plain
    // form is cheaper than collecting the matches first.
    const parts = setParts(set);
    if (parts.length === 1) {
      return sql`
        SELECT ${RUNNER_COLUMNS}, ${SUMMARY_COLUMNS}, (${setCount}) AS "total"
          FROM (SELECT r.* FROM ci_runners r WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}) r
         ORDER BY ${orderBy}`;
    }
    // Several parts: each part's first offset + limit rows in the order, merged, then cut (GitLab's
    // "order and cut before joining"), so a small part is read through its own index.
    const filters = filterCondition(f);
    // The other parts (a group's runners, a project's, the caller's) are found through their own keys and
    // then sorted: OFFSET 0 keeps PostgreSQL from walking the whole fleet in id order to find a few, which
    // it would when it cannot tell how few the array of ids holds.
    const firstRows = parts.map((part) =>
      part === INSTANCE_RUNNERS
        ? sql`(SELECT r.* FROM ci_runners r WHERE ${part} AND ${filters} ORDER BY ${orderBy} LIMIT ${offset + limit})`
        : sql`(SELECT r.* FROM (SELECT r.* FROM ci_runners r WHERE ${part} AND ${filters} OFFSET 0) r ORDER BY ${orderBy} LIMIT ${offset + limit})`,
    );
    return sql`
      SELECT ${RUNNER_COLUMNS}, ${SUMMARY_COLUMNS}, (${setCount}) AS "total"
        FROM (SELECT r.* FROM (${join(firstRows, ' UNION ALL ')}) r ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}) r
       ORDER BY ${orderBy}`;
  }
  const tags = requestedTags(f);
  if (set.kind === 'all' && order.by === 'id' && tags.length === 1 && onlyTags(f)) {
    // One tag and nothing else, the dashboard's commonest tag filter: its taggings, in runner id order on
    // the (tag_id, runner_id) index, are the page and the capped count, both index-only.
    const tagged = sql`SELECT rt.runner_id FROM ci_runner_taggings rt WHERE rt.tag_id = (SELECT id FROM tags WHERE name = ${tags[0]})`;
    return sql`
      SELECT ${RUNNER_COLUMNS}, ${SUMMARY_COLUMNS},
             ${counted ? sql`(SELECT count(*)::int FROM (${tagged} LIMIT ${COUNT_LIMIT + 1}) x)` : sql`NULL::int`} AS "total"
        FROM (${tagged} ORDER BY rt.runner_id ${raw(order.dir === 'desc' ? 'DESC' : 'ASC')} LIMIT ${limit} OFFSET ${offset}) page
        JOIN ci_runners r ON r.id = page.runner_id
       ORDER BY ${orderBy}`;
  }
  // The matches of the selective filter (collectMatchesFirst), the other filters and the set checked on them.
  // A set with instance runners holds a large share of the fleet: its condition is checked on the
  // matches rather than intersected as a bitmap (the instance runners' bitmap alone is 100,000 entries at
  // 1,000,000 runners). The text comparison keeps PostgreSQL from indexing that arm.
  const matchesWhere = join(
    [
      join(
        setParts(set).map((part) => (part === INSTANCE_RUNNERS ? sql`r.runner_type::text = 'instance_type'` : part)),
        ' OR ',
      ),
      filterCondition(f),
    ].map((c) => sql`(${c})`),
    ' AND ',
  );
  // Only the columns the order needs, so the matches can come from an index alone (index-only scans: the
  // online range of (contacted_at, id) for the id and contacted_at orders).
  const carried = order.by === 'id' ? sql`r.id` : order.by === 'created_at' ? sql`r.id, r.created_at` : sql`r.id, r.contacted_at`;
  return sql`
    WITH matches AS MATERIALIZED (
           SELECT ${carried} FROM ci_runners r WHERE ${matchesWhere} LIMIT ${COUNT_LIMIT + 1}),
         counted AS (SELECT count(*)::int AS total FROM matches)
    SELECT ${RUNNER_COLUMNS}, ${SUMMARY_COLUMNS}, counted.total AS "total"
      FROM (
        (SELECT r.* FROM (SELECT r.id FROM matches r ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}) page
           JOIN ci_runners r ON r.id = page.id
          WHERE (SELECT total FROM counted) <= ${COUNT_LIMIT})
        UNION ALL
        (SELECT r.* FROM ci_runners r WHERE ${where} AND (SELECT total FROM counted) > ${COUNT_LIMIT}
          ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset})
      ) r, counted
     ORDER BY ${orderBy}`;
}

/** The number of matching runners, counting at most COUNT_LIMIT + 1 rows. */
export async function countRunners(set: RunnerSet, f: RunnerFilters): Promise<number> {
  const rows = await queryRows<{ n: number }>(sql`SELECT (${cappedSetCount(set, f)}) AS n`);
  return rows[0]?.n ?? 0;
}

// ------------------------------------------------------------------ relations of a page

export interface SummaryRelations {
  creators: Map<number, CreatorRow>;
  /** Runners with at least one running job (job_execution_status "active"). */
  executing: Set<number>;
}

/** SummaryRelations from rows that carry them (listRunnersPage, findRunnerDetails). */
export function summaryRelationsOf(rows: RunnerSummaryRow[]): SummaryRelations {
  const creators = new Map<number, CreatorRow>();
  const executing = new Set<number>();
  for (const r of rows) {
    if (r.creator) creators.set(r.creator.id, r.creator);
    if (r.executing) executing.add(r.id);
  }
  return { creators, executing };
}

/** SummaryRelations of runners loaded without them (one statement). */
export async function loadSummaryRelations(rows: RunnerRow[]): Promise<SummaryRelations> {
  if (!rows.length) return { creators: new Map(), executing: new Set() };
  const loaded = await db().$queryRaw<RunnerSummaryRow[]>(sql`
    SELECT r.id, ${SUMMARY_COLUMNS} FROM ci_runners r WHERE r.id = ANY(${rows.map((x) => x.id)}::int[])`);
  return summaryRelationsOf(loaded);
}

export interface ManagerInfo {
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
}

/** What BasicProjectDetails reads of a project and its namespace (see namespaces/entity.ts). */
/** What BasicGroupDetails reads of a group. */
export interface RunnerGroupInfo {
  id: number;
  name: string;
  fullPath: string;
  kind: 'group';
}

export interface RunnerDetailsRow extends RunnerSummaryRow {
  tags: string[];
  latestManager: ManagerInfo | null;
  upgradeStatus: UpgradeStatus | null;
  projects: RunnerProjectInfo[];
  group: RunnerGroupInfo | null;
}

/**
 * A runner with everything RunnerDetails shows, in one statement: creator, running flag, tags (in
 * tagging order), the latest-contacted manager, assigned projects (assignment order, with namespaces)
 * and the owner group. `visibleToUserId` limits projects and groups to the user's memberships (null:
 * an admin sees all).
 */
export async function findRunnerDetails(id: number, visibleToUserId: number | null): Promise<RunnerDetailsRow | null> {
  const projectFilter = visibleToUserId === null ? empty : sql`AND rp.project_id IN (${authorizedProjectIdsSql(visibleToUserId, AccessLevel.GUEST)})`;
  const groupVisible =
    visibleToUserId === null ? sql`r.group_id IS NOT NULL` : sql`r.group_id IN (${authorizedGroupIdsSql(visibleToUserId, AccessLevel.GUEST)})`;
  const rows = await queryRows<RunnerDetailsRow>(sql`
    SELECT ${RUNNER_COLUMNS}, ${SUMMARY_COLUMNS},
      ARRAY(SELECT t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id
             WHERE rt.runner_id = r.id ORDER BY rt.id) AS "tags",
      (SELECT json_build_object('version', m.version, 'revision', m.revision, 'platform', m.platform, 'architecture', m.architecture)
         FROM ci_runner_machines m WHERE m.runner_id = r.id
        ORDER BY m.contacted_at DESC NULLS LAST, m.id DESC LIMIT 1) AS "latestManager",
      ${runnerUpgradeStatusSql('r')} AS "upgradeStatus",
      COALESCE((SELECT json_agg(${PROJECT_INFO_JSON} ORDER BY rp.id)
                  FROM ci_runner_projects rp JOIN projects p ON p.id = rp.project_id JOIN namespaces ns ON ns.id = p.namespace_id
                 WHERE rp.runner_id = r.id ${projectFilter}), '[]'::json) AS "projects",
      CASE WHEN ${groupVisible} THEN
        (SELECT json_build_object('id', g.id, 'name', g.name, 'fullPath', g.full_path, 'kind', g.kind::text)
           FROM namespaces g WHERE g.id = r.group_id) END AS "group"
      FROM ci_runners r WHERE r.id = ${id}`);
  const row = rows[0];
  if (!row) return null;
  row.projects.forEach(hydrateProjectInfo);
  return row;
}

/** The statuses of these versions (ci_runner_versions); a version not processed yet is absent. */
export async function versionStatuses(versions: string[]): Promise<Map<string, UpgradeStatus>> {
  if (!versions.length) return new Map();
  const rows = await queryRows<{ version: string; status: UpgradeStatus }>(sql`
    SELECT version, status::text AS status FROM ci_runner_versions WHERE version = ANY(${versions}::text[]) AND status IS NOT NULL`);
  return new Map(rows.map((r) => [r.version, r.status]));
}

/**
 * A manager's upgrade status (GitLab's CiRunnerManager.upgradeStatus): its version's, or `invalid` for a
 * version that cannot parse, a missing one included (GitLab checks a manager's version as it is); null
 * while a valid version is not processed yet.
 */
export function managerUpgradeStatus(version: string | null, statuses: Map<string, UpgradeStatus>): UpgradeStatus | null {
  if (version !== null && statuses.has(version)) return statuses.get(version)!;
  return parseVersion(version) === null ? 'invalid' : null;
}

/** A runner's managers, each with whether it runs a job and its version's upgrade status (three statements in all). */
export async function runnerManagers(runnerId: number) {
  const managers = await db().runnerManager.findMany({ where: { runnerId }, orderBy: { id: 'asc' } });
  const ids = managers.map((m) => m.id);
  const [running, statuses] = await Promise.all([
    ids.length
      ? db().$queryRaw<{ id: number }[]>(sql`
          SELECT m.id FROM unnest(${ids}::int[]) AS m(id)
           WHERE EXISTS (SELECT 1 FROM ci_builds b WHERE b.runner_manager_id = m.id AND b.status = 'running')`)
      : [],
    versionStatuses([...new Set(managers.map((m) => m.version).filter((v): v is string => v !== null))]),
  ]);
  const executing = new Set(running.map((x) => x.id));
  return managers.map((m) => ({ manager: m, executing: executing.has(m.id), upgradeStatus: managerUpgradeStatus(m.version, statuses) }));
}

/** Runner projects the user can see (ProjectsFinder: public, internal, or member; all for admins). */
function visibleRunnerProjects(runnerId: number, visibleToUserId: number | null, search?: string | null): Sql {
  const filter =
    visibleToUserId === null
      ? empty
      : sql`AND (p.visibility IN ('public', 'internal') OR p.id IN (${authorizedProjectIdsSql(visibleToUserId, AccessLevel.GUEST)}))`;
  // The runner page's project search (a Runway extension): name or full path, as GitLab's runner page searches.
  const matching = search ? sql`AND (p.name ILIKE ${containsPattern(search)} OR p.full_path ILIKE ${containsPattern(search)})` : empty;
  return sql`FROM ci_runner_projects rp JOIN projects p ON p.id = rp.project_id WHERE rp.runner_id = ${runnerId} ${filter} ${matching}`;
}

/** A page of GET /runners/:id/projects, ProjectsFinder's default order (id descending). */
export async function listRunnerProjectIds(
  runnerId: number,
  visibleToUserId: number | null,
  offset: number,
  limit: number,
  search?: string | null,
): Promise<number[]> {
  const rows = await db().$queryRaw<{ id: number }[]>(sql`
    SELECT p.id ${visibleRunnerProjects(runnerId, visibleToUserId, search)} ORDER BY p.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => r.id);
}

export async function countRunnerProjects(runnerId: number, visibleToUserId: number | null, search?: string | null): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>(sql`SELECT count(*)::int AS n ${visibleRunnerProjects(runnerId, visibleToUserId, search)}`);
  return rows[0]?.n ?? 0;
}

// ------------------------------------------------------------------ list details (Runway extension)

/** GitLab's RUNNER_JOB_COUNT_LIMIT: jobs are counted up to one more, which means "more than 1,000". */
export const JOB_COUNT_LIMIT = 1000;

/** What the list page shows beyond the Runner entity, and the facts the policy decides on. */
export interface RunnerListDetailsRow {
  id: number;
  tags: string[];
  locked: boolean;
  contactedAt: Date | null;
  jobCount: number;
  managersCount: number;
  /** The most recently contacted manager (as RunnerDetails' `version`). */
  manager: { version: string | null; ipAddress: string | null } | null;
  upgradeStatus: UpgradeStatus | null;
  ownerProject: { id: number; name: string; fullPath: string; nameWithNamespace: string } | null;
  ownerGroup: { id: number; name: string; fullPath: string } | null;
  facts: RunnerPolicyFacts | null;
}

/** A viewer's relation to a runner, everything policy.ts needs to decide its permissions without queries. */
export interface RunnerPolicyFacts {
  projectCount: number;
  ownerProjectId: number | null;
  groupOwner: boolean;
  groupMaintainer: boolean;
  ownerProjectMaintainer: boolean;
  maintainsAssignedProject: boolean;
  maintainsProjectUsingGroupRunners: boolean;
}

/**
 * The list details of a page of runners in one statement. `viewerUserId` null (an admin) skips the
 * membership facts: an admin may do everything.
 */
export async function loadRunnerListDetails(ids: number[], viewerUserId: number | null): Promise<Map<number, RunnerListDetailsRow>> {
  if (!ids.length) return new Map();
  const owner = sql`COALESCE(r.owner_project_id, (SELECT rp.project_id FROM ci_runner_projects rp WHERE rp.runner_id = r.id ORDER BY rp.id LIMIT 1))`;
  const facts =
    viewerUserId === null
      ? sql`NULL::json`
      : sql`json_build_object(
        'projectCount', (SELECT count(*)::int FROM ci_runner_projects rp WHERE rp.runner_id = r.id),
        'ownerProjectId', ${owner},
        'groupOwner', COALESCE(r.group_id IN (${authorizedGroupIdsSql(viewerUserId, AccessLevel.OWNER)}), false),
        'groupMaintainer', COALESCE(r.group_id IN (${authorizedGroupIdsSql(viewerUserId, AccessLevel.MAINTAINER)}), false),
        'ownerProjectMaintainer', COALESCE(${owner} IN (${authorizedProjectIdsSql(viewerUserId, AccessLevel.MAINTAINER)}), false),
        'maintainsAssignedProject', EXISTS (SELECT 1 FROM ci_runner_projects rp WHERE rp.runner_id = r.id
            AND rp.project_id IN (${authorizedProjectIdsSql(viewerUserId, AccessLevel.MAINTAINER)})),
        'maintainsProjectUsingGroupRunners', r.runner_type = 'group_type' AND EXISTS (
          SELECT 1 FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id
           WHERE r.group_id = ANY(ns.traversal_ids) AND p.group_runners_enabled
             AND p.id IN (${authorizedProjectIdsSql(viewerUserId, AccessLevel.MAINTAINER)})))`;
  const rows = await queryRows<RunnerListDetailsRow>(sql`
    SELECT r.id, r.locked, r.contacted_at AS "contactedAt",
      ARRAY(SELECT t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id WHERE rt.runner_id = r.id ORDER BY rt.id) AS "tags",
      (SELECT count(*)::int FROM (SELECT 1 FROM ci_builds b WHERE b.runner_id = r.id LIMIT ${JOB_COUNT_LIMIT + 1}) j) AS "jobCount",
      (SELECT count(*)::int FROM ci_runner_machines m WHERE m.runner_id = r.id) AS "managersCount",
      (SELECT json_build_object('version', m.version, 'ipAddress', m.ip_address) FROM ci_runner_machines m
        WHERE m.runner_id = r.id ORDER BY m.contacted_at DESC NULLS LAST, m.id DESC LIMIT 1) AS "manager",
      ${runnerUpgradeStatusSql('r')} AS "upgradeStatus",
      CASE WHEN r.runner_type = 'project_type' THEN
        (SELECT json_build_object('id', p.id, 'name', p.name, 'fullPath', p.full_path,
                                  'nameWithNamespace', ${NAMESPACE_FULL_NAME} || ' / ' || p.name)
           FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id WHERE p.id = ${owner}) END AS "ownerProject",
      (SELECT json_build_object('id', g.id, 'name', g.name, 'fullPath', g.full_path) FROM namespaces g
        WHERE g.id = r.group_id AND r.runner_type = 'group_type') AS "ownerGroup",
      ${facts} AS "facts"
      FROM ci_runners r WHERE r.id = ANY(${ids}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}
