// GitLab's role names for member access levels (Gitlab::Access), as the UI shows them.
const ROLES: Record<number, string> = { 5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

export const MAINTAINER = 40;
export const OWNER = 50;

export const roleName = (level: number | null | undefined): string | null => (level ? (ROLES[level] ?? null) : null);

/** The higher of a project membership and an inherited group membership (ProjectWithAccess.permissions). */
export function effectiveLevel(
  permissions: { project_access: { access_level: number } | null; group_access: { access_level: number } | null } | undefined,
): number {
  return Math.max(permissions?.project_access?.access_level ?? 0, permissions?.group_access?.access_level ?? 0);
}
