// GET /api/v4/projects/:id/members/:user_id (a direct member)
import { endpoint, routes } from '@/lib/api/handler';
import { showMemberHandler } from '@/lib/namespaces/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: showMemberHandler('project', false) }),
});
