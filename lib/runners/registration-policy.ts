// Who may create runners (POST /user/runners) and reset registration tokens. Complements policy.ts
// (runner-level permissions) with the owner-level ones GitLab grants: instance = admin, group = Owner,
// project = Maintainer+ (GitLab's create_runners / update_runners_registration_token).
import type { Actor } from '../api/authenticate';
import { AccessLevel, groupAccessLevel } from '../namespaces/access';
import { canAdminProjectRunners } from './policy';

export type RunnerOwnerScope = { kind: 'instance' } | { kind: 'group'; groupId: number } | { kind: 'project'; projectId: number };

/** create_runners on the scope (also update_runners_registration_token: GitLab grants both to the same roles). */
export async function canManageRunnersOf(actor: Actor | null, scope: RunnerOwnerScope): Promise<boolean> {
  if (!actor) return false;
  if (actor.user.admin) return true;
  if (scope.kind === 'group') return (await groupAccessLevel(actor.user.id, scope.groupId)) >= AccessLevel.OWNER;
  if (scope.kind === 'project') return canAdminProjectRunners(actor, scope.projectId);
  return false;
}
