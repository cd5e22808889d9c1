// Runner writes: update, delete, enable in a project (assign), disable in a project (unassign). Each is
// one transaction that locks the runner row first, so concurrent link changes of one runner serialise
// and the "project runner keeps at least one project" invariant is re-checked under the lock.
import type { Actor } from '../api/authenticate';
import { apiError, forbidden, notFound, validationError } from '../api/errors';
import { checkUnmodifiedSince } from '../api/preconditions';
import { db, type Prisma } from '../db/client';
import { canAssignRunner, canDeleteRunner, canUnassignRunner, ownerProjectId, runnerProjectCount } from './policy';
import { findRunner, lockRunner, type RunnerRow } from './queries';
import { loadTagLists, parseTagList, tagListChanged, writeTaggings } from './tags';
import { hasErrors, validateRunnerAttributes } from './validation';
import { isRowId } from '../db/ids';
import { holdProject } from '../projects/purge';
import { recordRunnerAudit, type AuditActor } from '../audit/service';
import { runnerChanges } from './audit-changes';

/** Who asks for a change and from where: what the audit trail records with it. */
export interface ChangeOrigin {
  actor: AuditActor;
  ip: string | null;
}

export const runnerNotFound = () => notFound('Runner');
export const noAccess = () => forbidden('No access granted');

export async function findRunnerOr404(id: unknown): Promise<RunnerRow> {
  // A null id (JSON null passes Grape's presence check) finds nothing, as find_by_id(nil) does.
  const runner = isRowId(id) ? await findRunner(id) : null;
  if (!runner) throw runnerNotFound();
  return runner;
}

export interface RunnerUpdate {
  description?: string | null;
  active?: boolean | null;
  paused?: boolean | null;
  /** The raw tag_list parameter (CSV string or array); parsed with GitLab's tag parser. */
  tagList?: unknown;
  runUntagged?: boolean | null;
  locked?: boolean | null;
  accessLevel?: 'not_protected' | 'ref_protected' | null;
  maximumTimeout?: number | null;
  maintenanceNote?: string | null;
}

/** PUT /runners/:id: validates like the model (400 {"message":{attr:[...]}}) and writes in one transaction. */
export async function updateRunner(runnerId: number, u: RunnerUpdate, origin: ChangeOrigin): Promise<void> {
  await db().$transaction(async (tx) => {
    const runner = await lockRunner(runnerId, tx);
    if (!runner) throw runnerNotFound();
    const current = (await loadTagLists(tx, [runnerId])).get(runnerId) ?? [];
    const tags = u.tagList !== undefined ? parseTagList(u.tagList) : current;
    const changed = u.tagList !== undefined && tagListChanged(current, tags);
    const active = u.paused !== undefined && u.paused !== null ? !u.paused : (u.active ?? runner.active);
    const next = {
      description: u.description !== undefined ? u.description : runner.description,
      runUntagged: u.runUntagged ?? runner.runUntagged,
      locked: u.locked ?? runner.locked,
      accessLevel: u.accessLevel ?? runner.accessLevel,
      maximumTimeout: u.maximumTimeout !== undefined ? u.maximumTimeout : runner.maximumTimeout,
      maintenanceNote: u.maintenanceNote !== undefined ? u.maintenanceNote : runner.maintenanceNote,
    };
    const errors = validateRunnerAttributes({
      // Length checks run only on changed values, as Rails' `if: :x_changed?` does.
      description: u.description !== undefined && u.description !== runner.description ? u.description : undefined,
      maintenanceNote: u.maintenanceNote !== undefined && u.maintenanceNote !== runner.maintenanceNote ? u.maintenanceNote : undefined,
      maximumTimeout: next.maximumTimeout,
      runUntagged: next.runUntagged,
      tagList: tags,
      tagListChanged: changed,
    });
    if (hasErrors(errors)) throw validationError(errors);
    await tx.runner.update({ where: { id: runnerId }, data: { ...next, active } });
    if (changed) await writeTaggings(tx, runnerId, tags);
    const changes = runnerChanges({ ...runner, tagList: current }, { ...next, active, tagList: changed ? tags : current });
    const fields = Object.keys(changes);
    if (!fields.length) return;
    // A change of the paused state alone is a pause or a resume; anything else is an update listing every field.
    const action = fields.length === 1 && fields[0] === 'paused' ? (active ? 'resume' : 'pause') : 'update';
    await recordRunnerAudit(tx, { ...origin, runnerId, action, details: { changes } });
  });
}

