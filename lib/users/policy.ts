// Who may do what with users. GitLab's `authenticated_as_admin!` and the entity each viewer gets.
import type { Actor } from '../api/authenticate';
import { forbidden } from '../api/errors';

export const isAdmin = (actor: Actor | null | undefined) => !!actor?.user.admin;

/** GitLab's authenticated_as_admin!: "403 Forbidden" for any signed-in non-admin. */
export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw forbidden();
}

/** Admins see UserWithAdmin rows in GET /users; everyone else UserBasic. */
export const seesAdminFields = isAdmin;

/** GitLab refuses to block the calling admin itself. */
export function checkCanBlock(actor: Actor, targetId: number): void {
  if (actor.user.id === targetId) throw forbidden('The API initiating user cannot be blocked by the API');
}
