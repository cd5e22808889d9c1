// GET, PUT, DELETE /api/v4/groups/:id (numeric id or URL-encoded full path)
import { endpoint, routes } from '@/lib/api/handler';
import { showGroupHandler } from '@/lib/groups/handlers';
import { deleteGroupHandler, updateGroupHandler } from '@/lib/groups/handlers';
import { showGroupParams, updateGroupParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: endpoint({ auth: 'optional', params: showGroupParams, handle: showGroupHandler }),
  PUT: endpoint({ params: updateGroupParams, handle: updateGroupHandler }),
  DELETE: endpoint({ handle: deleteGroupHandler }),
});
