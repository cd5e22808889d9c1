// Creating merge requests. Checks follow MergeRequest#validate_branches and the build service:
// same branch -> 422, missing branch -> 422, an open MR for the same branches -> 409. The iid is
// allocated under a row lock on the project, so concurrent creates never share one.
import { db } from '../db/client';
import { apiError, validationError } from '../api/errors';
import type { ProjectRecord } from '../namespaces/records';
import { findMergeRequestByIid, type MrRow } from './queries';
import { sql } from '../db/sql';
import { AccessLevel, projectAccessLevel } from '../namespaces/access';

export interface CreateMrInput {
  title: string;
  sourceBranch: string;
  targetBranch: string;
  description?: string | null;
  /** assignee_ids (or assignee_id): filtered by eligibleParticipants. */
  assigneeIds?: number[];
  /** reviewer_ids: users asked to review; those who cannot read the MR are dropped like assignees. */
  reviewerIds?: number[];
  authorId: number;
}

const DRAFT = /^\s*(\[draft\]|\(draft\)|draft:|draft\s*-|\[wip\]|wip:)/i;

/**
 * Users who exist, are active and can read the project's merge requests. In a private project that takes
 * Reporter: the effective level, so access through a group shared into the project counts like a membership.
 */
async function readableUsers(project: ProjectRecord, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  if (!unique.length) return [];
  const users = await db().user.findMany({ where: { id: { in: unique }, state: 'active' }, select: { id: true, admin: true } });
  const readable = await Promise.all(
    users.map(async (u) => u.admin || project.visibility !== 'private' || (await projectAccessLevel(u.id, project.id)) >= AccessLevel.REPORTER),
  );
  const ok = new Set(users.filter((_, i) => readable[i]).map((u) => u.id));
  return unique.filter((id) => ok.has(id));
}

/**
 * The assignee or reviewer list a request asks for, filtered as GitLab's issuable services do for create and
 * update alike: undefined (not given) leaves the list alone; [] or [0] empties it; otherwise the users who may
 * read the MR, the others dropped silently. When none of the given ids qualifies the request is ignored
 * (undefined), so a typo in a script does not unassign everybody.
 */
export async function eligibleParticipants(project: ProjectRecord, ids: number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  if (!ids.length || (ids.length === 1 && ids[0] === 0)) return [];
  const readable = await readableUsers(project, ids);
  return readable.length ? readable : undefined;
}

