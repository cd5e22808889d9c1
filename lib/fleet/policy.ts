// Who may read the fleet overview: administrators only (GitLab EE's runner dashboard is an admin page).
import type { Actor } from '../api/authenticate';

export const canReadFleet = (actor: Actor | null): boolean => !!actor?.user.admin;
