// GET /api/v4/groups/:id/members/all/:user_id (effective membership, inherited included)
import { endpoint, routes } from '@/lib/api/handler';
import { showMemberHandler } from '@/lib/members/handlers';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: showMemberHandler('group', true) }),
});
