// Writes: groups, projects and memberships, each in one transaction. Path uniqueness is enforced by the
// unique full_path columns; the checks here only word the failure as GitLab does.
import { isRowId } from '../db/ids';
import type { Actor } from '../api/authenticate';
import { ApiError, apiError, conflict, forbidden, notFound, validationError } from '../api/errors';
import { db, type Prisma } from '../db/client';
import type { Namespace } from '../db/generated/client';
import { enqueueImport } from '../repositories/import-queue';
import { importUrlProblem } from '../repositories/import-url';
import { AccessLevel, groupAccessLevel } from './access';
import {
  canCreateProjectInGroup,
  canCreateProjectInUserNamespace,
  canCreateSubgroup,
  canCreateTopLevelGroup,
  canGrantLevel,
  canAdminMembersOf,
  type Viewer,
  type VisibilityName,
} from './policy';
import { findGroup, groupViewer, projectViewer } from './resolve';
import type { NamespaceRecord, ProjectRecord } from './records';
import { fullPathTaken, projectNameTaken } from './queries';
import { findUserByLogin } from '../users/queries';
import { forbidsOverride, settingRefusal, sharedRunnersSetting, type SharedRunnersSetting } from './shared-runners-setting';
import { applySettings, defaultSettings } from './project-settings';

type Tx = Prisma.TransactionClient;
export const VISIBILITY_RANK: Record<VisibilityName, number> = { private: 0, internal: 10, public: 20 };

// GitLab's Gitlab::PathRegex: letters, digits, '_', '-', '.'; not starting with '-', not ending in '.',
// '.git' or '.atom'; no consecutive special characters.
const PATH_RE = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
export function pathValid(path: string): boolean {
  return PATH_RE.test(path) && !/[._-]{2,}/.test(path) && !/(\.|\.git|\.atom)$/i.test(path) && path.length <= 255;
}
export const GROUP_NAME_RE = /^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}_\p{Extended_Pictographic}.\-\s()]*$/u;
export const PROJECT_NAME_RE = /^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}_\p{Extended_Pictographic}.+\-\s]*$/u;

// GitLab's validation messages, shared by create and update.
export const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";
export const GROUP_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
export const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";
export const PROJECT_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

export const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === 'P2002';
/** A row referred to went away meanwhile (a namespace deleted while a project or subgroup was being created in it). */
const isForeignKeyViolation = (err: unknown) => (err as { code?: string })?.code === 'P2003';

// ------------------------------------------------------------------ groups

export interface NewGroup {
  name: string;
  path: string;
  parentId?: number | null;
  visibility?: VisibilityName;
  description?: string | null;
  /** The settings' columns and their model errors (group-settings.ts). */
  settings?: { data: Prisma.NamespaceUncheckedUpdateInput; modelErrors: Record<string, string[]> };
  sharedRunnersSetting?: SharedRunnersSetting;
}

