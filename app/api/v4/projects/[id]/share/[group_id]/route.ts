// DELETE /api/v4/projects/:id/share/:group_id (stop sharing the project with a group)
import { endpoint, routes } from '@/lib/api/handler';
import { unshareProjectHandler } from '@/lib/groups/share-handlers';
import { unshareParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  DELETE: endpoint({ params: unshareParams, handle: unshareProjectHandler }),
});
