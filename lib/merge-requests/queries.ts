// Reads of merge requests. A page's authors, assignees, reviewers, mergers and branch tips come from one query each.
import { db } from '../db/client';
import type { MergeRequest, User, MergeRequestState } from '../db/generated/client';
import { empty, join, raw, sql, type Sql } from '../db/sql';
import { AccessLevel, authorizedProjectIdsSql } from '../namespaces/access';

export type MrRow = MergeRequest & { assigneeIds: number[]; reviewerIds: number[] };

type WithPeople = MergeRequest & { assignees: { userId: number }[]; reviewers: { userId: number }[] };

const withAssigneeIds = ({ assignees, reviewers, ...mr }: WithPeople): MrRow => ({
  ...mr,
  assigneeIds: assignees.map((a) => a.userId),
  reviewerIds: reviewers.map((r) => r.userId),
});

// Assignees and reviewers in the order they were added, as GitLab lists them.
const PEOPLE = {
  assignees: { select: { userId: true }, orderBy: { id: 'asc' } },
  reviewers: { select: { userId: true }, orderBy: { id: 'asc' } },
} as const;

export interface MrPageData {
  users: Map<number, User>;
  /** branch name -> tip sha, for the page's source and target branches */
  tips: Map<string, string>;
}

/** The MR with this iid in the project, or null (a non-numeric or out-of-range iid finds nothing). */
export async function findMergeRequestByIid(projectId: number, iid: string | number): Promise<MrRow | null> {
  const s = String(iid).trim();
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n > 2147483647) return null;
  const mr = await db().mergeRequest.findUnique({
    where: { projectId_iid: { projectId, iid: n } },
    include: PEOPLE,
  });
  return mr ? withAssigneeIds(mr) : null;
}

export interface MrListFilters {
  state?: MergeRequestState | 'all';
  sourceBranch?: string;
  targetBranch?: string;
  iids?: number[];
  /** GitLab's `search`: title or description contains it (case-insensitive). */
  search?: string;
  authorId?: number;
  authorUsername?: string;
  /** One of the MR's assignees, by username (case-insensitive, as the author). */
  assigneeUsername?: string;
  /** One of the MR's reviewers, by username. */
  reviewerUsername?: string;
  orderBy: 'created_at' | 'updated_at' | 'title';
  sort: 'asc' | 'desc';
}

const byUsername = (username: string) => ({ some: { user: { username: { equals: username, mode: 'insensitive' as const } } } });

function where(projectId: number, f: MrListFilters) {
  return {
    projectId,
    ...(f.state && f.state !== 'all' ? { state: f.state } : {}),
    ...(f.sourceBranch ? { sourceBranch: f.sourceBranch } : {}),
    ...(f.targetBranch ? { targetBranch: f.targetBranch } : {}),
    ...(f.iids?.length ? { iid: { in: f.iids } } : {}),
    ...(f.search
      ? { OR: [{ title: { contains: f.search, mode: 'insensitive' as const } }, { description: { contains: f.search, mode: 'insensitive' as const } }] }
      : {}),
    ...(f.authorId !== undefined ? { authorId: f.authorId } : {}),
    ...(f.authorUsername ? { author: { username: { equals: f.authorUsername, mode: 'insensitive' as const } } } : {}),
    ...(f.assigneeUsername ? { assignees: byUsername(f.assigneeUsername) } : {}),
    ...(f.reviewerUsername ? { reviewers: byUsername(f.reviewerUsername) } : {}),
  };
}

export async function listMergeRequests(projectId: number, f: MrListFilters, offset: number, limit: number): Promise<MrRow[]> {
  const key = f.orderBy === 'updated_at' ? 'updatedAt' : f.orderBy === 'title' ? 'title' : 'createdAt';
  const rows = await db().mergeRequest.findMany({
    where: where(projectId, f),
    orderBy: [{ [key]: f.sort }, { id: f.sort }],
    skip: offset,
    take: limit,
    include: PEOPLE,
  });
  return rows.map(withAssigneeIds);
}

export function countMergeRequests(projectId: number, f: MrListFilters): Promise<number> {
  return db().mergeRequest.count({ where: where(projectId, f) });
}

