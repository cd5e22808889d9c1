// POST /api/v4/users/:id/unlock (admin; Runway extension: lifts the user's sign-in locks)
import { endpoint, routes } from '@/lib/api/handler';
import { numericIdRoute, unlockUser } from '@/lib/users/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: endpoint({ scopes: [{ scope: 'read_user', readOnly: true }], before: numericIdRoute, handle: unlockUser }),
});
