// GET, POST /api/v4/projects/:id/members (direct members)
import { endpoint, routes } from '@/lib/api/handler';
import { createMemberHandler, listMembersHandler } from '@/lib/members/handlers';
import { createMemberParams, createMemberRules, listMembersParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ params: listMembersParams, handle: listMembersHandler('project', false) }),
  POST: endpoint({ params: createMemberParams, rules: createMemberRules, handle: createMemberHandler('project') }),
});
