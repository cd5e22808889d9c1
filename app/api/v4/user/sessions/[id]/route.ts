// DELETE /api/v4/user/sessions/:id: revoke one of the caller's dashboard sessions (Runway extension).
import { endpoint, routes } from '@/lib/api/handler';
import { revokeOwnSession } from '@/lib/sessions/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  DELETE: endpoint({ handle: revokeOwnSession }),
});
