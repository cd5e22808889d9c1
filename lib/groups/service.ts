// Group settings and deletion (PUT and DELETE /groups/:id), each one transaction.
import type { Actor } from '../api/authenticate';
import { forbidden, notFound, validationError } from '../api/errors';
import { db, type Prisma } from '../db/client';
import { sql } from '../db/sql';
import { AccessLevel, groupAccessLevel } from '../namespaces/access';
import { canAdministerGroup, canChangeShareWithGroupLock, type LockLink, type VisibilityName } from '../namespaces/policy';
import { lockProjects, purgeLockedProjects } from '../projects/purge';
import { removeMirrors } from '../projects/service';
import { fullPathTaken } from '../namespaces/queries';
import type { NamespaceRecord } from '../namespaces/records';
import { groupViewer } from '../namespaces/resolve';
import { applySharedRunnersSetting, settingRefusal, type SharedRunnersSetting } from '../namespaces/shared-runners-setting';
import { GROUP_NAME_MESSAGE, GROUP_NAME_RE, GROUP_PATH_MESSAGE, isUniqueViolation, pathValid, VISIBILITY_RANK } from '../namespaces/service';

type Tx = Prisma.TransactionClient;

export interface GroupChanges {
  name?: string;
  path?: string;
  description?: string;
  visibility?: VisibilityName;
  sharedRunnersSetting?: SharedRunnersSetting;
  /** The settings' columns and model errors (group-settings.ts). */
  settings?: { data: Prisma.NamespaceUncheckedUpdateInput; modelErrors: Record<string, string[]> };
}

/** Group's visibility validations: not above the parent, not below a direct project or subgroup. */
async function visibilityErrors(tx: Tx, group: NamespaceRecord, v: VisibilityName): Promise<string[]> {
  const out: string[] = [];
  if (group.parentId) {
    const parent = await tx.namespace.findUnique({ where: { id: group.parentId }, select: { visibility: true } });
    if (parent && VISIBILITY_RANK[v] > VISIBILITY_RANK[parent.visibility]) {
      out.push(`${v} is not allowed since the parent group has a ${parent.visibility} visibility.`);
    }
  }
  const higher = (Object.keys(VISIBILITY_RANK) as VisibilityName[]).filter((x) => VISIBILITY_RANK[x] > VISIBILITY_RANK[v]);
  if (higher.length) {
    if (await tx.project.findFirst({ where: { namespaceId: group.id, visibility: { in: higher } }, select: { id: true } })) {
      out.push(`${v} is not allowed since this group contains projects with higher visibility.`);
    }
    if (await tx.namespace.findFirst({ where: { parentId: group.id, visibility: { in: higher } }, select: { id: true } })) {
      out.push(`${v} is not allowed since there are sub-groups with higher visibility.`);
    }
  }
  return out;
}

/** Groups::UpdateService's refusal when the parent's lock binds the group and the caller may not lift it. */
export const LOCK_REFUSAL = 'cannot be disabled when the parent group "Share with group lock" is enabled, except by the owner of the parent group';

/**
 * The group and its ancestors, nearest first: each one's lock and the actor's level in it. The ancestors are
 * read, not locked: a parent locked concurrently cascades onto this group's row, which this transaction holds,
 * so the cascade lands after it and the lock ends on.
 */
async function lockChain(tx: Tx, actor: Actor, group: NamespaceRecord): Promise<LockLink[]> {
  const ids = [...group.traversalIds].reverse();
  const rows = await tx.$queryRaw<{ id: number; share_with_group_lock: boolean }[]>(
    sql`SELECT id, share_with_group_lock FROM namespaces WHERE id = ANY(${ids}::int[])`,
  );
  const lockOf = new Map(rows.map((r) => [r.id, r.share_with_group_lock]));
  const chain: LockLink[] = [];
  for (const id of ids) {
    const level = actor.user.admin ? AccessLevel.OWNER : await groupAccessLevel(actor.user.id, id, tx);
    chain.push({ level, locked: lockOf.get(id) ?? false });
  }
  return chain;
}