/** DELETE /runners/:id, checks in GitLab's order: admin, "more than one project", delete_runner, 412. */
export async function deleteRunner(actor: Actor, runner: RunnerRow, req: Request, origin: ChangeOrigin): Promise<void> {
  if (!actor.user.admin) {
    if (runner.runnerType === 'project_type' && (await runnerProjectCount(runner.id)) > 1) {
      throw forbidden('Runner associated with more than one project');
    }
    if (!(await canDeleteRunner(actor, runner))) throw noAccess();
  }
  checkUnmodifiedSince(req, runner.updatedAt);
  await db().$transaction(async (tx) => {
    // Recorded first (it reads the row); a runner already gone (a concurrent delete) records nothing.
    if (!(await lockRunner(runner.id, tx))) return;
    await recordRunnerAudit(tx, { ...origin, runnerId: runner.id, action: 'delete', details: { via: 'id' } });
    await destroyRunner(tx, runner.id);
  });
}

/**
 * Removes a runner and, through the foreign keys, its project links, taggings and managers (its jobs keep
 * their rows with no runner). Every runner deletion goes through here; a row already gone is no error.
 * Returns whether this call removed it.
 */
export async function destroyRunner(tx: Prisma.TransactionClient, runnerId: number): Promise<boolean> {
  const removed = await tx.runner.deleteMany({ where: { id: runnerId } });
  return removed.count > 0;
}

/** POST /projects/:id/runners (the project permission is checked by the caller). */
export async function assignRunner(actor: Actor, projectId: number, runnerIdParam: number | null, origin: ChangeOrigin): Promise<RunnerRow> {
  const runner = await findRunnerOr404(runnerIdParam);
  const runnerId = runner.id;
  if (runner.runnerType === 'group_type') throw forbidden('Runner is a group runner');
  if (!actor.user.admin) {
    if (runner.locked) throw forbidden('Runner is locked');
    if (!(await canAssignRunner(actor, runner))) throw noAccess();
  }
  // Instance runners cannot belong to projects; GitLab raises there, we refuse cleanly.
  if (runner.runnerType !== 'project_type') throw noAccess();
  await db().$transaction(async (tx) => {
    // Project before runner, the order project deletion locks in (lib/projects/purge.ts).
    if (!(await holdProject(tx, projectId))) throw notFound('Project');
    const locked = await lockRunner(runnerId, tx);
    if (!locked) throw runnerNotFound();
    const exists = await tx.runnerProject.findUnique({ where: { runnerId_projectId: { runnerId, projectId } } });
    if (exists) throw apiError(400, 'Assign to Validation failed: Runner projects runner has already been taken - runner_error');
    await tx.runnerProject.create({ data: { runnerId, projectId } });
    // A runner whose owner project was deleted is re-owned by its earliest remaining project.
    if (!locked.ownerProjectId) {
      const owner = await ownerProjectId(locked, tx);
      await tx.runner.update({ where: { id: runnerId }, data: { ownerProjectId: owner ?? projectId } });
    }
    await recordRunnerAudit(tx, { ...origin, runnerId, action: 'assign', details: { project_id: projectId } });
  });
  return (await findRunner(runnerId))!;
}

/** DELETE /projects/:id/runners/:runner_id (the project permission is checked by the caller). */
export async function unassignRunner(actor: Actor, projectId: number, runnerIdParam: number | null, req: Request, origin: ChangeOrigin): Promise<void> {
  if (!isRowId(runnerIdParam)) throw runnerNotFound();
  const runnerId = runnerIdParam;
  const link = await db().runnerProject.findUnique({ where: { runnerId_projectId: { runnerId, projectId } } });
  if (!link) throw runnerNotFound();
  const runner = await findRunnerOr404(runnerId);
  if (!actor.user.admin) {
    if (runner.locked) throw forbidden('Runner is locked');
    if (!(await canUnassignRunner(actor, runner, projectId, await ownerProjectId(runner)))) throw noAccess();
  }
  checkUnmodifiedSince(req, link.createdAt);
  await db().$transaction(async (tx: Prisma.TransactionClient) => {
    // Re-check under the row lock: a concurrent unassign may have removed another project meanwhile.
    const locked = await lockRunner(runnerId, tx);
    if (!locked) throw runnerNotFound();
    const owner = await ownerProjectId(locked, tx);
    const count = await runnerProjectCount(runnerId, tx);
    if (owner === projectId || count <= 1) {
      throw forbidden('You cannot unassign a runner from the owner project. Delete the runner instead');
    }
    const removed = await tx.runnerProject.deleteMany({ where: { runnerId, projectId } });
    if (removed.count === 0) throw runnerNotFound();
    await recordRunnerAudit(tx, { ...origin, runnerId, action: 'unassign', details: { project_id: projectId } });
  });
}
