// Project creation, settings and deletion (POST /projects, PUT and DELETE /projects/:id), each one transaction.
import { rm } from 'node:fs/promises';
import type { Actor } from '../api/authenticate';
import { forbidden, notFound, validationError, ApiError } from '../api/errors';
import { db, type Prisma } from '../db/client';
import { applySettings, readSettings, defaultSettings } from '../namespaces/project-settings';
import { logError } from '../log/log';
import { mirrorPath } from '../repositories/import';
import {
  canChangeProjectVisibility,
  canRemoveProject,
  canRenameProject,
  canUpdateProject,
  type VisibilityName,
  canCreateProjectInUserNamespace,
  canCreateProjectInGroup,
} from '../namespaces/policy';
import { lockProjects, purgeLockedProjects } from './purge';
import { fullPathTaken, projectNameTaken } from '../namespaces/queries';
import type { ProjectRecord } from '../namespaces/records';
import { projectViewer } from '../namespaces/resolve';
import {
  isUniqueViolation,
  pathValid,
  PROJECT_NAME_MESSAGE,
  PROJECT_NAME_RE,
  PROJECT_PATH_MESSAGE,
  VISIBILITY_RANK,
  isForeignKeyViolation,
} from '../namespaces/service';
import type { Namespace } from '../db/generated/client';
import { isRowId } from '../db/ids';
import { AccessLevel, groupAccessLevel } from '../namespaces/access';
import { importUrlProblem } from '../repositories/import-url';
import { enqueueImport } from '../repositories/import-queue';
import { sharedRunnersSetting, forbidsOverride } from '../namespaces/shared-runners-setting';

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

// ------------------------------------------------------------------ POST /projects

export interface NewProject {
  name?: string;
  path?: string;
  namespaceId?: number;
  description?: string | null;
  visibility?: VisibilityName;
  defaultBranch?: string;
  importUrl?: string;
  sharedRunnersEnabled?: boolean;
  groupRunnersEnabled?: boolean;
  /** The request's settings parameters (project-settings.ts reads the ones it knows). */
  settings?: Record<string, unknown>;
}

/** GitLab derives a missing path from the name (parameterized) and a missing name from the path. */
function derivePath(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .replace(/[-._]{2,}/g, '-');
}

export async function createProject(actor: Actor, input: NewProject): Promise<number> {
  const user = actor.user;
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  const name = (input.name ?? input.path ?? '').trim();
  const path = input.path ?? derivePath(name);

  let ns: Namespace | null;
  if (input.namespaceId !== undefined) ns = isRowId(input.namespaceId) ? await db().namespace.findUnique({ where: { id: input.namespaceId } }) : null;
  else ns = await db().namespace.findUnique({ where: { ownerId: user.id } });
  let allowed = false;
  if (ns) {
    if (ns.kind === 'user') allowed = canCreateProjectInUserNamespace(user, ns);
    else allowed = canCreateProjectInGroup({ signedIn: true, admin: user.admin, level: await groupAccessLevel(user.id, ns.id) }, ns);
  }
  if (!ns || !allowed) throw validationError({ namespace: ['is not valid'] });

  const visibility = input.visibility ?? 'private';
  if (!name) add('name', "can't be blank");
  else if (!PROJECT_NAME_RE.test(name)) {
    add('name', PROJECT_NAME_MESSAGE);
  }
  if (!path) add('path', "can't be blank");
  else if (!pathValid(path)) add('path', PROJECT_PATH_MESSAGE);
  if (ns.kind === 'group' && VISIBILITY_RANK[visibility] > VISIBILITY_RANK[ns.visibility]) {
    add('visibility_level', `${visibility} is not allowed in a ${ns.visibility} group.`);
  }
  const settings = applySettings(defaultSettings(visibility), input.settings ?? {}, visibility);
  for (const [k, msgs] of Object.entries(settings.errors)) for (const m of msgs) add(k, m);
  // Resolves the import URL's host: done before the transaction, which must not wait on DNS.
  // A refused import URL answers first and alone, with 422 as GitLab's validate_git_import_url! does (in the
  // model's `{"import_url": [...]}` shape, so clients show the reason under the field).
  const importProblem = input.importUrl ? await importUrlProblem(input.importUrl, user) : null;
  if (importProblem) throw new ApiError(422, { message: { import_url: [importProblem] } });
  const fullPath = `${ns.fullPath}/${path}`;
  const namespace = ns;
  try {
    return await db().$transaction(async (tx) => {
      if (name && !errors.name) {
        if (await projectNameTaken(namespace.id, name, tx)) add('name', 'has already been taken');
      }
      if (path && !errors.path && (await fullPathTaken(fullPath, tx))) add('path', 'has already been taken');
      // Instance runners default to the group's setting; asking for them under "disabled and unoverridable" is refused.
      let sharedRunnersEnabled = input.sharedRunnersEnabled ?? true;
      if (namespace.kind === 'group') {
        const group = await tx.namespace.findUniqueOrThrow({
          where: { id: namespace.id },
          select: { sharedRunnersEnabled: true, allowDescendantsOverrideDisabledSharedRunners: true },
        });
        if (input.sharedRunnersEnabled === undefined) sharedRunnersEnabled = sharedRunnersSetting(group) === 'enabled';
        else if (input.sharedRunnersEnabled && forbidsOverride(group))
          add('shared_runners_enabled', 'cannot be enabled because parent group does not allow it');
      }
      if (Object.keys(errors).length) throw validationError(errors);
      const project = await tx.project.create({
        data: {
          name,
          path,
          namespaceId: namespace.id,
          fullPath,
          description: input.description ?? null,
          visibility,
          defaultBranch: input.defaultBranch ?? null,
          creatorId: user.id,
          sharedRunnersEnabled,
          groupRunnersEnabled: input.groupRunnersEnabled ?? true,
          settings: settings.next as unknown as Prisma.InputJsonObject,
        },
      });
      // As Projects::CreateService: the personal namespace owner is an Owner member; an admin creating in
      // a group they do not belong to becomes Owner of the project.
      if (namespace.kind === 'user' && namespace.ownerId) {
        await tx.projectMember.create({ data: { projectId: project.id, userId: namespace.ownerId, accessLevel: AccessLevel.OWNER, createdById: user.id } });
      } else if (namespace.kind === 'group' && (await groupAccessLevel(user.id, namespace.id, tx)) === 0) {
        await tx.projectMember.create({ data: { projectId: project.id, userId: user.id, accessLevel: AccessLevel.OWNER, createdById: user.id } });
      }
      if (input.importUrl) await enqueueImport({ projectId: project.id, url: input.importUrl, actorId: user.id }, tx);
      return project.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw validationError({ path: ['has already been taken'] });
    if (isForeignKeyViolation(err)) throw validationError({ namespace: ['is not valid'] });
    throw err;
  }
}