/** Users and branch tips a page of one project's MRs refers to: two queries whatever the page size. */
export async function loadMrPageData(projectId: number, mrs: MrRow[]): Promise<MrPageData> {
  return (await loadMrPageDataByProject(mrs)).get(projectId) ?? { users: new Map(), tips: new Map() };
}

// ------------------------------------------------------------------ GET /merge_requests (across projects)

export interface UserMrFilters {
  /** null: anonymous (scope=all only). */
  viewer: { id: number; admin: boolean } | null;
  scope: 'created_by_me' | 'assigned_to_me' | 'all';
  state: MergeRequestState | 'all';
  orderBy: 'created_at' | 'updated_at' | 'title';
  sort: 'asc' | 'desc';
}

/** MRs in projects whose merge requests the viewer may read (read_code: public, internal signed in, Reporter+). */
function userMrConditions(f: UserMrFilters): Sql[] {
  const v = f.viewer;
  const conds: Sql[] = [];
  if (!v) conds.push(sql`p.visibility = 'public'`);
  else if (!v.admin) conds.push(sql`(p.visibility IN ('public', 'internal') OR p.id IN (${authorizedProjectIdsSql(v.id, AccessLevel.REPORTER)}))`);
  if (v && f.scope === 'created_by_me') conds.push(sql`mr.author_id = ${v.id}`);
  if (v && f.scope === 'assigned_to_me') conds.push(sql`mr.id IN (SELECT a.merge_request_id FROM merge_request_assignees a WHERE a.user_id = ${v.id})`);
  if (f.state !== 'all') conds.push(sql`mr.state = ${f.state}::"MergeRequestState"`);
  return conds;
}

const mrWhere = (conds: Sql[]) => (conds.length ? sql`WHERE ${join(conds, ' AND ')}` : empty);

export async function listUserMergeRequests(f: UserMrFilters, offset: number, limit: number): Promise<MrRow[]> {
  const column = raw(`mr.${f.orderBy}`);
  const dir = raw(f.sort === 'asc' ? 'ASC' : 'DESC');
  const rows = await db().$queryRaw<{ id: number }[]>(sql`
    SELECT mr.id FROM merge_requests mr JOIN projects p ON p.id = mr.target_project_id ${mrWhere(userMrConditions(f))}
     ORDER BY ${column} ${dir}, mr.id ${dir} OFFSET ${offset} LIMIT ${limit}`);
  const ids = rows.map((r) => r.id);
  const found = await db().mergeRequest.findMany({
    where: { id: { in: ids } },
    include: PEOPLE,
  });
  const byId = new Map(found.map((mr) => [mr.id, withAssigneeIds(mr)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export async function countUserMergeRequests(f: UserMrFilters): Promise<number> {
  const rows = await db().$queryRaw<{ n: number }[]>(sql`
    SELECT COUNT(*)::int AS n FROM merge_requests mr JOIN projects p ON p.id = mr.target_project_id ${mrWhere(userMrConditions(f))}`);
  return rows[0]?.n ?? 0;
}

/** loadMrPageData for MRs of many projects: still two queries, then one MrPageData per project. */
export async function loadMrPageDataByProject(mrs: MrRow[]): Promise<Map<number, MrPageData>> {
  const userIds = new Set<number>();
  const projectIds = new Set<number>();
  const names = new Set<string>();
  for (const mr of mrs) {
    for (const id of [mr.authorId, mr.mergedById, mr.closedById, ...mr.assigneeIds, ...mr.reviewerIds]) if (id) userIds.add(id);
    projectIds.add(mr.projectId);
    names.add(mr.sourceBranch);
    names.add(mr.targetBranch);
  }
  const [users, branches] = await Promise.all([
    userIds.size ? db().user.findMany({ where: { id: { in: [...userIds] } } }) : Promise.resolve([] as User[]),
    projectIds.size
      ? db().branch.findMany({
          where: { projectId: { in: [...projectIds] }, name: { in: [...names] } },
          select: { projectId: true, name: true, commitSha: true },
        })
      : Promise.resolve([]),
  ]);
  const userMap = new Map(users.map((u) => [u.id, u]));
  const out = new Map<number, MrPageData>();
  for (const id of projectIds) out.set(id, { users: userMap, tips: new Map() });
  for (const b of branches) out.get(b.projectId)?.tips.set(b.name, b.commitSha);
  return out;
}
