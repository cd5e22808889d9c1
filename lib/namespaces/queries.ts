// Reads: group and project lists filtered in SQL (visibility, membership, search), one page at a time,
// with relations for the page batch-loaded so a page costs a fixed number of queries.
import type { Actor } from '../api/authenticate';
import { db, type Prisma } from '../db/client';
import type { User } from '../db/generated/client';
import { containsPattern, empty, join, raw, sql, type Sql } from '../db/sql';
import { AccessLevel, authorizedGroupIdsSql, authorizedProjectIdsSql } from './access';
import type { ProjectPermissions } from './entity';
import { loadGroupRecords, loadProjectRecords, type NamespaceRecord, type ProjectRecord } from './records';

export interface Page {
  offset: number;
  limit: number;
}

const where = (conds: Sql[]) => (conds.length ? sql`WHERE ${join(conds, ' AND ')}` : empty);
const NONE = sql`FALSE`;

// ------------------------------------------------------------------ full paths

type Client = Pick<Prisma.TransactionClient, '$queryRaw'>;

// GitLab matches routes case-insensitively but exactly: lower(col) = lower($1), never LIKE (whose `_`
// and `%` are wildcards), backed by the lower() indexes. A row whose case matches exactly comes first.

/** The project at `fullPath`, or null. */
export async function projectIdByFullPath(fullPath: string, client: Client = db()): Promise<number | null> {
  const rows = await client.$queryRaw<{ id: number }[]>`
    SELECT id FROM projects WHERE lower(full_path) = lower(${fullPath}) ORDER BY full_path = ${fullPath} DESC, id LIMIT 1`;
  return rows[0]?.id ?? null;
}

/** The group at `fullPath` (user namespaces are not groups), or null. */
export async function groupIdByFullPath(fullPath: string, client: Client = db()): Promise<number | null> {
  const rows = await client.$queryRaw<{ id: number }[]>`
    SELECT id FROM namespaces WHERE lower(full_path) = lower(${fullPath}) AND kind = 'group'
     ORDER BY full_path = ${fullPath} DESC, id LIMIT 1`;
  return rows[0]?.id ?? null;
}

/** Whether a group, user namespace or project holds `fullPath` (they share GitLab's routes table). */
export async function fullPathTaken(fullPath: string, client: Client = db()): Promise<boolean> {
  const rows = await client.$queryRaw<{ taken: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM namespaces WHERE lower(full_path) = lower(${fullPath}))
        OR EXISTS (SELECT 1 FROM projects WHERE lower(full_path) = lower(${fullPath})) AS taken`;
  return rows[0]?.taken ?? false;
}

/** Whether the namespace already has a project of this name, in any case. */
export async function projectNameTaken(namespaceId: number, name: string, client: Client = db()): Promise<boolean> {
  const rows = await client.$queryRaw<{ taken: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM projects WHERE namespace_id = ${namespaceId} AND lower(name) = lower(${name})) AS taken`;
  return rows[0]?.taken ?? false;
}

// ------------------------------------------------------------------ groups

export interface GroupFilters {
  search?: string;
  owned?: boolean;
  minAccessLevel?: number;
  topLevelOnly?: boolean;
  allAvailable?: boolean;
  skipGroups?: number[];
  visibility?: 'private' | 'internal' | 'public';
  /** Only the direct children of this group (GET /groups/:id/subgroups). */
  parentId?: number;
  /** Every descendant of this group, at any depth (GET /groups/:id/descendant_groups). */
  ancestorId?: number;
  orderBy?: 'name' | 'path' | 'id';
  sort?: 'asc' | 'desc';
}

/** Groups the actor may list, as GitLab's GroupsFinder chooses them (see GET /groups' all_available). */
function groupScope(actor: Actor | null, f: GroupFilters): Sql {
  const user = actor?.user;
  if (f.owned) {
    if (!user) return NONE;
    return sql`ns.id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${user.id} AND gm.access_level = ${AccessLevel.OWNER}
      AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE))`;
  }
  if (f.minAccessLevel !== undefined) return user ? sql`ns.id IN (${authorizedGroupIdsSql(user.id, f.minAccessLevel)})` : NONE;
  if (!user) return sql`ns.visibility = 'public'`;
  // all_available defaults to true for admins and false for everyone else; subgroup lists show all visible.
  const allAvailable = f.parentId !== undefined || f.ancestorId !== undefined ? true : (f.allAvailable ?? user.admin);
  if (user.admin && allAvailable) return sql`TRUE`;
  const member = sql`ns.id IN (${authorizedGroupIdsSql(user.id, AccessLevel.GUEST)})`;
  return allAvailable ? sql`(ns.visibility IN ('public', 'internal') OR ${member})` : member;
}