/** GitLab answers group validation failures as "Failed to save group {:attr=>[...]}" (Ruby hash inspect). */
function groupSaveError(errors: Record<string, string[]>) {
  const inspect = Object.entries(errors)
    .map(([k, msgs]) => `:${k}=>[${msgs.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ');
  return apiError(400, `Failed to save group {${inspect}}`);
}

export async function createGroup(actor: Actor, input: NewGroup): Promise<NamespaceRecord> {
  let parent: NamespaceRecord | null = null;
  if (input.parentId !== undefined && input.parentId !== null) {
    parent = await findGroup(actor, input.parentId);
    if (!canCreateSubgroup(await groupViewer(actor, parent), parent)) throw forbidden();
  } else if (!canCreateTopLevelGroup(actor.user)) {
    throw forbidden();
  }
  const visibility = input.visibility ?? 'private';
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (!input.name.trim()) add('name', "can't be blank");
  else if (!GROUP_NAME_RE.test(input.name)) {
    add('name', GROUP_NAME_MESSAGE);
  }
  if (!pathValid(input.path)) add('path', GROUP_PATH_MESSAGE);
  if (parent && VISIBILITY_RANK[visibility] > VISIBILITY_RANK[parent.visibility]) {
    add('visibility_level', `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`);
  }
  for (const [k, msgs] of Object.entries(input.settings?.modelErrors ?? {})) for (const m of msgs) add(k, m);
  // As Groups::CreateService: a runner setting the parent forbids is the only error answered.
  const runnerSetting = input.sharedRunnersSetting;
  if (runnerSetting && parent) {
    const refusal = settingRefusal({ id: 0, sharedRunnersEnabled: true, allowDescendantsOverrideDisabledSharedRunners: false, parent }, runnerSetting);
    if (refusal) throw validationError({ update_shared_runners: [refusal] });
  }
  const fullPath = parent ? `${parent.fullPath}/${input.path}` : input.path;
  try {
    const id = await db().$transaction(async (tx) => {
      if (!errors.path && (await fullPathTaken(fullPath, tx))) add('path', 'has already been taken');
      if (Object.keys(errors).length) throw groupSaveError(errors);
      const ns = await tx.namespace.create({
        data: {
          kind: 'group',
          name: input.name,
          path: input.path,
          fullPath,
          parentId: parent?.id ?? null,
          description: input.description ?? '',
          visibility,
          // A subgroup starts with its parent's instance-runner setting (inherit_group_shared_runners_settings),
          // unless one is asked for; and with its parent's sharing lock (a lock binds the whole tree).
          sharedRunnersEnabled: runnerSetting ? runnerSetting === 'enabled' : (parent?.sharedRunnersEnabled ?? true),
          allowDescendantsOverrideDisabledSharedRunners: runnerSetting
            ? runnerSetting === 'disabled_and_overridable'
            : (parent?.allowDescendantsOverrideDisabledSharedRunners ?? false),
          shareWithGroupLock: parent?.shareWithGroupLock ?? false,
        },
      });
      await tx.namespace.update({ where: { id: ns.id }, data: { ...input.settings?.data, traversalIds: [...(parent?.traversalIds ?? []), ns.id] } });
      // The creator becomes Owner (GitLab adds them even when they inherit Owner from the parent).
      await tx.groupMember.create({ data: { groupId: ns.id, userId: actor.user.id, accessLevel: AccessLevel.OWNER, createdById: actor.user.id } });
      return ns.id;
    });
    return findGroup(actor, id);
  } catch (err) {
    if (isUniqueViolation(err)) throw groupSaveError({ path: ['has already been taken'] });
    if (isForeignKeyViolation(err)) throw notFound('Group');
    throw err;
  }
}

// ------------------------------------------------------------------ projects

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

// ------------------------------------------------------------------ members

export type MemberSource = { kind: 'group'; group: NamespaceRecord } | { kind: 'project'; project: ProjectRecord };

export interface NewMember {
  userId?: number | string;
  username?: string;
  accessLevel: number;
  expiresAt?: string | null;
}

export async function sourceViewer(actor: Actor, source: MemberSource): Promise<Viewer> {
  return source.kind === 'group' ? groupViewer(actor, source.group) : projectViewer(actor, source.project);
}

/** The highest membership the user inherits from the source's ancestor groups (and its group's name). */
export async function inheritedMembership(tx: Tx, source: MemberSource, userId: number): Promise<{ level: number; groupName: string } | null> {
  const ids =
    source.kind === 'group' ? source.group.traversalIds.slice(0, -1) : source.project.namespace.kind === 'group' ? source.project.namespace.traversalIds : [];
  if (!ids.length) return null;
  const row = await tx.groupMember.findFirst({
    where: { groupId: { in: ids }, userId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date(new Date().toISOString().slice(0, 10)) } }] },
    orderBy: { accessLevel: 'desc' },
    include: { group: { select: { name: true } } },
  });
  return row ? { level: row.accessLevel, groupName: row.group.name } : null;
}

export const LEVEL_NAMES: Record<number, string> = { 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

/** POST .../members: returns the new membership's id. */
export async function addMember(actor: Actor, source: MemberSource, input: NewMember): Promise<number> {
  const viewer = await sourceViewer(actor, source);
  if (!canAdminMembersOf(source.kind, viewer)) throw forbidden();
  const userIdRaw = input.userId !== undefined ? String(input.userId).trim() : undefined;
  const target =
    userIdRaw !== undefined
      ? /^\d+$/.test(userIdRaw) && Number(userIdRaw) <= 2147483647
        ? await db().user.findUnique({ where: { id: Number(userIdRaw) } })
        : null
      : await findUserByLogin('username', input.username ?? '');
  if (!target) throw notFound('User');
  if (!canGrantLevel(viewer, input.accessLevel)) throw forbidden();
  try {
    return await db().$transaction(async (tx) => {
      const existing =
        source.kind === 'group'
          ? await tx.groupMember.findUnique({ where: { groupId_userId: { groupId: source.group.id, userId: target.id } } })
          : await tx.projectMember.findUnique({ where: { projectId_userId: { projectId: source.project.id, userId: target.id } } });
      if (existing) throw conflict('Member already exists');
      const errors: Record<string, string[]> = {};
      if (input.expiresAt && input.expiresAt < new Date().toISOString().slice(0, 10)) errors.expires_at = ['cannot be a date in the past'];
      const inherited = await inheritedMembership(tx, source, target.id);
      if (inherited && input.accessLevel < inherited.level) {
        errors.access_level = [`should be greater than or equal to ${LEVEL_NAMES[inherited.level]} inherited membership from group ${inherited.groupName}`];
      }
      if (Object.keys(errors).length) throw validationError(errors);
      const data = {
        userId: target.id,
        accessLevel: input.accessLevel,
        expiresAt: input.expiresAt ? new Date(`${input.expiresAt}T00:00:00Z`) : null,
        createdById: actor.user.id,
      };
      const row =
        source.kind === 'group'
          ? await tx.groupMember.create({ data: { ...data, groupId: source.group.id } })
          : await tx.projectMember.create({ data: { ...data, projectId: source.project.id } });
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Member already exists');
    throw err;
  }
}
