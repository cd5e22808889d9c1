// Who may read and change fleet alert rules, alerts and deliveries: administrators only (a Runway
// extension, guarded as GitLab's admin endpoints: authenticated_as_admin!, 403 for everyone else).
import type { Actor } from '../api/authenticate';

export const canManageFleetAlerts = (actor: Actor | null): boolean => !!actor?.user.admin;
