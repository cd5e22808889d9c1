// GET, PUT, DELETE /api/v4/projects/:id/members/:user_id (a direct member)
import { endpoint, routes } from '@/lib/api/handler';
import { showMemberHandler } from '@/lib/members/handlers';
import { deleteMemberHandler, updateMemberHandler } from '@/lib/members/handlers';
import { deleteMemberParams, updateMemberParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ handle: showMemberHandler('project', false) }),
  PUT: endpoint({ params: updateMemberParams, handle: updateMemberHandler('project') }),
  DELETE: endpoint({ params: deleteMemberParams, handle: deleteMemberHandler('project') }),
});
