// Reads of merge requests. A page's authors, assignees, mergers and branch tips come from one query each.
import { db } from '../db/client';
import type { MergeRequest, User, MergeRequestState } from '../db/generated/client';

export type MrRow = MergeRequest & { assigneeIds: number[] };

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
    include: { assignees: { select: { userId: true }, orderBy: { id: 'asc' } } },
  });
  if (!mr) return null;
  const { assignees, ...rest } = mr;
  return { ...rest, assigneeIds: assignees.map((a) => a.userId) };
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
  orderBy: 'created_at' | 'updated_at' | 'title';
  sort: 'asc' | 'desc';
}

function where(projectId: number, f: MrListFilters) {
  return {
    projectId,
    ...(f.state && f.state !== 'all' ? { state: f.state } : {}),
    ...(f.sourceBranch ? { sourceBranch: f.sourceBranch } : {}),
    ...(f.targetBranch ? { targetBranch: f.targetBranch } : {}),
    ...(f.iids?.length ? { iid: { in: f.iids } } : {}),
    ...(f.search ? { OR: [{ title: { contains: f.search, mode: 'insensitive' as const } }, { description: { contains: f.search, mode: 'insensitive' as const } }] } : {}),
    ...(f.authorId !== undefined ? { authorId: f.authorId } : {}),
    ...(f.authorUsername ? { author: { username: { equals: f.authorUsername, mode: 'insensitive' as const } } } : {}),
  };
}

export async function listMergeRequests(projectId: number, f: MrListFilters, offset: number, limit: number): Promise<MrRow[]> {
  const key = f.orderBy === 'updated_at' ? 'updatedAt' : f.orderBy === 'title' ? 'title' : 'createdAt';
  const rows = await db().mergeRequest.findMany({
    where: where(projectId, f),
    orderBy: [{ [key]: f.sort }, { id: f.sort }],
    skip: offset,
    take: limit,
    include: { assignees: { select: { userId: true }, orderBy: { id: 'asc' } } },
  });
  return rows.map(({ assignees, ...rest }) => ({ ...rest, assigneeIds: assignees.map((a) => a.userId) }));
}

export function countMergeRequests(projectId: number, f: MrListFilters): Promise<number> {
  return db().mergeRequest.count({ where: where(projectId, f) });
}

/** Users and branch tips a page of MRs refers to: two queries whatever the page size. */
export async function loadMrPageData(projectId: number, mrs: MrRow[]): Promise<MrPageData> {
  const userIds = new Set<number>();
  const branches = new Set<string>();
  for (const mr of mrs) {
    for (const id of [mr.authorId, mr.mergedById, mr.closedById, ...mr.assigneeIds]) if (id) userIds.add(id);
    branches.add(mr.sourceBranch);
    branches.add(mr.targetBranch);
  }
  const [users, tips] = await Promise.all([
    userIds.size ? db().user.findMany({ where: { id: { in: [...userIds] } } }) : Promise.resolve([] as User[]),
    branches.size ? db().branch.findMany({ where: { projectId, name: { in: [...branches] } }, select: { name: true, commitSha: true } }) : Promise.resolve([]),
  ]);
  return { users: new Map(users.map((u) => [u.id, u])), tips: new Map(tips.map((b) => [b.name, b.commitSha])) };
}