function groupConditions(actor: Actor | null, f: GroupFilters): Sql[] {
  const conds = [sql`ns.kind = 'group'`, groupScope(actor, f)];
  // GitLab's GroupsFinder searches the full route (include_parents) except within one parent.
  if (f.search) {
    const q = containsPattern(f.search);
    const withinParent = f.parentId !== undefined || f.ancestorId !== undefined;
    conds.push(!withinParent ? sql`(ns.name ILIKE ${q} OR ns.full_path ILIKE ${q})` : sql`(ns.name ILIKE ${q} OR ns.path ILIKE ${q})`);
  }
  if (f.topLevelOnly) conds.push(sql`ns.parent_id IS NULL`);
  if (f.parentId !== undefined) conds.push(sql`ns.parent_id = ${f.parentId}`);
  if (f.ancestorId !== undefined) conds.push(sql`ns.traversal_ids @> ARRAY[${f.ancestorId}]::int[] AND ns.id <> ${f.ancestorId}`);
  if (f.skipGroups?.length) conds.push(sql`NOT (ns.id = ANY(${f.skipGroups}::int[]))`);
  if (f.visibility) conds.push(sql`ns.visibility = ${f.visibility}::"Visibility"`);
  return conds;
}

export async function listGroups(actor: Actor | null, f: GroupFilters, page: Page): Promise<NamespaceRecord[]> {
  const column = raw(`ns.${f.orderBy ?? 'name'}`);
  const dir = raw((f.sort ?? 'asc') === 'desc' ? 'DESC' : 'ASC');
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT ns.id FROM namespaces ns ${where(groupConditions(actor, f))}
    ORDER BY ${column} ${dir}, ns.id ${dir} OFFSET ${page.offset} LIMIT ${page.limit}`;
  return loadGroupRecords(rows.map((r) => r.id));
}

export async function countGroups(actor: Actor | null, f: GroupFilters): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM namespaces ns ${where(groupConditions(actor, f))}`;
  return rows[0]?.n ?? 0;
}

// ------------------------------------------------------------------ projects

export interface ProjectFilters {
  membership?: boolean;
  owned?: boolean;
  search?: string;
  visibility?: 'private' | 'internal' | 'public';
  minAccessLevel?: number;
  /** Only projects directly in this namespace (group detail). */
  namespaceId?: number;
  /** Only projects in these groups (GET /groups/:id/projects): the group, its descendants, its ancestors. */
  inGroup?: { id: number; traversalIds: number[]; subgroups: boolean; ancestors: boolean; shared?: boolean };
  orderBy?: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
  sort?: 'asc' | 'desc';
}

function projectConditions(actor: Actor | null, f: ProjectFilters): Sql[] {
  const user = actor?.user;
  const conds: Sql[] = [];
  if (!user) conds.push(sql`p.visibility = 'public'`);
  else if (!user.admin) conds.push(sql`(p.visibility IN ('public', 'internal') OR p.id IN (${authorizedProjectIdsSql(user.id, AccessLevel.GUEST)}))`);
  if (f.membership) conds.push(user ? sql`p.id IN (${authorizedProjectIdsSql(user.id, AccessLevel.GUEST)})` : NONE);
  if (f.owned) {
    conds.push(
      user
        ? sql`p.namespace_id IN (SELECT own.id FROM namespaces own WHERE own.owner_id = ${user.id}
              UNION SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${user.id} AND gm.access_level = ${AccessLevel.OWNER}
                AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE))`
        : NONE,
    );
  }
  if (f.minAccessLevel !== undefined) conds.push(user ? sql`p.id IN (${authorizedProjectIdsSql(user.id, f.minAccessLevel)})` : NONE);
  if (f.search) {
    const q = containsPattern(f.search);
    conds.push(sql`(p.name ILIKE ${q} OR p.path ILIKE ${q} OR p.description ILIKE ${q})`);
  }
  if (f.visibility) conds.push(sql`p.visibility = ${f.visibility}::"Visibility"`);
  if (f.namespaceId !== undefined) conds.push(sql`p.namespace_id = ${f.namespaceId}`);
  if (f.inGroup) conds.push(inGroupCondition(f.inGroup));
  return conds;
}

export async function listProjects(actor: Actor | null, f: ProjectFilters, page: Page): Promise<ProjectRecord[]> {
  const column = raw(`p.${f.orderBy ?? 'created_at'}`);
  const dir = raw((f.sort ?? 'desc') === 'asc' ? 'ASC' : 'DESC');
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT p.id FROM projects p ${where(projectConditions(actor, f))}
    ORDER BY ${column} ${dir}, p.id ${dir} OFFSET ${page.offset} LIMIT ${page.limit}`;
  return loadProjectRecords(rows.map((r) => r.id));
}

export async function countProjects(actor: Actor | null, f: ProjectFilters): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM projects p ${where(projectConditions(actor, f))}`;
  return rows[0]?.n ?? 0;
}

