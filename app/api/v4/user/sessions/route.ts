// GET /api/v4/user/sessions: the caller's active dashboard sessions (Runway extension; see docs/api.md).
import { endpoint, routes } from '@/lib/api/handler';
import { listOwnSessions } from '@/lib/sessions/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: listOwnSessions }),
});
