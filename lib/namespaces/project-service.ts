// Project settings and deletion (PUT and DELETE /projects/:id), each one transaction.
import { rm } from 'node:fs/promises';
import type { Actor } from '../api/authenticate';
import { forbidden, notFound, validationError } from '../api/errors';
import { db, type Prisma } from '../db/client';
import { applySettings, readSettings } from './project-settings';
import { logError } from '../log/log';
import { mirrorPath } from '../repositories/import';
import { canChangeProjectVisibility, canRemoveProject, canRenameProject, canUpdateProject, type VisibilityName } from './policy';
import { lockProjects, purgeLockedProjects } from './project-purge';
import { fullPathTaken, projectNameTaken } from './queries';
import type { ProjectRecord } from './records';
import { projectViewer } from './resolve';
import { isUniqueViolation, pathValid, PROJECT_NAME_MESSAGE, PROJECT_NAME_RE, PROJECT_PATH_MESSAGE, VISIBILITY_RANK } from './service';

export interface ProjectChanges {
  name?: string;
  path?: string;
  description?: string;
  visibility?: VisibilityName;
  defaultBranch?: string;
  sharedRunnersEnabled?: boolean;
  groupRunnersEnabled?: boolean;
  /** The request's settings parameters (project-settings.ts reads the ones it knows). */
  settings?: Record<string, unknown>;
}

/** PUT /projects/:id: Maintainer+; a new name or any visibility also needs Owner (rename_project, change_visibility_level). */
export async function updateProject(actor: Actor, project: ProjectRecord, c: ProjectChanges): Promise<void> {
  const viewer = await projectViewer(actor, project);
  if (!canUpdateProject(viewer)) throw forbidden();
  // GitLab asks for the abilities whenever the attribute is present (name: non-blank), changed or not.
  if (c.name?.trim() && !canRenameProject(viewer)) throw forbidden();
  if (c.visibility !== undefined && !canChangeProjectVisibility(viewer)) throw forbidden();

  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const ns = project.namespace;
  if (c.defaultBranch !== undefined && c.defaultBranch !== project.defaultBranch && c.defaultBranch !== '') {
    const branch = await db().branch.findUnique({ where: { projectId_name: { projectId: project.id, name: c.defaultBranch } } });
    // Project#change_head: the branch must exist; GitLab stops there with this one error.
    if (!branch) throw validationError({ base: [`Could not change HEAD: branch '${c.defaultBranch}' does not exist`] });
  }
  if (c.name !== undefined) {
    if (!c.name.trim()) add('name', "can't be blank");
    else if (!PROJECT_NAME_RE.test(c.name)) add('name', PROJECT_NAME_MESSAGE);
  }
  if (c.path !== undefined) {
    if (!c.path) add('path', "can't be blank");
    else if (!pathValid(c.path)) add('path', PROJECT_PATH_MESSAGE);
  }
  if (c.visibility !== undefined && ns.kind === 'group' && VISIBILITY_RANK[c.visibility] > VISIBILITY_RANK[ns.visibility]) {
    add('visibility_level', `${c.visibility} is not allowed in a ${ns.visibility} group.`);
  }
  try {
    await db().$transaction(async (tx) => {
      const [locked] = await lockProjects(tx, [project.id]);
      if (!locked) throw notFound('Project');
      // Read under the project lock: a group renamed meanwhile has already moved this project's full path.
      const parent = await tx.namespace.findUniqueOrThrow({ where: { id: ns.id }, select: { fullPath: true } });
      const fullPath = `${parent.fullPath}/${c.path ?? project.path}`;
      // The project's own name differs from the new one in case-insensitive terms, so it never clashes with itself.
      if (c.name?.trim() && !errors.name && c.name.toLowerCase() !== project.name.toLowerCase() && (await projectNameTaken(ns.id, c.name, tx))) {
        add('name', 'has already been taken');
      }
      if (c.path && !errors.path && c.path.toLowerCase() !== project.path.toLowerCase() && (await fullPathTaken(fullPath, tx)))
        add('path', 'has already been taken');
      // Project validation: instance runners cannot be turned on under a group "disabled and unoverridable" (the
      // group row is read FOR SHARE so a concurrent group change cannot slip between).
      if (c.sharedRunnersEnabled && ns.kind === 'group') {
        const [group] = await tx.$queryRaw<{ shared_runners_enabled: boolean; allow_descendants_override_disabled_shared_runners: boolean }[]>`
          SELECT shared_runners_enabled, allow_descendants_override_disabled_shared_runners FROM namespaces WHERE id = ${ns.id} FOR SHARE`;
        if (group && !group.shared_runners_enabled && !group.allow_descendants_override_disabled_shared_runners) {
          add('shared_runners_enabled', 'cannot be enabled because parent group does not allow it');
        }
      }
      // The settings are read under the lock too, so two updates of different settings both stay.
      const [row] = await tx.$queryRaw<{ settings: unknown; visibility: string }[]>`
        SELECT settings, visibility::text AS visibility FROM projects WHERE id = ${project.id}`;
      const visibility = c.visibility ?? row.visibility;
      const settings = applySettings(readSettings(row.settings, row.visibility), c.settings ?? {}, visibility);
      for (const [k, msgs] of Object.entries(settings.errors)) for (const m of msgs) add(k, m);
      if (Object.keys(errors).length) throw validationError(errors);
      await tx.project.update({
        where: { id: project.id },
        data: {
          name: c.name,
          path: c.path,
          fullPath: c.path !== undefined ? fullPath : undefined,
          description: c.description,
          visibility: c.visibility,
          defaultBranch: c.defaultBranch !== undefined && c.defaultBranch !== '' ? c.defaultBranch : undefined,
          sharedRunnersEnabled: c.sharedRunnersEnabled,
          groupRunnersEnabled: c.groupRunnersEnabled,
          settings: settings.next as unknown as Prisma.InputJsonObject,
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw validationError({ path: ['has already been taken'] });
    throw err;
  }
}

/** Drops this instance's repository mirrors of deleted projects: a cache, so failures are only logged. */
export async function removeMirrors(projectIds: number[]): Promise<void> {
  for (const id of projectIds) {
    await rm(await mirrorPath(id), { recursive: true, force: true }).catch((err) =>
      logError('could not remove a deleted project mirror', err, { projectId: id }),
    );
  }
}

/**
 * DELETE /projects/:id: Owners and admins (remove_project). Runway deletes at once, in one transaction
 * (no delayed deletion), so a crash leaves the project either whole or gone.
 */
export async function deleteProject(actor: Actor, project: ProjectRecord): Promise<void> {
  if (!canRemoveProject(await projectViewer(actor, project))) throw forbidden();
  await db().$transaction(async (tx) => {
    const locked = await lockProjects(tx, [project.id]);
    if (!locked.length) throw notFound('Project');
    await purgeLockedProjects(tx, locked);
  });
  await removeMirrors([project.id]);
}
