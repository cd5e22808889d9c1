// Who may read the fleet overview: administrators only (GitLab EE's runner dashboard is an admin page).
// Who may export runner usage: administrators for the instance; a group's Owners (and administrators) for
// the runners the group owns (GitLab: admins only for the instance report; the group report needs
// Maintainer, which Runway raises to Owner, the role that administers a group's runners).
import type { Actor } from '../api/authenticate';
import { AccessLevel, groupAccessLevel } from '../namespaces/access';

export const canReadFleet = (actor: Actor | null): boolean => !!actor?.user.admin;

export const canExportInstanceUsage = (actor: Actor | null): boolean => !!actor?.user.admin;

export async function canExportGroupUsage(actor: Actor | null, groupId: number): Promise<boolean> {
  if (!actor) return false;
  if (actor.user.admin) return true;
  return (await groupAccessLevel(actor.user.id, groupId)) >= AccessLevel.OWNER;
}
