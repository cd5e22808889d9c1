// Stored branch membership: which commits the default branch reaches, written with each import so that
// listing or searching `git log <default branch>` is an index lookup instead of a walk of the history.
import type { Prisma } from '../db/generated/client';
import { runGit } from './git';

const BATCH = 10_000;

/** `git rev-list <tip>` in the mirror: every commit the tip reaches. */
export async function reachableShas(mirror: string, tip: string): Promise<string[]> {
  return (await runGit([`--git-dir=${mirror}`, 'rev-list', tip])).split('\n').filter(Boolean);
}

/**
 * Records `shas` (the reach of the branch's tip `tip`) in branch_commits and marks the branch with the tip
 * they cover, inside the import's transaction: a finished import is searchable through the index at once.
 * A branch whose membership_sha is not its tip has nothing stored; reads then walk the history.
 */
export async function storeMembership(tx: Prisma.TransactionClient, projectId: number, branchId: number, tip: string, shas: string[]): Promise<void> {
  await tx.branchCommit.deleteMany({ where: { branchId } });
  for (let i = 0; i < shas.length; i += BATCH) {
    await tx.$executeRaw`
      INSERT INTO branch_commits (branch_id, commit_id, committed_date)
      SELECT ${branchId}, c.id, c.committed_date FROM commits c
       WHERE c.project_id = ${projectId} AND c.sha = ANY(${shas.slice(i, i + BATCH)}::text[])`;
  }
  await tx.branch.update({ where: { id: branchId }, data: { membershipSha: tip } });
}
