// Removing projects, inside the caller's transaction, as Projects::DestroyService and
// Ci::Runners::UpdateProjectRunnersOwnerService leave things: a project runner assigned to no other
// project is deleted, one assigned elsewhere is owned by its next remaining project. Members, runner
// links, merge requests (with their context commits), commits, branches, pipelines and jobs go by the
// foreign keys' ON DELETE CASCADE.
//
// Lock order, shared with assignRunner (lib/runners/service.ts): project rows first (by id), then runner
// rows (by id). Two transactions touching the same project and runner therefore queue, never deadlock,
// and the second sees the first's committed links once it holds the runner lock.
import type { Prisma } from '../db/client';
import { sql } from '../db/sql';

type Tx = Prisma.TransactionClient;

/** Locks the projects (FOR UPDATE, id order) and returns the ids that still exist. */
export async function lockProjects(tx: Tx, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<{ id: number }[]>(sql`
    SELECT id FROM projects WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`);
  return rows.map((r) => r.id);
}

/** Deletes already-locked projects and settles their runners. */
export async function purgeLockedProjects(tx: Tx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const runners = await tx.$queryRaw<{ id: number }[]>(sql`
    SELECT r.id FROM ci_runners r
     WHERE r.owner_project_id = ANY(${ids}::int[])
        OR r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp WHERE rp.project_id = ANY(${ids}::int[]))
     ORDER BY r.id FOR UPDATE OF r`);
  const runnerIds = runners.map((r) => r.id);
  if (runnerIds.length) {
    // Read after the runner locks: a link committed by a concurrent assign is seen here.
    await tx.$executeRaw(sql`
      DELETE FROM ci_runners r
       WHERE r.id = ANY(${runnerIds}::int[]) AND r.runner_type = 'project_type'
         AND NOT EXISTS (SELECT 1 FROM ci_runner_projects rp
                          WHERE rp.runner_id = r.id AND NOT (rp.project_id = ANY(${ids}::int[])))`);
    await tx.$executeRaw(sql`
      UPDATE ci_runners r
         SET owner_project_id = (SELECT rp.project_id FROM ci_runner_projects rp
                                  WHERE rp.runner_id = r.id AND NOT (rp.project_id = ANY(${ids}::int[]))
                                  ORDER BY rp.id LIMIT 1),
             updated_at = now()
       WHERE r.id = ANY(${runnerIds}::int[]) AND r.runner_type = 'project_type'
         AND (r.owner_project_id IS NULL OR r.owner_project_id = ANY(${ids}::int[]))`);
  }
  await tx.$executeRaw(sql`DELETE FROM projects WHERE id = ANY(${ids}::int[])`);
}

/** Holds a project (FOR SHARE) for a write that links to it; false when it is gone. Take it before any runner lock. */
export async function holdProject(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: number }[]>(sql`SELECT id FROM projects WHERE id = ${id} FOR SHARE`);
  return rows.length > 0;
}
