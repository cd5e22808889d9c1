// Adding and removing a merge request's context commits, in GitLab's order of checks
// (MergeRequests::AddContextService and the DELETE route): duplicates, then SHA validity, then one
// transaction. The unique index (merge_request_id, sha) settles races: the loser gets the duplicate 400.
import { db } from '../db/client';
import { apiError } from '../api/errors';
import { Prisma } from '../db/generated/client';
import { commitsByShas } from '../repositories/queries';
import type { CommitData } from '../repositories/entity';
import type { MrRow } from './queries';

export const CONTEXT_COMMITS_POST_LIMIT = 20;

export const tooManyContextCommits = () => apiError(400, `Context commits array size should not be more than ${CONTEXT_COMMITS_POST_LIMIT}`);
const invalidSha = () => apiError(400, "One or more context commits' sha is not valid.");

/** Ruby's Array#to_s: ["a", "b"] */
const rubyArray = (items: string[]) => `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;

/** Stored SHAs of this MR that start with any of the given ids (GitLab's prefix match). */
async function duplicates(mergeRequestId: number, ids: string[]): Promise<string[]> {
  const stored = await db().mergeRequestContextCommit.findMany({ where: { mergeRequestId }, select: { sha: true }, orderBy: { id: 'asc' } });
  const wanted = ids.map((s) => s.toLowerCase());
  return stored.map((r) => r.sha).filter((sha) => wanted.some((id) => sha.startsWith(id)));
}

const alreadyCreated = (shas: string[]) => apiError(400, `Context commits: ${rubyArray(shas)} are already created`);

/** Resolves every id to a commit of the project, or throws GitLab's invalid-sha 400. */
async function resolveAll(projectId: number, ids: string[]): Promise<CommitData[]> {
  const found = await commitsByShas(projectId, ids);
  // GitLab compares the number of commits found with the number of ids: two ids naming one commit
  // (a short and a full SHA, or a repeat) find fewer commits than ids.
  const distinct = new Set([...found.values()].map((c) => c.sha));
  if (found.size !== ids.length || distinct.size !== ids.length) throw invalidSha();
  return ids.map((id) => found.get(id.toLowerCase())!);
}

export async function addContextCommits(mr: MrRow, ids: string[]): Promise<CommitData[]> {
  const dup = await duplicates(mr.id, ids);
  if (dup.length) throw alreadyCreated(dup);
  const commits = await resolveAll(mr.projectId, ids);
  try {
    await db().mergeRequestContextCommit.createMany({
      data: commits.map((c, i) => ({
        mergeRequestId: mr.id,
        sha: c.sha,
        relativeOrder: i,
        authorName: c.authorName,
        authorEmail: c.authorEmail,
        authoredDate: c.authoredDate,
        committerName: c.committerName,
        committerEmail: c.committerEmail,
        committedDate: c.committedDate,
        message: c.message,
        trailers: c.trailers as Prisma.InputJsonValue,
      })),
    });
  } catch (err) {
    // A concurrent request added one of these first.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw alreadyCreated(
        await duplicates(
          mr.id,
          commits.map((c) => c.sha),
        ),
      );
    }
    throw err;
  }
  return commits;
}

export async function removeContextCommits(mr: MrRow, ids: string[]): Promise<void> {
  const commits = await resolveAll(mr.projectId, ids);
  await db().mergeRequestContextCommit.deleteMany({ where: { mergeRequestId: mr.id, sha: { in: commits.map((c) => c.sha) } } });
}

/**
 * The API's order: GitLab's route pages `merge_request.merge_request_context_commits` unordered, which its offset
 * pagination orders by id, i.e. insertion order. (Its model method `context_commits`, newest committed first,
 * is what GitLab's own page shows; our page sorts that way in the browser.)
 */
export async function contextCommitsPage(mergeRequestId: number, offset: number, limit: number) {
  return db().mergeRequestContextCommit.findMany({
    where: { mergeRequestId },
    orderBy: { id: 'asc' },
    skip: offset,
    take: limit,
  });
}

export function countContextCommits(mergeRequestId: number): Promise<number> {
  return db().mergeRequestContextCommit.count({ where: { mergeRequestId } });
}
