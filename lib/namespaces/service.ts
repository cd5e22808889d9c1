// Group creation and what every resource's writes share (path and name rules, member sources), each write
// in one transaction (projects: lib/projects/service.ts; members: lib/members/service.ts). Path uniqueness is enforced by the
// unique full_path columns; the checks here only word the failure as GitLab does.
import type { Actor } from '../api/authenticate';
import { apiError, forbidden, notFound, validationError } from '../api/errors';
import { db, type Prisma } from '../db/client';
import { AccessLevel } from './access';
import { canCreateSubgroup, canCreateTopLevelGroup, type Viewer, type VisibilityName } from './policy';
import { findGroup, groupViewer, projectViewer } from './resolve';
import type { NamespaceRecord, ProjectRecord } from './records';
import { fullPathTaken } from './queries';
import { settingRefusal, type SharedRunnersSetting } from './shared-runners-setting';

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
export const isForeignKeyViolation = (err: unknown) => (err as { code?: string })?.code === 'P2003';

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
      // The parent's lock, read under a share lock taken before anything else: a lock being turned on there
      // (which cascades to the subgroups) lands wholly before or after this group is added.
      const parentLocked = parent
        ? (await tx.$queryRaw<{ share_with_group_lock: boolean }[]>`SELECT share_with_group_lock FROM namespaces WHERE id = ${parent.id} FOR SHARE`)[0]
            ?.share_with_group_lock === true
        : false;
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
          shareWithGroupLock: parentLocked,
        },
      });
      // Namespace#sync_share_with_group_lock_with_parent: under a locked parent the lock is on whatever was asked.
      const lock = parentLocked ? { shareWithGroupLock: true } : {};
      await tx.namespace.update({ where: { id: ns.id }, data: { ...input.settings?.data, ...lock, traversalIds: [...(parent?.traversalIds ?? []), ns.id] } });
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

// ------------------------------------------------------------------ members

export type MemberSource = { kind: 'group'; group: NamespaceRecord } | { kind: 'project'; project: ProjectRecord };

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