/** The viewer's direct and group access for each project of a page (two queries). */
export async function projectPermissions(userId: number, projects: ProjectRecord[]): Promise<Map<number, ProjectPermissions>> {
  const out = new Map<number, ProjectPermissions>();
  if (!projects.length) return out;
  const ids = projects.map((p) => p.id);
  const groupNs = [...new Set(projects.filter((p) => p.namespace.kind === 'group').map((p) => p.namespaceId))];
  const [direct, groups] = await Promise.all([
    db().$queryRaw<{ project_id: number; level: number }[]>`
      SELECT pm.project_id, pm.access_level AS level FROM project_members pm
       WHERE pm.user_id = ${userId} AND pm.project_id = ANY(${ids}::int[])
         AND (pm.expires_at IS NULL OR pm.expires_at > CURRENT_DATE)`,
    groupNs.length
      ? db().$queryRaw<{ id: number; level: number }[]>`
          SELECT ns.id, MAX(gm.access_level)::int AS level FROM namespaces ns
            JOIN group_members gm ON gm.group_id = ANY(ns.traversal_ids)
           WHERE ns.id = ANY(${groupNs}::int[]) AND gm.user_id = ${userId}
             AND (gm.expires_at IS NULL OR gm.expires_at > CURRENT_DATE)
           GROUP BY ns.id`
      : Promise.resolve([]),
  ]);
  const directBy = new Map(direct.map((r) => [r.project_id, r.level]));
  const groupBy = new Map(groups.map((r) => [r.id, r.level]));
  for (const p of projects) out.set(p.id, { projectAccess: directBy.get(p.id) ?? null, groupAccess: groupBy.get(p.namespaceId) ?? null });
  return out;
}

/** Owners of the personal namespaces among `projects` (one query), for the `owner` field. */
export async function namespaceOwners(projects: ProjectRecord[]): Promise<Map<number, User>> {
  const ids = [...new Set(projects.map((p) => p.namespace.ownerId).filter((x): x is number => x !== null))];
  if (!ids.length) return new Map();
  const users = await db().user.findMany({ where: { id: { in: ids } } });
  return new Map(users.map((u) => [u.id, u]));
}

/** The namespaces of GET /groups/:id/projects; `traversal_ids @>` is what the GIN index serves. */
function inGroupCondition(g: NonNullable<ProjectFilters['inGroup']>): Sql {
  const own = g.subgroups
    ? sql`p.namespace_id IN (SELECT d.id FROM namespaces d WHERE d.traversal_ids @> ARRAY[${g.id}]::int[])`
    : sql`p.namespace_id = ${g.id}`;
  const withAncestors = g.ancestors ? sql`(${own} OR p.namespace_id = ANY(${g.traversalIds}::int[]))` : own;
  // with_shared: also the projects shared with the group.
  return g.shared ? sql`(${withAncestors} OR p.id IN (SELECT pgl.project_id FROM project_group_links pgl WHERE pgl.group_id = ${g.id}))` : withAncestors;
}

// ------------------------------------------------------------------ a project's groups

export interface ProjectGroupFilters {
  /** The project's namespace ancestry (root first); empty for a personal project. */
  traversalIds: number[];
  search?: string;
  skipGroups?: number[];
  /** with_shared: also the groups the project is shared with (at shared_min_access_level or more). */
  sharedWith?: { projectId: number; minAccessLevel: number };
}

/** GET /projects/:id/groups: the project's group and its ancestors, and with_shared its invited groups; newest id first. */
function projectGroupConditions(f: ProjectGroupFilters): Sql[] {
  const own = sql`ns.id = ANY(${f.traversalIds}::int[])`;
  const shared = f.sharedWith
    ? sql`(${own} OR ns.id IN (SELECT pgl.group_id FROM project_group_links pgl WHERE pgl.project_id = ${f.sharedWith.projectId}
          AND pgl.group_access >= ${f.sharedWith.minAccessLevel} AND (pgl.expires_at IS NULL OR pgl.expires_at > CURRENT_DATE)))`
    : own;
  const conds = [sql`ns.kind = 'group'`, shared];
  if (f.search) {
    const q = containsPattern(f.search);
    conds.push(sql`(ns.name ILIKE ${q} OR ns.path ILIKE ${q})`);
  }
  if (f.skipGroups?.length) conds.push(sql`NOT (ns.id = ANY(${f.skipGroups}::int[]))`);
  return conds;
}

export async function listProjectGroups(f: ProjectGroupFilters, page: Page): Promise<NamespaceRecord[]> {
  if (!f.traversalIds.length && !f.sharedWith) return [];
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT ns.id FROM namespaces ns ${where(projectGroupConditions(f))} ORDER BY ns.id DESC OFFSET ${page.offset} LIMIT ${page.limit}`;
  return loadGroupRecords(rows.map((r) => r.id));
}

export async function countProjectGroups(f: ProjectGroupFilters): Promise<number> {
  if (!f.traversalIds.length && !f.sharedWith) return 0;
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT COUNT(*)::int AS n FROM namespaces ns ${where(projectGroupConditions(f))}`;
  return rows[0]?.n ?? 0;
}
