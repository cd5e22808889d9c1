// GET /api/v4/groups/:id/descendant_groups
import { endpoint, routes } from '@/lib/api/handler';
import { listDescendantGroupsHandler } from '@/lib/groups/handlers';
import { listGroupsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listGroupsParams, handle: listDescendantGroupsHandler }),
});
