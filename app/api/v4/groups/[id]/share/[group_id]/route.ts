// DELETE /api/v4/groups/:id/share/:group_id (stop sharing the group with a group)
import { endpoint, routes } from '@/lib/api/handler';
import { unshareGroupHandler } from '@/lib/groups/share-handlers';
import { unshareParams } from '@/lib/namespaces/schema';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  DELETE: endpoint({ params: unshareParams, handle: unshareGroupHandler }),
});
