// GET /api/v4/groups/:id/subgroups
import { endpoint, routes } from '@/lib/api/handler';
import { listSubgroupsHandler } from '@/lib/groups/handlers';
import { listGroupsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listGroupsParams, handle: listSubgroupsHandler }),
});
