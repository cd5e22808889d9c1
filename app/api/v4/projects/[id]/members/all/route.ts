// GET /api/v4/projects/:id/members/all (direct and inherited members, highest level per user)
import { endpoint, routes } from '@/lib/api/handler';
import { listMembersHandler } from '@/lib/members/handlers';
import { listMembersParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ params: listMembersParams, handle: listMembersHandler('project', true) }),
});