export async function createMergeRequest(project: ProjectRecord, input: CreateMrInput): Promise<MrRow> {
  if (input.sourceBranch === input.targetBranch) throw apiError(422, ["You can't use same project/branch for source and target"] as never);
  const branches = await db().branch.findMany({
    where: { projectId: project.id, name: { in: [input.sourceBranch, input.targetBranch] } },
    select: { name: true, commitSha: true },
  });
  const tip = new Map(branches.map((b) => [b.name, b.commitSha]));
  const missing: string[] = [];
  if (!tip.has(input.sourceBranch)) missing.push(`Source branch "${input.sourceBranch}" does not exist`);
  if (!tip.has(input.targetBranch)) missing.push(`Target branch "${input.targetBranch}" does not exist`);
  if (missing.length) throw apiError(422, missing as never);
  const assigneeIds = (await eligibleParticipants(project, input.assigneeIds)) ?? [];
  const reviewerIds = (await eligibleParticipants(project, input.reviewerIds)) ?? [];

  const created = await db().$transaction(async (tx) => {
    // Serialises creates in this project: the open-MR check and the iid allocation are then race-free.
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`;
    const open = await tx.mergeRequest.findFirst({
      where: { projectId: project.id, sourceProjectId: project.id, sourceBranch: input.sourceBranch, targetBranch: input.targetBranch, state: 'opened' },
      select: { iid: true },
      orderBy: { id: 'asc' },
    });
    if (open) throw apiError(409, [`Another open merge request already exists for this source branch: !${open.iid}`] as never);
    const [{ next }] = await tx.$queryRaw<{ next: number }[]>(
      sql`SELECT COALESCE(MAX(iid), 0)::int + 1 AS next FROM merge_requests WHERE target_project_id = ${project.id}`,
    );
    const mr = await tx.mergeRequest.create({
      data: {
        iid: next,
        projectId: project.id,
        sourceProjectId: project.id,
        title: input.title,
        description: input.description ?? null,
        sourceBranch: input.sourceBranch,
        targetBranch: input.targetBranch,
        authorId: input.authorId,
        sha: tip.get(input.sourceBranch) ?? null,
        draft: DRAFT.test(input.title),
      },
    });
    if (assigneeIds.length) await tx.mergeRequestAssignee.createMany({ data: assigneeIds.map((userId) => ({ mergeRequestId: mr.id, userId })) });
    if (reviewerIds.length) await tx.mergeRequestReviewer.createMany({ data: reviewerIds.map((userId) => ({ mergeRequestId: mr.id, userId })) });
    await tx.project.update({ where: { id: project.id }, data: { lastActivityAt: new Date() } });
    return mr;
  });
  return (await findMergeRequestByIid(project.id, created.iid))!;
}

export interface MrChanges {
  title?: string;
  description?: string;
  targetBranch?: string;
  stateEvent?: 'close' | 'reopen';
  /** The new assignee / reviewer lists (undefined: unchanged); eligibleParticipants filters them here. */
  assigneeIds?: number[];
  reviewerIds?: number[];
}

/**
 * PUT /projects/:id/merge_requests/:iid (the caller checked update_merge_request). As GitLab's update
 * service: a state_event that does not apply (closing a merged MR) is ignored; branch problems are 422
 * (validate_branches), a blank title 400. Under the project row lock, like creation, so a reopen and a
 * create of the same branches cannot both leave an open MR.
 */
export async function updateMergeRequest(project: ProjectRecord, mr: MrRow, actorId: number, c: MrChanges): Promise<MrRow> {
  if (c.title !== undefined && !c.title.trim()) throw validationError({ title: ["can't be blank"] });
  const target = c.targetBranch ?? mr.targetBranch;
  const reopening = c.stateEvent === 'reopen' && mr.state === 'closed';
  const closing = c.stateEvent === 'close' && mr.state === 'opened';
  const assigneeIds = await eligibleParticipants(project, c.assigneeIds);
  const reviewerIds = await eligibleParticipants(project, c.reviewerIds);
  await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`;
    if (c.targetBranch !== undefined && c.targetBranch !== mr.targetBranch) {
      if (c.targetBranch === mr.sourceBranch) throw apiError(422, ["You can't use same project/branch for source and target"] as never);
      const exists = await tx.branch.findUnique({ where: { projectId_name: { projectId: project.id, name: c.targetBranch } }, select: { name: true } });
      if (!exists) throw apiError(422, [`Target branch "${c.targetBranch}" does not exist`] as never);
    }
    const willBeOpen = reopening || (mr.state === 'opened' && !closing);
    if (willBeOpen && (reopening || target !== mr.targetBranch)) {
      const open = await tx.mergeRequest.findFirst({
        where: {
          projectId: project.id,
          sourceProjectId: mr.sourceProjectId,
          sourceBranch: mr.sourceBranch,
          targetBranch: target,
          state: 'opened',
          NOT: { id: mr.id },
        },
        select: { iid: true },
        orderBy: { id: 'asc' },
      });
      if (open) throw apiError(422, [`Another open merge request already exists for this source branch: !${open.iid}`] as never);
    }
    await tx.mergeRequest.update({
      where: { id: mr.id },
      data: {
        title: c.title,
        description: c.description,
        targetBranch: c.targetBranch,
        draft: c.title !== undefined ? DRAFT.test(c.title) : undefined,
        ...(closing ? { state: 'closed' as const, closedAt: new Date(), closedById: actorId } : {}),
        ...(reopening ? { state: 'opened' as const, closedAt: null, closedById: null } : {}),
        // Changing people is a change of the MR (GitLab touches it), even when no column of its own changes.
        ...(assigneeIds || reviewerIds ? { updatedAt: new Date() } : {}),
      },
    });
    // The new lists replace the old: rows of those who stay are kept (the listed order, by row id, holds) and
    // skipDuplicates lets a concurrent update's rows for the same users stand.
    const rows = (ids: number[]) => ids.map((userId) => ({ mergeRequestId: mr.id, userId }));
    if (assigneeIds) {
      await tx.mergeRequestAssignee.deleteMany({ where: { mergeRequestId: mr.id, userId: { notIn: assigneeIds } } });
      if (assigneeIds.length) await tx.mergeRequestAssignee.createMany({ data: rows(assigneeIds), skipDuplicates: true });
    }
    if (reviewerIds) {
      await tx.mergeRequestReviewer.deleteMany({ where: { mergeRequestId: mr.id, userId: { notIn: reviewerIds } } });
      if (reviewerIds.length) await tx.mergeRequestReviewer.createMany({ data: rows(reviewerIds), skipDuplicates: true });
    }
  });
  return (await findMergeRequestByIid(project.id, mr.iid))!;
}

/** DELETE /projects/:id/merge_requests/:iid (the caller checked destroy_merge_request); context commits and assignees cascade. */
export async function deleteMergeRequest(mr: MrRow): Promise<void> {
  await db().mergeRequest.deleteMany({ where: { id: mr.id } });
}
