// GET /api/v4/projects/:id/groups
import { endpoint, routes } from '@/lib/api/handler';
import { listProjectGroupsHandler } from '@/lib/projects/handlers';
import { listProjectGroupsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listProjectGroupsParams, handle: listProjectGroupsHandler }),
});