/** PUT /groups/:id: Owners and admins (admin_group). A new path moves every full path under the group. */
export async function updateGroup(actor: Actor, group: NamespaceRecord, c: GroupChanges): Promise<void> {
  if (!canAdministerGroup(await groupViewer(actor, group))) throw forbidden();
  const errors: Record<string, string[]> = {};
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (c.name !== undefined) {
    if (!c.name.trim()) add('name', "can't be blank");
    else if (!GROUP_NAME_RE.test(c.name)) add('name', GROUP_NAME_MESSAGE);
  }
  if (c.path !== undefined) {
    if (!c.path) add('path', "can't be blank");
    else if (!pathValid(c.path)) add('path', GROUP_PATH_MESSAGE);
  }
  for (const [k, msgs] of Object.entries(c.settings?.modelErrors ?? {})) for (const m of msgs) add(k, m);
  try {
    await db().$transaction(async (tx) => {
      // The full path as of the lock: a parent renamed meanwhile has already moved it.
      const locked = await tx.$queryRaw<
        { full_path: string; shared_runners_enabled: boolean; allow_descendants_override_disabled_shared_runners: boolean; share_with_group_lock: boolean }[]
      >(
        sql`SELECT full_path, shared_runners_enabled, allow_descendants_override_disabled_shared_runners, share_with_group_lock
              FROM namespaces WHERE id = ${group.id} FOR UPDATE`,
      );
      if (!locked.length) throw notFound('Group');
      // Groups::UpdateService checks a change of the sharing lock before the runner setting, and answers it alone.
      const newLock = c.settings?.data.shareWithGroupLock;
      if (typeof newLock === 'boolean' && newLock !== locked[0].share_with_group_lock) {
        if (!canChangeShareWithGroupLock(await lockChain(tx, actor, group), actor.user.admin)) throw validationError({ share_with_group_lock: [LOCK_REFUSAL] });
      }
      if (c.sharedRunnersSetting !== undefined) {
        // As Groups::UpdateService: the runner setting goes first and a refusal is the only error answered.
        const parent = group.parentId
          ? await tx.namespace.findUnique({
              where: { id: group.parentId },
              select: { sharedRunnersEnabled: true, allowDescendantsOverrideDisabledSharedRunners: true },
            })
          : null;
        const current = {
          id: group.id,
          sharedRunnersEnabled: locked[0].shared_runners_enabled,
          allowDescendantsOverrideDisabledSharedRunners: locked[0].allow_descendants_override_disabled_shared_runners,
          parent,
        };
        const refusal = settingRefusal(current, c.sharedRunnersSetting);
        if (refusal) throw validationError({ update_shared_runners: [refusal] });
        await applySharedRunnersSetting(tx, current, c.sharedRunnersSetting);
      }
      const oldFull = locked[0].full_path;
      const newFull = c.path !== undefined ? [...oldFull.split('/').slice(0, -1), c.path].join('/') : oldFull;
      if (c.visibility !== undefined) for (const m of await visibilityErrors(tx, group, c.visibility)) add('visibility_level', m);
      if (c.path && !errors.path && newFull.toLowerCase() !== oldFull.toLowerCase() && (await fullPathTaken(newFull, tx))) {
        add('path', 'has already been taken');
      }
      if (Object.keys(errors).length) throw validationError(errors);
      await tx.namespace.update({
        where: { id: group.id },
        data: { ...c.settings?.data, name: c.name, path: c.path, description: c.description, visibility: c.visibility },
      });
      // As Namespace#force_share_with_group_lock_on_descendants: a lock turned on binds every subgroup.
      if (c.settings?.data.shareWithGroupLock === true) {
        await tx.$executeRaw(sql`UPDATE namespaces SET share_with_group_lock = true WHERE traversal_ids @> ARRAY[${group.id}]::int[] AND kind = 'group'`);
      }
      if (newFull !== oldFull) {
        const tail = oldFull.length + 1;
        await tx.$executeRaw(sql`
          UPDATE namespaces SET full_path = ${newFull} || substr(full_path, ${tail})
           WHERE traversal_ids @> ARRAY[${group.id}]::int[]`);
        await tx.$executeRaw(sql`
          UPDATE projects SET full_path = ${newFull} || substr(full_path, ${tail})
           WHERE namespace_id IN (SELECT id FROM namespaces WHERE traversal_ids @> ARRAY[${group.id}]::int[])`);
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw validationError({ path: ['has already been taken'] });
    throw err;
  }
}

/**
 * DELETE /groups/:id: Owners and admins. The group, its subgroups, their projects (see project-purge.ts),
 * group runners and memberships go in one transaction; Runway has no delayed deletion.
 */
export async function deleteGroup(actor: Actor, group: NamespaceRecord): Promise<void> {
  if (!canAdministerGroup(await groupViewer(actor, group))) throw forbidden();
  const projectIds = await db().$transaction(async (tx) => {
    const tree = await tx.$queryRaw<{ id: number; depth: number }[]>(sql`
      SELECT id, cardinality(traversal_ids) AS depth FROM namespaces
       WHERE traversal_ids @> ARRAY[${group.id}]::int[] AND kind = 'group' ORDER BY id FOR UPDATE`);
    if (!tree.some((n) => n.id === group.id)) throw notFound('Group');
    const ids = tree.map((n) => n.id);
    const inside = await tx.project.findMany({ where: { namespaceId: { in: ids } }, select: { id: true }, orderBy: { id: 'asc' } });
    const locked = await lockProjects(
      tx,
      inside.map((p) => p.id),
    );
    await purgeLockedProjects(tx, locked);
    await tx.runner.deleteMany({ where: { groupId: { in: ids } } });
    // Children before parents: parent_id is ON DELETE RESTRICT.
    for (const depth of [...new Set(tree.map((n) => n.depth))].sort((a, b) => b - a)) {
      await tx.namespace.deleteMany({ where: { id: { in: tree.filter((n) => n.depth === depth).map((n) => n.id) } } });
    }
    return locked;
  });
  await removeMirrors(projectIds);
}
