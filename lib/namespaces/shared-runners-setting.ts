// A group's instance-runner setting (GitLab's shared_runners_setting): the pair of columns
// shared_runners_enabled / allow_descendants_override_disabled_shared_runners read as one of three values,
// and the cascade GitLab's Groups::UpdateSharedRunnersService applies to subgroups and projects.
import type { Prisma } from '../db/client';
import { sql } from '../db/sql';

type Tx = Prisma.TransactionClient;

export const SHARED_RUNNERS_SETTINGS = ['disabled_and_unoverridable', 'disabled_and_overridable', 'enabled'] as const;
export type SharedRunnersSetting = (typeof SHARED_RUNNERS_SETTINGS)[number];

/**
 * The values PUT and POST /groups accept: GitLab's Namespace::SHARED_RUNNERS_SETTINGS still lists the deprecated
 * `disabled_with_override`, which Namespace#update_shared_runners_setting! applies as `disabled_and_overridable`.
 * GET never answers it (the setting is read off the columns), so it is an input alias only.
 */
export const SHARED_RUNNERS_PARAM_VALUES = [...SHARED_RUNNERS_SETTINGS, 'disabled_with_override'] as const;

/** The setting a request's value stands for (the deprecated alias becomes `disabled_and_overridable`). */
export function requestedSharedRunnersSetting(value: (typeof SHARED_RUNNERS_PARAM_VALUES)[number] | null | undefined): SharedRunnersSetting | undefined {
  if (value === undefined || value === null) return undefined;
  return value === 'disabled_with_override' ? 'disabled_and_overridable' : value;
}

interface Columns {
  sharedRunnersEnabled: boolean;
  allowDescendantsOverrideDisabledSharedRunners: boolean;
}

export function sharedRunnersSetting(ns: Columns): SharedRunnersSetting {
  if (ns.sharedRunnersEnabled) return 'enabled';
  return ns.allowDescendantsOverrideDisabledSharedRunners ? 'disabled_and_overridable' : 'disabled_and_unoverridable';
}

/** Only "disabled and unoverridable" binds what is below: a subgroup or project may then not turn instance runners on. */
export const forbidsOverride = (ns: Columns) => sharedRunnersSetting(ns) === 'disabled_and_unoverridable';

interface LockedGroup extends Columns {
  id: number;
  parent: Columns | null;
}

/**
 * The namespace validations GitLab runs for the change, worded as its RecordInvalid message
 * ("Validation failed: ..."), or null when the change is allowed.
 */
export function settingRefusal(group: LockedGroup, setting: SharedRunnersSetting): string | null {
  if (!group.parent || !forbidsOverride(group.parent)) return null;
  if (setting === 'enabled') return 'Validation failed: Shared runners enabled cannot be enabled because parent group has shared Runners disabled';
  if (setting === 'disabled_and_overridable') {
    return 'Validation failed: Allow descendants override disabled shared runners cannot be enabled because parent group does not allow it';
  }
  return null;
}

/**
 * Applies the setting inside the caller's transaction, the group row already locked. "enabled" and
 * "disabled_and_unoverridable" set every subgroup and every project of the tree alike; going from enabled to
 * "disabled_and_overridable" turns them off but leaves the subgroups' own override choice; from disabled to
 * overridable only the group's own override changes.
 */
export async function applySharedRunnersSetting(tx: Tx, group: LockedGroup, setting: SharedRunnersSetting): Promise<void> {
  const tree = sql`traversal_ids @> ARRAY[${group.id}]::int[]`;
  if (setting === 'disabled_and_overridable') {
    if (!group.sharedRunnersEnabled) {
      await tx.$executeRaw(sql`UPDATE namespaces SET allow_descendants_override_disabled_shared_runners = true WHERE id = ${group.id}`);
      return;
    }
    await tx.$executeRaw(sql`
      UPDATE namespaces SET shared_runners_enabled = false,
             allow_descendants_override_disabled_shared_runners = (id = ${group.id}) OR allow_descendants_override_disabled_shared_runners
       WHERE ${tree} AND kind = 'group'`);
    await tx.$executeRaw(sql`UPDATE projects SET shared_runners_enabled = false WHERE namespace_id IN (SELECT id FROM namespaces WHERE ${tree})`);
    return;
  }
  const enabled = setting === 'enabled';
  await tx.$executeRaw(sql`
    UPDATE namespaces SET shared_runners_enabled = ${enabled}, allow_descendants_override_disabled_shared_runners = false
     WHERE ${tree} AND kind = 'group'`);
  await tx.$executeRaw(sql`UPDATE projects SET shared_runners_enabled = ${enabled} WHERE namespace_id IN (SELECT id FROM namespaces WHERE ${tree})`);
}
