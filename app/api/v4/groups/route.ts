// GET, POST /api/v4/groups
import { endpoint, routes } from '@/lib/api/handler';
import { createGroupHandler, listGroupsHandler } from '@/lib/groups/handlers';
import { createGroupParams, listGroupsParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: listGroupsParams, handle: listGroupsHandler }),
  POST: endpoint({ params: createGroupParams, handle: createGroupHandler }),
});
